// The review's stylesheet, added once by the first review (only the review needs it). The table
// takes its size from the stage when it is made, so the review waits for the sheet first.

/** @type {Promise<void> | null} */
let loaded = null;

/** @returns {Promise<void>} once the sheet applies (or failed to come: the page still works) */
export function reviewStyles() {
  if (loaded) return loaded;
  const link = document.createElement('link');
  link.id = 'review-css';
  link.rel = 'stylesheet';
  link.href = '/static/frontend/css/review.css';
  loaded = new Promise((resolve) => {
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => { loaded = null; link.remove(); resolve(); });
  });
  document.head.append(link);
  return loaded;
}
