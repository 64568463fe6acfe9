// The single-page app: hash routes, each page a module loaded on demand; theme and sound.

import { api, ApiError, layouts, knownLayout } from './api.js';
import { sprite } from './cards.js';
import { _, serverText } from './i18n.js';
import { layoutTitle } from './format.js';

// The page's boot data (frontend/views.py boot_data) and its fixed elements (base.html, home.html).
// It carries the first table (the deal in progress and its layout; signed out, the face-down
// table's layout), so that the first card is drawn with no request after the modules.
/** @type {{user: User | null, has_game?: boolean, game?: GameView, layout?: Outline}} */
const boot = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('boot')).textContent || '{}');
const root = /** @type {HTMLElement} */ (document.getElementById('app'));
const title = /** @type {HTMLElement} */ (document.getElementById('page-title'));
/** @type {GameView | null} a game just started (or the boot data's), for the play page to take */
let pendingGame = boot.game || null;
if (boot.layout) knownLayout(boot.layout);
/** @type {(() => void) | null} the mounted page's */
let cleanup = null;
let routeId = 0;

/** @type {Record<string, [string, () => string]>} page module and heading, by the hash's first part */
const ROUTES = {
  '': ['start', () => 'TriPeaks Online'],
  play: ['play', () => _('Play')],
  layouts: ['layouts', () => _('Layouts')],
  numbered: ['numbered', () => _('Numbered deals')],
  boards: ['boards', () => _('Leaderboards')],
  arenas: ['arenas', () => _('Arenas')],
  stats: ['stats', () => _('Statistics')],
  help: ['help', () => _('How to play')],
  custom: ['custom', () => _('Custom deal')],
  ratings: ['ratings', () => _('Ratings')],
  races: ['races', () => _('Races')],
  review: ['review', () => _('Game review')],
};
// Each page's module, loaded on demand. Named in full, never by a computed path: collectstatic
// writes the hashed name of each into this file (frontend/storage.py).
/** @type {Record<string, () => Promise<{mount: Mount}>>} */
const PAGES = {
  start: () => import('./pages/start.js'),
  play: () => import('./pages/play.js'),
  layouts: () => import('./pages/layouts.js'),
  numbered: () => import('./pages/numbered.js'),
  boards: () => import('./pages/boards.js'),
  arenas: () => import('./pages/arenas.js'),
  stats: () => import('./pages/stats.js'),
  help: () => import('./pages/help.js'),
  custom: () => import('./pages/custom.js'),
  ratings: () => import('./pages/ratings.js'),
  races: () => import('./pages/races.js'),
  review: () => import('./pages/review.js'),
};

// ---------------------------------------------------------------- theme: system, light, dark
const THEMES = ['system', 'light', 'dark'];
/** @type {Record<string, () => string>} */
const THEME_LABELS = { system: () => _('Theme: system'), light: () => _('Theme: light'), dark: () => _('Theme: dark') };
/** @param {string} t */
function applyTheme(t) {
  if (t === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = t;
  const b = document.getElementById('theme-toggle');
  if (b && THEME_LABELS[t]) b.textContent = THEME_LABELS[t]();
}
function cycleTheme() {
  const now = localStorage.getItem('tp.theme') || 'system';
  const next = THEMES[(THEMES.indexOf(now) + 1) % THEMES.length];
  localStorage.setItem('tp.theme', next);
  applyTheme(next);
}
applyTheme(localStorage.getItem('tp.theme') || 'system');
document.getElementById('theme-toggle')?.addEventListener('click', cycleTheme);

// ---------------------------------------------------------------- language: chosen, remembered
// The form posts to Django's set_language (a cookie); with scripts it goes at once, back to the
// same screen (hash included).
const langForm = /** @type {HTMLFormElement | null} */ (document.querySelector('[data-testid=language-form]'));
langForm?.querySelector('select')?.addEventListener('change', () => {
  /** @type {HTMLInputElement} */ (langForm.querySelector('[name=next]')).value = location.pathname + location.hash;
  langForm.submit();
});

// A refusal's words (refusals.js), loaded with the first: no first screen waits for them.
/** @type {(...args: Parameters<typeof import('./refusals.js').refusalWords>) => Promise<(left: number) => string>} */
const refusal = async (...args) => (await import('./refusals.js')).refusalWords(...args);

// ---------------------------------------------------------------- what pages share
/** @type {AppContext} */
const ctx = {
  user: boot.user,
  hasGame: Boolean(boot.has_game),
  cycleTheme,
  takeGame() { const g = pendingGame; pendingGame = null; return g; },
  layoutName: () => localStorage.getItem('tp.layout') || 'classic',
  layoutTitle: () => layoutTitle(ctx.layoutName(), localStorage.getItem('tp.layoutTitle') || _('Three Peaks')),
  // Start a deal over REST (POST /api/games) and show it. Without an account the guest way is
  // offered first (welcome.js).
  async startGame(body) {
    if (!ctx.user) { (await import('./welcome.js')).guestFirst(ctx, body); return; }
    let game;
    try {
      game = await api('games', { method: 'POST', body });
    } catch (e) {
      if (e instanceof ApiError && e.retryAfter) noticeWait(await refusal('deal', e.body.code, e.status), e.retryAfter);
      else notice(startError(e));
      return;
    }
    ctx.openGame(game);
  },
  // Play as a guest (POST /api/auth/guest: the same limits as the guest page), signed in by a
  // session from now on. False when refused (said in the notice).
  async becomeGuest() {
    try {
      /** @type {User} */
      const me = await api('auth/guest', { method: 'POST' });
      ctx.user = { username: me.username, public_name: me.public_name };
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.retryAfter) noticeWait(await refusal('guest', 'throttled', e.status), e.retryAfter);
      else notice(_('Could not start a guest game: check your connection and try again.'));
      return false;
    }
  },
  // Show a game just started (its view in hand) on a play page built afresh.
  openGame(game) {
    pendingGame = game;
    ctx.hasGame = true;
    if (location.hash === '#/play') route();
    else location.hash = '#/play';
  },
  notice: (text) => notice(text),
  noticeWait: (words, seconds) => noticeWait(words, seconds),
  layouts,
};

