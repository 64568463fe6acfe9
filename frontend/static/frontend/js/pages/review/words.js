// A reviewed game's words that the review and the statistics' recent games both say: the deal's
// title, and what its analysis has come to.

import { dealTitle, rulesTitle } from '../../format.js';
import { _ } from '../../i18n.js';

/** @param {ReplayDeal} deal @returns {string} the deal's title in the page's language */
export function dealName(deal) {
  if (['daily', 'numbered', 'custom'].includes(deal.source)) {
    return dealTitle({ mode: deal.source, day: deal.day, number: deal.number, rules: deal.rules_key });
  }
  return `${_('Random deal')} · ${rulesTitle(deal.rules_key)}`;
}

/** @param {RecentGame['review']} review @returns {string} the analysis' state, in words */
export function reviewStateText(review) {
  if (review.state === 'ready') return review.losing_move ? _('Losing move found') : _('Analysed');
  if (review.state === 'pending') return _('Analysis pending');
  if (review.state === 'later') return _('Analysis later');
  return '';
}
