// Leaderboards: today's boards per rule set (live), past days, numbered deals, all-time boards.
// A daily deal has two boards: each player's first try (the ranked one) and each player's best run;
// the switch between them is kept in the URL (`#/boards/today/best`, `#/boards/past/first`).
// The player's own line is always shown, on the page or under it.

import { api } from '../api.js';
import { LiveSocket } from '../socket.js';
import { clock, rulesTitle, pct, dayText } from '../format.js';
import { esc } from '../dialog.js';
import { _, fill, num } from '../i18n.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];
/** @type {Record<string, () => string>} */
const ALLTIME = { 'daily-wins': () => _('Daily deals won'), 'daily-streak': () => _('Best daily streak'), 'win-rate': () => _('Win rate (20+ games)') };

/** @type {Record<string, () => string>} the daily boards, by the API's `board` */
const DAILY = { first: () => _('First try'), best: () => _('Best run') };

/** @param {string} board the board shown */
const boardSwitch = (board) => `<fieldset class="board-switch" data-testid="board-switch"><legend>${_('Board')}</legend>${Object.keys(DAILY).map((b) => `<label><input type="radio" name="board" value="${b}"${b === board ? ' checked' : ''}> ${DAILY[b]()}</label>`).join('')}</fieldset>`;

/** @param {string} board */
const boardNote = (board) => `<p class="small board-note" data-testid="board-note">${board === 'best'
  ? _('Each player\'s best run on the deal, practice runs included.')
  : _('Each player\'s first try at the deal: the ranked board. Later runs are practice.')}</p>`;

// A past daily board's line names its run's game (once the day is over in Kathmandu): its result
// opens the replay (a link in place of the words, so the board grows no wider on a phone).
/** @param {DealLine & {game?: string}} l @param {string} result */
const withReplay = (l, result) => (l.game
  ? `<a href="#/review/${encodeURIComponent(l.game)}" data-testid="board-replay" title="${_('Replay')}">${result}<span class="sr-only">: ${_('Replay')}, ${esc(l.player.display_name)}</span></a>`
  : result);

/** @param {DealLine & {game?: string}} l @param {string | undefined} me the viewer's username */
function dealRow(l, me) {
  const mine = me && l.player.username === me ? ' class="mine"' : '';
  const result = withReplay(l, l.won ? _('Won') : fill(_('%(n)s left'), { n: num(l.cards_left) }));
  return `<tr${mine}><td>${l.rank == null ? '–' : num(l.rank)}</td><td>${esc(l.player.display_name)}</td><td>${result}</td><td>${clock(l.time_ms)}</td><td>${num(l.moves)}</td><td>${num(l.score)}</td></tr>`;
}

/** @param {DealPage} page @param {Viewer} user */
export function dealBoard(page, user) {
  const me = user ? user.username : undefined;
  const lines = page.lines || [];
  const own = page.me && !lines.some((l) => l.player.username === me) ? `<tfoot>${dealRow(page.me, me)}</tfoot>` : '';
  if (!lines.length) return `<p class="empty">${_('Nobody has finished this deal yet.')}</p>` + (page.me ? `<table class="board">${own}</table>` : '');
  return `<table class="board" data-testid="board"><caption class="sr-only">${_('Leaderboard')}</caption><thead><tr><th scope="col">#</th><th scope="col">${_('Player')}</th><th scope="col">${_('Result')}</th><th scope="col">${_('Time')}</th><th scope="col">${_('Moves')}</th><th scope="col">${_('Score')}</th></tr></thead>
    <tbody>${lines.map((l) => dealRow(l, me)).join('')}</tbody>${own}</table>`;
}

