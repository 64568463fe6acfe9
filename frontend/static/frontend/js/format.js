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

// Whether the browser's Intl data writes dates in `locale` (Chromium's has no Nepali: it wrote
// "Dec ५, २०२६" and "Sat ०६:१५ PM"); where it does not, the catalog's words do.
/** @param {string} locale */
const intlSpeaks = (locale) => Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0;

const MONTHS = () => [_('January'), _('February'), _('March'), _('April'), _('May'), _('June'), _('July'),
  _('August'), _('September'), _('October'), _('November'), _('December')];
// Short weekday names, Sunday first (Date.getDay()).
const WEEKDAYS = () => [_('Sun'), _('Mon'), _('Tue'), _('Wed'), _('Thu'), _('Fri'), _('Sat')];

// A deal day ("2026-12-01") as the locale writes a date; the ISO text where nothing can.
/** @param {string | null | undefined} iso @param {string} [locale] */
export function dayText(iso, locale = lang()) {
  if (!iso) return '';
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) return iso;
  if (!intlSpeaks(locale)) {
    return digits(fill(_('%(month)s %(day)s, %(year)s'), { month: MONTHS()[m - 1], day: d, year: y }), locale);
  }
  return digits(new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d)), locale);
}

// A moment on the player's clock, its weekday and time ("Sat 18:15"): the next daily deal, an arena.
/** @param {Date} when @param {string} [locale] */
export function weekdayTime(when, locale = lang()) {
  if (!intlSpeaks(locale)) {
    const time = `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
    return digits(`${WEEKDAYS()[when.getDay()]} ${time}`, locale);
  }
  return digits(when.toLocaleString(locale, { weekday: 'short', hour: '2-digit', minute: '2-digit' }), locale);
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

// The layouts by name (tripeaks/engine/layouts: the engine's titles are English, for machines
// and logs): the title in the player's language, else the one given.
/** @type {Record<string, () => string>} */
const LAYOUTS = {
  classic: () => _('Three Peaks'), 'twin-peaks': () => _('Twin Peaks'), 'four-peaks': () => _('Four Peaks'),
  'five-peaks': () => _('Five Peaks'), 'mountain-range': () => _('Mountain Range'), pyramid: () => _('Pyramid'),
  'great-pyramid': () => _('Great Pyramid'), 'twin-pyramids': () => _('Twin Pyramids'), cascade: () => _('Cascade'),
  funnel: () => _('Funnel'), 'three-valleys': () => _('Three Valleys'), diamond: () => _('Diamond'),
  hourglass: () => _('Hourglass'), mesa: () => _('Mesa'), wedge: () => _('Wedge'), ziggurat: () => _('Ziggurat'),
  checkerboard: () => _('Checkerboard'), wall: () => _('The Wall'), 'great-wall': () => _('Great Wall'),
  'stone-wall': () => _('Stone Wall'), 'ruined-wall': () => _('Ruined Wall'), fence: () => _('Fence'),
  castle: () => _('Castle'), 'five-towers': () => _('Five Towers'), 'twin-towers': () => _('Twin Towers'),
  skyline: () => _('Skyline'), lighthouse: () => _('Lighthouse'), staircase: () => _('Staircase'),
  steps: () => _('Steps'), bridge: () => _('Bridge'), 'suspension-bridge': () => _('Suspension Bridge'),
  'rope-bridge': () => _('Rope Bridge'), arch: () => _('Arch'), aqueduct: () => _('Aqueduct'),
  temple: () => _('Temple'), torii: () => _('Torii Gate'), pagoda: () => _('Pagoda'), ladder: () => _('Ladder'),
  crown: () => _('Crown'), zigzag: () => _('Zigzag'), waves: () => _('Waves'), butterfly: () => _('Butterfly'),
  bowtie: () => _('Bow Tie'), cross: () => _('Cross'), saltire: () => _('Saltire'), heart: () => _('Heart'),
  arrow: () => _('Arrow'), frame: () => _('Picture Frame'), 'pine-tree': () => _('Pine Tree'),
  cottage: () => _('Cottage'), sailboat: () => _('Sailboat'), dice: () => _('Dice'), dominoes: () => _('Dominoes'),
  horseshoe: () => _('Horseshoe'),
};
/** @param {string} name a layout's name ("twin-peaks") @param {string} [title] its English title */
export function layoutTitle(name, title = name) {
  return LAYOUTS[name] ? LAYOUTS[name]() : title;
}

// The arenas of the default schedule (settings.ARENA_SCHEDULE) are named in English in the
// database; their names are said in the player's language, any other name as it is.
/** @type {Record<string, () => string>} */
const ARENAS = { 'Hourly arena': () => _('Hourly arena'), 'Daily arena': () => _('Daily arena') };
/** @param {string} name */
export function arenaName(name) {
  return ARENAS[name] ? ARENAS[name]() : name;
}
