// How to play: the rules, the two settings, scoring, the keys and some strategy, in our words.

import { _ } from '../i18n.js';

/** @param {string} id @param {string} title @param {string} body */
const section = (id, title, body) => `<section class="panel help-page" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;
/** @param {string} text */
const p = (text) => `<p>${text}</p>`;
/** @param {string[]} items */
const list = (items) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

/** @type {Mount} */
export async function mount(root) {
  const keys = [
    [_('D, Space'), _('draw a card from the stock')],
    [_('arrow keys'), _('move between the free cards and the stock')],
    [_('Enter'), _('play the card you are on (on the stock: draw)')],
    [_('Z, U, Backspace'), _('undo the last move')],
    ['H', _('show a hint')],
    ['N', _('start a new deal')],
    [_('P, Esc'), _('pause and open the menu')],
  ];
  root.innerHTML = [
    section('help-goal', _('The goal'), p(_('Clear every card from the peaks. A card can go onto the waste pile when it is one rank higher or lower than the card on top of the waste: a 7 goes on a 6 or an 8, whatever the suits.'))
      + p(_('Only free cards can be played: a card is free when no other card lies on top of it. When a free card is face down, it turns face up as soon as the last card covering it is gone.'))),
    section('help-play', _('How a deal goes'), list([
      _('Tap or click a free card that fits to move it onto the waste. You can also drag it there.'),
      _('When nothing fits, draw from the stock: its top card becomes the new waste card.'),
      _('The deal is won when the peaks are empty. When the stock is spent and no card fits, the deal is over: you can undo, start again or end it.'),
      _('Undo takes back one move at a time. Start again puts every card back where it was dealt; the clock keeps running.'),
    ])),
    section('help-settings', _('The two settings'), list([
      `<strong>${_('King and Ace connect')}</strong>: ${_('with it on, a King goes on an Ace and an Ace on a King, so runs can wrap around. With it off, Aces and Kings are the ends of the line, which makes deals harder.')}`,
      `<strong>${_('Peaks open')}</strong>: ${_('every card on the table is face up from the start, so you can plan the whole deal. With the peaks closed, covered cards stay face down until they are freed.')}`,
    ]) + p(_('Each of the four combinations has its own daily deal and its own leaderboards.'))),
    section('help-score', _('Scoring'), list([
      _('Every card you clear from the table scores 10 points. Undo takes the points of the undone card back; starting again takes them all back. Drawing scores nothing.'),
      _('Winning adds 10 points for every card still in the stock, and a win bonus of 500, less 2 for every move and 1 for every two seconds on the clock (never below zero).'),
      _('Daily deals rank wins first, then the shorter time, then fewer moves; numbered deals rank by fewest cards left, then fewest moves.'),
      _('A run with a hint, and every custom deal, is not ranked: it still counts in your own statistics.'),
    ])),
    section('help-keys', _('Keys'), `<dl class="keys">${keys.map(([k, d]) => `<div><dt><kbd>${k}</kbd></dt><dd>${d}</dd></div>`).join('')}</dl>`),
    section('help-strategy', _('Strategy'), list([
      _('Look before you play: when two cards fit, choose the one that frees a face-down card or lets more cards follow.'),
      _('Think in runs: before you draw, see how many cards you can play one after another, up and down.'),
      _('Work on the peaks evenly: a peak left to the end often blocks the last cards.'),
      _('Draw only when no useful move is left; every card in the stock is one more chance later.'),
      _('With the peaks open, count the cards: you can see which ranks are still to come.'),
    ])),
  ].join('');
  return null;
}
