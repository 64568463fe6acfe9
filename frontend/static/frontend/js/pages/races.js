// Races: the lobby (#/races): a new race, join by code, "play someone now" (quick match), the
// open races, the races on now (to watch) and the player's past races, each a module in races/.
// One race (#/races/<id>[/<code>]) is pages/race.js, loaded when asked for.

import { num, _ } from '../i18n.js';
import { raceStyles } from './races/styles.js';
import { rulesOptions } from './races/rules.js';
import { watchOpenRaces, showHistory } from './races/lists.js';
import { quickMatch } from './races/quick_match.js';
import { bindRaceForms } from './races/forms.js';

const lobby = () => `<div class="races">
    <section class="panel"><h2>${_('Play someone now')}</h2>
      <p class="help">${_('You are paired with a player of about your rating within seconds; the race starts at once.')}</p>
      <label>${_('Rules')} <select name="quick-rules">${rulesOptions()}</select></label>
      <button type="button" class="button" data-testid="quick-match">${_('Play someone now')}</button>
      <button type="button" class="button secondary" data-testid="quick-cancel" hidden>${_('Stop waiting')}</button>
      <p data-testid="quick-status" aria-live="polite"></p></section>
    <section class="panel"><h2>${_('New race')}</h2>
      <form data-testid="race-form" class="race-form">
        <label>${_('Rules')} <select name="rules">${rulesOptions()}</select></label>
        <label>${_('Seats')} <select name="seats">${[2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="${n}"${n === 4 ? ' selected' : ''}>${num(n)}</option>`).join('')}</select></label>
        <label><input type="checkbox" name="public" checked> ${_('Listed in the lobby')}</label>
        <button type="submit" class="button">${_('Open a race')}</button>
      </form></section>
    <section class="panel"><h2>${_('Join with a code')}</h2>
      <form data-testid="code-form" class="race-form"><label>${_('Code')} <input name="code" maxlength="8" autocomplete="off" autocapitalize="characters" required></label>
        <button type="submit" class="button">${_('Join')}</button></form></section>
    <section class="panel"><h2>${_('Open races')}</h2><div data-testid="lobby" aria-live="polite"></div></section>
    <section class="panel"><h2>${_('Races to watch')}</h2><div data-testid="live-races" aria-live="polite"></div></section>
    <section class="panel"><h2>${_('Your races')}</h2><div data-testid="history"></div></section>
  </div>`;

/** @type {Mount} */
export async function mount(root, ctx, params) {
  if (params[0]) return (await import('./race.js')).mount(root, ctx, params);
  if (!ctx.user) {
    root.innerHTML = `<p>${_('Sign in to race other players.')} <a href="/accounts/login/?next=/%23/races">${_('Sign in')}</a></p>`;
    return null;
  }
  raceStyles();
  root.innerHTML = lobby();
  let gone = false;
  bindRaceForms(root, ctx);
  /** @param {string} id */
  const part = (id) => /** @type {HTMLElement} */ (root.querySelector(`[data-testid=${id}]`));
  const stopLobby = watchOpenRaces(part('lobby'), part('live-races'));
  showHistory(/** @type {HTMLElement} */ (root.querySelector('[data-testid=history]')), ctx.user.username, () => gone);
  const stopQueue = quickMatch(root);
  return () => { gone = true; stopLobby(); stopQueue(); };
}
