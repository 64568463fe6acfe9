// Words and numbers in the player's language. The words come from Django's JavaScript catalog
// (/jsi18n/, loaded before the modules: window.gettext, ngettext, interpolate); without it (unit
// tests under node) the English source text is used. Numbers and dates follow <html lang>.

const g = globalThis;

export const _ = (text) => (g.gettext ? g.gettext(text) : text);

export function ngettext(one, many, n) {
  return g.ngettext ? g.ngettext(one, many, n) : n === 1 ? one : many;
}

// "%(name)s" placeholders filled from `values` (as Django's interpolate(fmt, obj, true)).
export function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_m, k) => String(values[k]));
}

export function lang() {
  return (g.document && g.document.documentElement.lang) || 'en';
}

// A whole number in the locale's own digits (Devanagari for ne).
export function num(n, locale = lang()) {
  return new Intl.NumberFormat(locale).format(n);
}
