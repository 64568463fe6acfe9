// The lobby's ways into a race: a new race (its form), a private race's code, Join on an open race.

import { api, ApiError } from '../../api.js';
import { raceError } from './words.js';
import { rulesBody, goToRace } from './rules.js';

/** @param {Event} e @param {string} name */
const field = (e, name) => /** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem(name));

/**
 * @param {HTMLElement} root the lobby
 * @param {AppContext} ctx
 */
export function bindRaceForms(root, ctx) {
  /** @param {string} sel */
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  $('[data-testid=race-form]').addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { rules: rulesBody(field(e, 'rules').value), seats: Number(field(e, 'seats').value), public: field(e, 'public').checked, layout: ctx.layoutName() };
    try { const race = /** @type {Race} */ (await api('races', { method: 'POST', body })); goToRace(race.id, race.public ? '' : race.code); } catch (err) { ctx.notice(raceError(err)); }
  });
  $('[data-testid=code-form]').addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = field(e, 'code').value.trim().toUpperCase();
    try { const race = /** @type {Race} */ (await api(`races?code=${encodeURIComponent(code)}`)); goToRace(race.id, code); } catch (err) { ctx.notice(raceError(err)); }
  });
  root.addEventListener('click', async (e) => {
    const id = /** @type {HTMLElement} */ (e.target).closest('[data-join]')?.getAttribute('data-join');
    if (!id) return;
    try { await api(`races/${id}/join`, { method: 'POST', body: {} }); goToRace(id); } catch (err) {
      if (err instanceof ApiError && err.body.code === 'already_joined') goToRace(id);
      else ctx.notice(raceError(err));
    }
  });
}
