// The solver's lines of a numbered deal, hidden until the viewer asks (docs/fair-play.md, "The
// solver's lines"): seeing them ends the viewer's ranking on the deal, so the page warns, asks
// for a confirmation, then `POST .../analysis/reveal` (analysis.js: asked as the GET is, a 202
// asked again by poll.js). What to offer and what a refusal means, pure.

import { ApiError } from '../../api.js';
import { _ } from '../../i18n.js';

/**
 * What the panel offers for the lines: the lines themselves, the button that reveals them, or
 * (signed out: there is nobody to mark) the way to sign in.
 * @param {AnalysisPayload} a @param {boolean} signedIn
 * @returns {'lines' | 'reveal' | 'sign-in'}
 */
export function linesOffer(a, signedIn) {
  if (!a.lines_hidden) return 'lines';
  return signedIn ? 'reveal' : 'sign-in';
}

/** The warning said beside the button and in the confirmation. */
export const revealWarning = () => _('Seeing the solver\'s line ends your ranking on this deal: none of your runs on it will rank again.');

/** @param {string} hash the page's (`#/review/...`) @returns {string} the sign-in page, back here after */
export const signInLink = (hash) => `/accounts/login/?next=${encodeURIComponent(`/${hash}`)}`;

/**
 * A reveal refused: 'sign-in' (401 sign_in_to_reveal) or 'failed' (anything else: a 404 as the GET's).
 * @param {unknown} e @returns {'sign-in' | 'failed'}
 */
export const refusedReveal = (e) => (e instanceof ApiError && e.status === 401 ? 'sign-in' : 'failed');
