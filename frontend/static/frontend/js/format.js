// Small pure helpers for text shown on the page, in the player's language (i18n.js): card names,
// the clock, the countdown, rule-set and deal titles, counts, days.

import { _, ngettext, fill, num, digits, lang } from './i18n.js';

/** @type {Record<string, () => string>} */
const RANKS = { A: () => _('ace'), T: () => '10', J: () => _('jack'), Q: () => _('queen'), K: () => _('king') };
/** @type {Record<string, () => string>} */
const SUITS = { C: () => _('clubs'), D: () => _('diamonds'), H: () => _('hearts'), S: () => _('spades') };

/** @param {string | null | undefined} token such as "TD"; none: face down */
export function cardName(token) {
  if (!token) return _('face down');
  const r = token[0], s = token[1];
  // The rank as the card face shows it (the accessible name holds the visible text).
  return fill(_('%(rank)s of %(suit)s'), { rank: RANKS[r] ? RANKS[r]() : r, suit: SUITS[s]() });
}

/** @param {number} ms */
export function clock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return digits(`${h ? h + ':' : ''}${mm}:${String(s).padStart(2, '0')}`);
}

// Elapsed time now, from a view received at `receivedAt` (the page's own ms clock).
/**
 * @param {GameView | null} view
 * @param {number} receivedAt
 * @param {number} now
 */
export function elapsedNow(view, receivedAt, now) {
  if (!view) return 0;
  return view.elapsed_ms + (view.clock_running && !view.paused ? Math.max(0, now - receivedAt) : 0);
}

/** @param {number} ms */
export function countdown(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return digits(fill(_('%(h)sh %(m)sm %(s)ss'), { h, m: String(m).padStart(2, '0'), s: String(s).padStart(2, '0') }));
}

/** @param {string | {wrap: boolean, open: boolean}} rules a key or a rule set */
export function rulesTitle(rules) {
  const r = typeof rules === 'string' ? parseKey(rules) : rules;
  const wrap = r.wrap ? _('King-Ace on') : _('King-Ace off');
  return fill(r.open ? _('%(wrap)s, peaks open') : _('%(wrap)s, peaks closed'), { wrap });
}

/** @param {string} key @returns {Rules} */
export function parseKey(key) {
  const parts = String(key).split('-');
  return { key, wrap: parts[0] === 'wrap', open: parts[1] === 'open', start: parts[2] === 'empty' ? 'empty' : 'waste' };
}

/** @param {number | null | undefined} rate */
export function pct(rate) {
  return rate == null ? '–' : digits(new Intl.NumberFormat(lang(), { style: 'percent' }).format(Math.round(rate * 100) / 100));
}

// A deal day ("2026-12-01") as the locale writes a date; the ISO text where Intl cannot.
/** @param {string | null | undefined} iso @param {string} [locale] */
export function dayText(iso, locale = lang()) {
  if (!iso) return '';
  const [y, m, d] = iso.split('-').map(Number);
  try {
    return digits(new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d)), locale);
  } catch {
    return iso;
  }
}

// A day ("2026-12-01", or a time in ms) in a few letters for a chart's axis ("1 Dec", "Dec 1"), or
// its weekday ("Mon") with `part` 'weekday'; the ISO text where Intl cannot.
/** @param {string | number} day @param {'day' | 'weekday'} [part] @param {string} [locale] */
export function dayShort(day, part = 'day', locale = lang()) {
  const t = typeof day === 'number' ? day : Date.parse(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t)) return String(day);
  /** @type {Intl.DateTimeFormatOptions} */
  const options = part === 'weekday' ? { weekday: 'short' } : { month: 'short', day: 'numeric' };
  try {
    return digits(new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(t), locale);
  } catch {
    return new Date(t).toISOString().slice(0, 10);
  }
}

// "1 move", "2 moves" (in the locale's digits).
/** @param {number} n */
export function movesText(n) {
  return fill(ngettext('%(n)s move', '%(n)s moves', n), { n: num(n) });
}

// "1 card left", "5 cards left".
/** @param {number} n */
export function cardsLeftText(n) {
  return fill(ngettext('%(n)s card left', '%(n)s cards left', n), { n: num(n) });
}

// What a game is: "Daily deal 1 Dec 2026 · King-Ace on, peaks closed", "Deal #42 · ...".
/** @param {{mode: string, day?: string | null, number?: number | null, rules: string | {wrap: boolean, open: boolean}}} v a game's view or summary */
export function dealTitle(v) {
  const what = v.mode === 'daily' ? fill(_('Daily deal %(day)s'), { day: dayText(v.day) })
    : v.mode === 'numbered' ? fill(_('Deal #%(n)s'), { n: num(Number(v.number)) })
      : v.mode === 'custom' ? _('Custom deal') : _('New deal');
  return `${what} · ${rulesTitle(v.rules)}`;
}
