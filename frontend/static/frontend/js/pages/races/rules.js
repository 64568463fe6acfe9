// The lobby's rule sets: the choices, and the one chosen as the API takes it; and the way to a race.

import { esc } from '../../dialog.js';
import { rulesTitle } from '../../format.js';

const RULES = ['wrap-closed', 'nowrap-closed', 'wrap-open', 'nowrap-open'];

export const rulesOptions = () => RULES.map((k) => `<option value="${k}">${esc(rulesTitle(k))}</option>`).join('');

/** @param {string} key */
export const rulesBody = (key) => { const [wrap, open] = key.split('-'); return { wrap: wrap === 'wrap', open: open === 'open' }; };

/** One race's page (a private race's code in its address). @param {string} id @param {string} [code] */
export const goToRace = (id, code) => { location.hash = `#/races/${id}${code ? '/' + encodeURIComponent(code) : ''}`; };