/** @param {AlltimePage} page @param {Viewer} user @param {string} name the board */
function alltimeBoard(page, user, name) {
  const me = user ? user.username : undefined;
  /** @param {AlltimeLine} l */
  const row = (l) => `<tr${l.player.username === me ? ' class="mine"' : ''}><td>${num(l.rank)}</td><td>${esc(l.player.display_name)}</td><td>${name === 'win-rate' ? pct(l.value) : num(l.value)}</td><td>${num(l.played)}</td><td>${num(l.won)}</td></tr>`;
  const lines = page.lines || [];
  const own = page.me && !lines.some((l) => l.player.username === me) ? `<tfoot>${row(page.me)}</tfoot>` : '';
  if (!lines.length) return `<p class="empty">${_('Nobody is on this board yet.')}</p>`;
  return `<table class="board"><thead><tr><th scope="col">#</th><th scope="col">${_('Player')}</th><th scope="col">${ALLTIME[name]()}</th><th scope="col">${_('Played')}</th><th scope="col">${_('Won')}</th></tr></thead><tbody>${lines.map(row).join('')}</tbody>${own}</table>`;
}

/** @param {string[]} list @param {string} sel @param {(x: string) => string} [label] */
const options = (list, sel, label = (x) => x) => list.map((x) => `<option value="${x}"${x === sel ? ' selected' : ''}>${esc(label(x))}</option>`).join('');

/** @param {string} selected the rule set chosen first */
const rulesSelect = (selected = 'wrap-closed') => `<label>${_('Rules')} <select name="rules">${options(RULES, selected, rulesTitle)}</select></label>`;

/**
 * The daily board shown (`first` or `best`) and `switched(board)`, which keeps a new choice in the
 * URL and returns it.
 * @typedef {{board: string, switched: (board: string) => string}} Keep
 */

/**
 * A tab: fills its form, shows its board in `out`, returns its cleanup (or null).
 * @typedef {(form: HTMLFormElement, out: HTMLElement, ctx: AppContext, keep: Keep) => (() => void) | null} Tab
 */

/**
 * Today's first-try board per rule set, live: the board's socket pushes the whole page.
 * @param {HTMLElement} out @param {AppContext} ctx
 */
function liveBoard(out, ctx) {
  /** @type {LiveSocket | null} */
  let socket = null;
  /** @type {(DealPage & {rules: string, date: string, version: number}) | null} */
  let live = null;
  const drawLive = () => {
    if (!live) return;
    out.innerHTML = `<h2>${esc(rulesTitle(live.rules))} · ${esc(dayText(live.date))}</h2>` + boardNote('first') + dealBoard(live, ctx.user);
  };
  const close = () => { if (socket) socket.close(); socket = null; };
  /** @param {string} rules */
  const watch = (rules) => {
    close();
    live = null;
    out.innerHTML = `<p>${_('Loading…')}</p>`;
    socket = new LiveSocket(`/ws/leaderboards/daily/${rules}/`, {
      onMessage: (m) => {
        if (m.type === 'board') { live = m; drawLive(); return; }
        // An update names the changed line; lines below it move too, so take the whole page
        // again (the socket answers sync with the board): simple, and never out of order.
        if (m.type === 'update' && live && socket && m.version > live.version) socket.send({ type: 'sync' });
      },
    });
  };
  return { watch, close };
}

/**
 * Today's boards per rule set: the first-try board live, the best-run board read on each change.
 * @type {Tab}
 */
function today(form, out, ctx, keep) {
  form.innerHTML = rulesSelect() + boardSwitch(keep.board) + ` <span class="live-dot" data-testid="live">${_('live')}</span>`;
  const live = liveBoard(out, ctx);
  const dot = /** @type {HTMLElement} */ (form.querySelector('[data-testid=live]'));
  const show = async () => {
    const f = new FormData(form);
    const rules = String(f.get('rules')), board = keep.switched(String(f.get('board')));
    live.close();
    dot.hidden = board !== 'first';
    if (board === 'first') { live.watch(rules); return; }
    /** @type {DealPage & {board: {date: string}}} */
    const page = await api(`leaderboards/daily?rules=${rules}&board=best`);
    const now = new FormData(form);
    if (now.get('board') !== 'best' || now.get('rules') !== rules) return; // switched meanwhile
    out.innerHTML = `<h2>${esc(rulesTitle(rules))} · ${esc(dayText(page.board.date))}</h2>` + boardNote('best') + dealBoard(page, ctx.user);
  };
  form.addEventListener('change', show);
  show();
  return live.close;
}

