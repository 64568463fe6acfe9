// Copying a link or a result to the clipboard, with word on the button that it worked.

export async function copyText(text, button) {
  const was = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select the text and copy it';
  }
  setTimeout(() => { button.textContent = was; }, 2000);
}
