// The analysis beside the replay: "being worked out" while the server answers 202 (asked again
// gently: poll.js), then what it says of the game (marks.js), the marks on the list and the
// strip, and the buttons that show the winning line and the par line on the table (a numbered
// deal's kept back until the viewer, warned and asked, reveals them: reveal.js).

import { api, ApiError } from '../../api.js';
import { esc, openDialog, closeDialog } from '../../dialog.js';
import { _, fill, num } from '../../i18n.js';
import { AnalysisPoll } from './poll.js';
import { summary, verdictText } from './marks.js';
import { linesOffer, revealWarning, signInLink, refusedReveal } from './reveal.js';

/** @typedef {import('./player.js').ReviewPlayer} ReviewPlayer */
/** @typedef {import('./poll.js').PollAnswer} PollAnswer */

/**
 * One ask for the analysis at `path` (under /api/): ready, pending, or told to wait. The reveal
 * (`POST <path>/reveal`) answers the same way.
 * @param {string} path @param {'GET' | 'POST'} [method] @returns {Promise<PollAnswer>}
 */
export async function askAnalysis(path, method = 'GET') {
  try {
    /** @type {AnalysisPayload | {state: 'pending'}} */
    const a = await api(path, { method });
    return { analysis: a.state === 'ready' ? /** @type {AnalysisPayload} */ (a) : null };
  } catch (e) {
    if (e instanceof ApiError && (e.status === 429 || e.status === 503)) return { analysis: null, retryAfter: e.retryAfter };
    throw e;
  }
}

/** @param {string} act @param {string} label @param {boolean} [secondary] */
const button = (act, label, secondary = false) => `<button type="button" class="button${secondary ? ' secondary' : ''}" data-testid="${act}">${label}</button>`;

/** The solver's lines' buttons, or what stands in for them while they are hidden. @param {AnalysisPayload} a @param {boolean} signedIn */
function lineButtons(a, signedIn) {
  const offer = linesOffer(a, signedIn);
  if (offer === 'reveal') {
    return `<p class="small review-reveal-warning" data-testid="reveal-warning">${esc(revealWarning())}</p>${button('reveal-lines', _('Show the solver\'s line'))}`;
  }
  if (offer === 'sign-in') {
    return `<p data-testid="reveal-sign-in">${esc(_('Sign in or play as a guest to see the solver\'s line.'))} <a href="${esc(signInLink(location.hash))}">${_('Sign in')}</a></p>${button('reveal-guest', _('Play as a guest'), true)}`;
  }
  return [
    a.losing_move != null && a.winning_line?.length ? button('show-winning-line', _('Show the winning line')) : '',
    a.par_line?.length ? button('show-par-line', _('Show the par line'), true) : '',
    button('back-to-game', _('Back to the game'), true),
  ].join(' ');
}

const LEGEND = () => `<ul class="review-legend">${['winnable', 'lost', 'unknown'].map((v) => `<li class="v-${v}"><span class="mark" aria-hidden="true"></span> ${esc(verdictText(/** @type {ReviewVerdict} */ (v)))}</li>`).join('')}</ul>`;

export class AnalysisPanel {
  /**
   * @param {HTMLElement} root the review's screen @param {ReviewPlayer} player
   * @param {string} path the analysis, under /api/ @param {AppContext} ctx who is signed in
   */
  constructor(root, player, path, ctx) {
    this.ctx = ctx;
    this.out = /** @type {HTMLElement} */ (root.querySelector('.review-analysis-out'));
    this.player = player;
    this.path = path;
    /** @type {AnalysisPayload | null} */
    this.analysis = null;
    this.poll = this.newPoll();
    player.onLine = () => this.drawLineButtons();
    this.out.addEventListener('click', (e) => this.clicked(e));
  }

  newPoll() {
    return new AnalysisPoll(() => askAnalysis(this.path), {
      ready: (a) => this.ready(a),
      gaveUp: () => this.stopped(_('Not ready yet: ask again in a while.')),
      failed: (e) => this.failed(e),
    });
  }

  // Warned and asked first: the reveal ends the viewer's ranking on the deal.
  confirmReveal() {
    const label = _('Show the solver\'s line');
    openDialog({
      id: 'reveal-confirm', title: esc(label), body: `<p>${esc(revealWarning())}</p>`, cancel: closeDialog,
      buttons: [
        { label, primary: true, id: 'reveal-yes', run: () => { closeDialog(); this.reveal(); } },
        { label: _('Cancel'), id: 'reveal-no', run: closeDialog },
      ],
    });
  }