/**
 * A board read when the form is sent (and once at once).
 * @param {HTMLFormElement} form @param {string} event @param {(f: FormData) => Promise<void>} show
 */
function showOn(form, event, show) {
  const run = () => show(new FormData(form));
  form.addEventListener(event, run);
  run();
  return null;
}

/**
 * The day before the server's deal day, YYYY-MM-DD. Not the browser's yesterday: the deal day
 * turns at midnight in Kathmandu, and a browser's date differs from Kathmandu's for hours a day.
 */
async function dayBeforeToday() {
  const [y, m, d] = String((await api('today')).day).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

/** A past day's board, first try or best run. @type {Tab} */
function past(form, out, ctx, keep) {
  form.innerHTML = `<label>${_('Day')} <input type="date" name="date"></label> ${rulesSelect()} ${boardSwitch(keep.board)} <button class="button" type="submit">${_('Show')}</button>`;
  const day = /** @type {HTMLInputElement} */ (form.elements.namedItem('date'));
  // A new board shows at once; a new day or rule set when sent.
  form.addEventListener('change', (e) => { if (/** @type {HTMLInputElement} */ (e.target).name === 'board') form.requestSubmit(); });
  return showOn(form, 'submit', async (f) => {
    if (!day.value) day.value = await dayBeforeToday();
    const board = keep.switched(String(f.get('board')));
    out.innerHTML = boardNote(board) + dealBoard(await api(`leaderboards/daily?date=${day.value}&rules=${f.get('rules')}&board=${board}`), ctx.user);
  });
}

/** A numbered deal's board on the player's layout. @type {Tab} */
function numbered(form, out, ctx) {
  form.innerHTML = `<label>${_('Deal number')} <input type="number" name="number" min="1" max="50000" value="1" required></label> ${rulesSelect()} <button class="button" type="submit">${_('Show')}</button>`;
  return showOn(form, 'submit', async (f) => {
    out.innerHTML = dealBoard(await api(`leaderboards/numbered/${f.get('number')}?rules=${f.get('rules')}&layout=${ctx.layoutName()}`), ctx.user);
  });
}

/** The all-time boards, read again on each change of the form. @type {Tab} */
function alltime(form, out, ctx) {
  form.innerHTML = `<label>${_('Board')} <select name="board">${options(Object.keys(ALLTIME), 'daily-wins', (k) => ALLTIME[k]())}</select></label>
      <label>${_('Rules')} <select name="rules">${options(['all', ...RULES], 'all', (k) => (k === 'all' ? _('All rules') : rulesTitle(k)))}</select></label>`;
  return showOn(form, 'change', async (f) => {
    out.innerHTML = alltimeBoard(await api(`leaderboards/alltime/${f.get('board')}?rules=${f.get('rules')}`), ctx.user, String(f.get('board')));
  });
}

/** @type {Map<string, Tab>} */
const TABS = new Map(Object.entries({ today, past, numbered, alltime }));

/** @type {Mount} */
export async function mount(root, ctx, params) {
  const tab = params[0] || 'today';
  /** @type {Keep} */
  const keep = {
    board: params[1] === 'best' ? 'best' : 'first',
    switched(board) {
      if (board !== keep.board) history.replaceState(history.state, '', `#/boards/${tab}/${board}`);
      keep.board = board;
      return board;
    },
  };
  const tabs = { today: _('Today'), past: _('Past days'), numbered: _('Numbered'), alltime: _('All time') };
  root.innerHTML = `<nav class="tabs" aria-label="${_('Boards')}">${Object.entries(tabs).map(([k, v]) => `<a href="#/boards/${k}"${k === tab ? ' aria-current="page"' : ''}>${v}</a>`).join('')}</nav>
    <form class="board-form"></form><div class="board-out leaderboards" aria-live="polite"></div>`;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('.board-form'));
  form.addEventListener('submit', (e) => e.preventDefault());  // not an inline handler: the CSP blocks those
  const out = /** @type {HTMLElement} */ (root.querySelector('.board-out'));
  return (TABS.get(tab) || alltime)(form, out, ctx, keep);
}
