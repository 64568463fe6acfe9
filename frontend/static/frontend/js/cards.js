// Playing cards drawn in code as SVG. Four suit colours (spades black, hearts red, diamonds
// blue, clubs green, set in CSS) and four distinct shapes, so no suit depends on colour alone.

const SUIT_PATHS = {
  H: '<path d="M5 9.4C1.3 6.6 0 4.6 0 2.9 0 1.3 1.2 0 2.7 0 3.8 0 4.6.7 5 1.6 5.4.7 6.2 0 7.3 0 8.8 0 10 1.3 10 2.9 10 4.6 8.7 6.6 5 9.4Z"/>',
  D: '<path d="M5 0 9 5 5 10 1 5Z"/>',
  S: '<path d="M5 0C3 2.4 0 4 0 6.2 0 7.7 1.2 8.6 2.5 8.6c.9 0 1.6-.4 2-1-.1 1-.5 1.8-1.3 2.4h3.6c-.8-.6-1.2-1.4-1.3-2.4.4.6 1.1 1 2 1C8.8 8.6 10 7.7 10 6.2 10 4 7 2.4 5 0Z"/>',
  C: '<circle cx="5" cy="2.6" r="2.4"/><circle cx="2.5" cy="6.1" r="2.4"/><circle cx="7.5" cy="6.1" r="2.4"/><path d="M4.4 6 3.3 10h3.4L5.6 6Z"/>',
};

// One hidden <svg> with the suit symbols and the back pattern; cards <use> them.
export function sprite() {
  const symbols = Object.entries(SUIT_PATHS)
    .map(([s, p]) => `<symbol id="s-${s}" viewBox="0 0 10 10">${p}</symbol>`)
    .join('');
  return `<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>${symbols}` +
    '<pattern id="backp" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="12" height="12" class="bk1"/><rect width="6" height="6" class="bk2"/></pattern></defs></svg>';
}

/** @type {Record<string, string>} */
const RANK_TEXT = { T: '10' };

/** @param {string} token such as "TD" */
export function face(token) {
  const r = RANK_TEXT[token[0]] || token[0];
  const s = token[1];
  const narrow = r.length > 1 ? ' textLength="50" lengthAdjust="spacingAndGlyphs"' : '';
  const corner = `<text x="7" y="44" class="rk"${narrow}>${r}</text><use href="#s-${s}" x="9" y="52" width="26" height="26"/>`;
  return `<svg viewBox="0 0 100 140" class="face s${s}" aria-hidden="true" focusable="false">` +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" class="cbg"/>' + corner +
    `<use href="#s-${s}" x="40" y="72" width="52" height="52"/></svg>`;
}

export function back() {
  return '<svg viewBox="0 0 100 140" class="back" aria-hidden="true" focusable="false">' +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" class="bbg"/>' +
    '<rect x="9" y="9" width="82" height="122" rx="5" fill="url(#backp)" class="bin"/></svg>';
}

export function slot() {
  return '<svg viewBox="0 0 100 140" class="slot" aria-hidden="true" focusable="false">' +
    '<rect x="3" y="3" width="94" height="134" rx="9"/></svg>';
}