// What a refused start says to a player: the server's field errors are for programs.
/** @param {unknown} e what starting threw @returns {string} */
export function startError(e) {
  if (!(e instanceof ApiError)) return _('Could not start the deal: check your connection and try again.');
  const errors = e.body.errors || {};
  if (errors.number) return _('There is no deal with that number: numbered deals go from 1 to 50,000.');
  if (errors.deal) return _('That deal code is not one we can deal: check that it was copied whole.');
  if (errors.layout) return _('That layout does not exist any more: choose another one.');
  if (e.body.code === 'ranked_deal') return _('This deal is on a board that still ranks: play it there.');
  if (e.status === 429) return _('Too many new deals in a short time: wait a moment and try again.');
  if (e.status >= 500) return _('The server could not start the deal: try again in a few seconds.');
  return e.body.code ? serverText(e.message, _('Could not start the deal.')) : _('Could not start the deal.');
}

/** @type {ReturnType<typeof setInterval> | undefined} the wait counted down in the notice */
let waiting;

/** @param {string} text none hides the notice */
export function notice(text) {
  clearInterval(waiting);
  const n = /** @type {HTMLElement} */ (document.getElementById('notice'));
  n.removeAttribute('aria-live');
  n.textContent = text;
  n.hidden = !text;
}

// A short wait is still shown this long, to be read.
const NOTICE_READ_S = 4;

// A refusal with its wait (refusals.js), counted down in the notice each second; it goes when
// the wait is over (a short one after NOTICE_READ_S). The one way every page says a 429 or a 503
// (and a socket's refusal).
/** @param {(left: number) => string} words @param {number} seconds */
export function noticeWait(words, seconds) {
  let left = Math.max(1, Math.ceil(seconds));
  let shown = 0;
  notice(words(left));
  const n = /** @type {HTMLElement} */ (document.getElementById('notice'));
  // The refusal is said once (an alert); its countdown is for the eye, not read out every second.
  waiting = setInterval(() => {
    n.setAttribute('aria-live', 'off');
    left -= 1;
    shown += 1;
    if (left > 0) n.textContent = words(left);
    else if (shown >= NOTICE_READ_S) notice('');
  }, 1000);
}

async function route() {
  const [name, ...params] = location.hash.replace(/^#\/?/, '').split('/');
  const [page, headingOf] = ROUTES[name] || ROUTES[''];
  const heading = headingOf();
  // A game in hand is the play page's to show, now or never: later it would be an old view.
  if (page !== 'play') pendingGame = null;
  if (cleanup) { cleanup(); cleanup = null; }
  notice('');
  title.textContent = heading;
  document.title = name && ROUTES[name] ? `${heading} · TriPeaks Online` : 'TriPeaks Online';
  document.querySelectorAll('.site-nav a').forEach((a) => {
    if (a.getAttribute("href") === `/#/${name}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  const mine = ++routeId;
  // Each page mounts into its own element: a slow page that finishes after the player has
  // moved on writes into a detached element and is cleaned up at once.
  const el = document.createElement('div');
  el.className = `page page-${page}`;
  root.replaceChildren(el);
  try {
    const mod = await PAGES[page]();
    const done = (await mod.mount(el, ctx, params)) || null;
    if (mine !== routeId) { if (done) done(); return; }
    cleanup = done;
    if (!performance.getEntriesByName('tp-first-screen').length) performance.mark('tp-first-screen');
  } catch (e) {
    if (mine !== routeId) return;
    console.warn(e);
    el.innerHTML = '';
    if (e instanceof ApiError && e.retryAfter) noticeWait(await refusal('page', e.body.code, e.status), e.retryAfter);
    else notice(e instanceof ApiError ? serverText(e.message, _('Something went wrong: please reload the page.')) : _('Something went wrong: please reload the page.'));
  }
}

document.body.insertAdjacentHTML('afterbegin', sprite());
document.getElementById('notice')?.addEventListener('click', () => notice(''));
window.addEventListener('hashchange', route);
route();
