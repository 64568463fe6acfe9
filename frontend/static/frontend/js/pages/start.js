// Start: continue the deal in progress, today's deal or a new deal per rule set, the countdown.

import { api, ApiError } from '../api.js';
import { countdown, rulesTitle, dealTitle, movesText } from '../format.js';
import { esc, openDialog, closeDialog } from '../dialog.js';

export async function mount(root, ctx) {
  const today = await api('today');
  let current = null;
  if (ctx.user && ctx.hasGame) {
    try { current = await api('games/current'); } catch (e) { if (!(e instanceof ApiError) || e.status !== 404) throw e; ctx.hasGame = false; }
  }
  const next = new Date(today.next_day_at);
  const skew = Date.parse(today.server_time) - Date.now();
  const sets = today.rule_sets.filter((r) => r.start === 'waste');
  root.innerHTML = `
    <p class="lede">Clear the three peaks one card higher or lower at a time. Play today's deal, chase records on numbered deals, and see how you rank.</p>
    ${current ? `<section class="panel continue"><h2>Your deal is waiting</h2><p data-testid="waiting-deal">${esc(dealTitle(current))} · ${esc(movesText(current.moves))} so far</p>
      <a class="button" href="#/play" data-testid="continue">Continue</a></section>` : ''}
    ${ctx.user ? '' : '<p class="panel">Anyone can look at the <a href="#/boards">leaderboards</a>. To play, <a href="/accounts/login/?next=/%23/">sign in</a> or <a href="/accounts/signup/">create an account</a>.</p>'}
    <section aria-labelledby="today-h"><h2 id="today-h">Today's deal · ${esc(today.day)}</h2>
      <p>The next daily deal comes in <strong data-testid="countdown"></strong>, at <strong>${next.toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' })}</strong> your time (midnight in Kathmandu).</p>
      <div class="rule-grid">${sets.map((r) => `<div class="panel rule-set">
        <h3>${esc(rulesTitle(r))}</h3>
        <button type="button" class="button" data-daily="${r.key}">Today's deal</button>
        <button type="button" class="button secondary" data-random="${r.key}">New deal</button></div>`).join('')}</div>
      <p class="small">New deals use the layout <strong>${esc(ctx.layoutTitle())}</strong> · <a href="#/layouts">choose a layout</a> · <a href="#/numbered">numbered deals</a></p>
    </section>`;
  const cd = root.querySelector('[data-testid=countdown]');
  const tick = () => { cd.textContent = countdown(next.getTime() - (Date.now() + skew)); };
  tick();
  const timer = setInterval(tick, 1000);
  root.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-daily], button[data-random]');
    if (!b) return;
    const r = today.rule_sets.find((x) => x.key === (b.dataset.daily || b.dataset.random));
    const rules = { wrap: r.wrap, open: r.open };
    const body = b.dataset.daily ? { mode: 'daily', rules, layout: 'classic' } : { mode: 'random', rules, layout: ctx.layoutName() };
    // Starting resigns the deal in progress: a deal with moves counts as lost, so ask first.
    if (current && current.moves > 0) confirmStart(body, b);
    else ctx.startGame(body);
  });
  function confirmStart(body, from) {
    const back = () => { closeDialog(); from.focus(); };
    openDialog({
      id: 'resign-confirm', title: 'Leave your deal?',
      body: `<p>Your deal in progress (${esc(dealTitle(current))}, ${esc(movesText(current.moves))}) is not finished. Starting another ends it, and it counts as lost.</p>`,
      buttons: [
        { label: 'Continue my deal', primary: true, run: () => { closeDialog(); location.hash = '#/play'; } },
        { label: 'End it and start', run: () => { closeDialog(); ctx.startGame(body); } },
        { label: 'Cancel', run: back },
      ],
      cancel: back,
    });
  }
  return () => clearInterval(timer);
}