  // POST .../reveal, asked again while pending (nothing marked then); the lines once it answers.
  reveal() {
    const row = this.out.querySelector('.review-line-buttons');
    if (row) row.innerHTML = `<p data-testid="reveal-pending">${esc(_('Analysis pending'))}</p>`;
    this.poll.stop();
    this.poll = new AnalysisPoll(() => askAnalysis(`${this.path}/reveal`, 'POST'), {
      ready: (a) => { this.ready(a); /** @type {HTMLElement | null} */ (this.out.querySelector('.review-line-buttons .button'))?.focus(); },
      gaveUp: () => this.stopped(_('Not ready yet: ask again in a while.')),
      failed: (e) => {
        if (refusedReveal(e) === 'failed') { this.failed(e); return; }
        this.ctx.user = null; // the session ended meanwhile
        this.redrawLineButtons();
      },
    });
    this.poll.run();
  }

  async asGuest() {
    if (await this.ctx.becomeGuest()) this.redrawLineButtons();
  }

  redrawLineButtons() {
    const row = this.out.querySelector('.review-line-buttons');
    if (row) row.innerHTML = '';
    this.drawLineButtons();
    /** @type {HTMLElement | null} */ (row?.querySelector('.button'))?.focus();
  }

  /** @param {unknown} e what the ask threw */
  failed(e) {
    const code = e instanceof ApiError ? e.body.code : null;
    // The analysis holds the answer: it waits while the deal still counts (a daily's day, a contest).
    if (code === 'analysis_later') {
      this.out.innerHTML = `<p data-testid="analysis-later">${esc(_('The analysis opens once this deal\'s day or contest is over.'))}</p>`;
      return;
    }
    this.stopped(e instanceof ApiError && e.status === 404 ? _('Something went wrong: please reload the page.') : _('Something went wrong: please reload the page.'));
  }

  start() {
    this.out.innerHTML = `<p data-testid="analysis-pending">${_('Analysis pending')}</p>`;
    this.poll.run();
  }

  /** @param {string} words */
  stopped(words) {
    this.out.innerHTML = `<p data-testid="analysis-stopped">${esc(words)}</p>${button('analysis-again', _('Ask again'), true)}`;
  }

  /** @param {AnalysisPayload} a */
  ready(a) {
    this.analysis = a;
    const game = this.player.replay.game;
    const lines = summary(game, a).map((l) => `<p data-testid="analysis-${l.id}"${l.id === 'lost-at' && a.losing_move != null ? ' class="review-lost-at"' : ''}>${esc(l.text)}</p>`).join('');
    const budget = fill(_('Budget: %(nodes)s positions searched for each.'), { nodes: num(a.budget_nodes) });
    this.out.innerHTML = `${lines}<div class="review-line-buttons"></div>${LEGEND()}<p class="small">${esc(budget)}</p>`;
    this.player.setAnalysis(a);
    this.drawLineButtons();
  }

  // The buttons stay in place (the focus with them); "Back to the game" shows while a line is on the table.
  drawLineButtons() {
    const a = this.analysis;
    const row = this.out.querySelector('.review-line-buttons');
    if (!a || !row) return;
    if (!row.childElementCount) row.innerHTML = lineButtons(a, Boolean(this.ctx.user));
    const back = /** @type {HTMLElement | null} */ (row.querySelector('[data-testid=back-to-game]'));
    if (back) back.hidden = !this.player.line;
  }

  /** @param {Event} e */
  clicked(e) {
    const b = e.target instanceof Element ? e.target.closest('button') : null;
    const a = this.analysis;
    if (!b) return;
    const act = b.dataset.testid;
    if (act === 'analysis-again') { this.poll.stop(); this.poll = this.newPoll(); this.start(); return; }
    if (!a) return;
    if (act === 'reveal-lines') this.confirmReveal();
    else if (act === 'reveal-guest') this.asGuest();
    else if (act === 'show-winning-line' && a.losing_move != null && a.winning_line) this.player.showLine(_('Winning line'), a.winning_line, a.losing_move - 1);
    else if (act === 'show-par-line' && a.par_line) this.player.showLine(_('Par line'), a.par_line, 0);
    else if (act === 'back-to-game') this.player.show(this.player.index);
  }

  destroy() { this.poll.stop(); }
}
