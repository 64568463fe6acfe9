// Sharing one's own custom or numbered game: a link anyone can open (signed out too) to watch
// it (POST /api/games/{id}/share, the same link again each time; DELETE withdraws it).

import { api, ApiError } from '../../api.js';
import { copyText } from '../../share.js';
import { _ } from '../../i18n.js';

// The deals whose games may be shared: a daily's runs open for everybody once its day is over,
// a contest's for its players, and a random deal is dealt to one player only.
const SHAREABLE = ['custom', 'numbered'];

/**
 * May the viewer share this game? A custom or numbered deal's game opens by its id to its player
 * alone (anyone else needs a shared link), so one opened by its id is the viewer's own; the
 * server says no (404) to anybody else all the same.
 * @param {ReplayGame} game @param {User | null} user @param {boolean} byLink
 */
export function mayShare(game, user, byLink) {
  return !byLink && Boolean(user) && SHAREABLE.includes(game.deal.source) && game.own !== false;
}

/** @param {HTMLElement} root the review's screen @param {ReplayGame} game */
export function bindShare(root, game) {
  const panel = /** @type {HTMLElement} */ (root.querySelector('.review-share'));
  const share = /** @type {HTMLButtonElement} */ (panel.querySelector('[data-testid=review-share]'));
  const unshare = /** @type {HTMLButtonElement} */ (panel.querySelector('[data-testid=review-unshare]'));
  const said = /** @type {HTMLElement} */ (panel.querySelector('[data-testid=review-share-link]'));
  panel.hidden = false;
  const path = `games/${encodeURIComponent(game.id)}/share`;
  /** @param {string} text */
  const say = (text) => { said.textContent = text; said.hidden = !text; };
  share.addEventListener('click', async () => {
    try {
      /** @type {{token: string, url: string}} */
      const made = await api(path, { method: 'POST' });
      const link = new URL(made.url, location.origin).href;
      say(link);
      unshare.hidden = false;
      await copyText(link, share);
    } catch (e) {
      say(e instanceof ApiError && e.status < 500 && e.status !== 429 ? _('This game cannot be shared.') : _('Something went wrong: please reload the page.'));
    }
  });
  unshare.addEventListener('click', async () => {
    try {
      await api(path, { method: 'DELETE' });
      say(_('This link does not work.'));
      unshare.hidden = true;
    } catch {
      say(_('Something went wrong: please reload the page.'));
    }
  });
}
