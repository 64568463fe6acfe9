// Words and numbers in the player's language. The words come from Django's JavaScript catalog
// (/jsi18n/, loaded before the modules: window.gettext, ngettext, interpolate); without it (unit
// tests under node) the English source text is used. Numbers and dates follow <html lang>.

/** @type {{gettext?: (text: string) => string, ngettext?: (one: string, many: string, n: number) => string, document?: Document}} */
const g = globalThis;

/** @param {string} text @returns {string} */
export const _ = (text) => (g.gettext ? g.gettext(text) : text);

/** @param {string} one @param {string} many @param {number} n @returns {string} */
export function ngettext(one, many, n) {
  return g.ngettext ? g.ngettext(one, many, n) : n === 1 ? one : many;
}

// "%(name)s" placeholders filled from `values` (as Django's interpolate(fmt, obj, true)).
/** @param {string} text @param {Record<string, unknown>} values */
export function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (/** @type {string} */ _m, /** @type {string} */ k) => String(values[k]));
}

export function lang() {
  return (g.document && g.document.documentElement.lang) || 'en';
}

// A whole number in the locale's grouping and digits (Devanagari for ne: not every browser's Intl
// data writes them for "ne", so digits() puts them right).
/** @param {number} n @param {string} [locale] */
export function num(n, locale = lang()) {
  return digits(new Intl.NumberFormat(locale).format(n), locale);
}

// The zero of each language whose digits are not ASCII; Nepali writes Devanagari digits.
/** @type {Record<string, number>} */
const ZEROS = { ne: 0x0966 };

// ASCII digits in a text (a clock, a countdown, a date) in the locale's own digits.
/** @param {string | number} text @param {string} [locale] */
export function digits(text, locale = lang()) {
  const zero = ZEROS[String(locale).slice(0, 2)];
  if (!zero) return String(text);
  return String(text).replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

// A message from the server (its `detail`) is English; in another language the page says it in
// its own words instead (`fallback`, already translated). The codes stay the machine's.
/** @param {string | null | undefined} detail @param {string} fallback @returns {string} */
export function serverText(detail, fallback) {
  return lang().startsWith('en') && detail ? detail : fallback;
}
