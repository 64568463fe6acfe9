// Small pure helpers for text shown on the page.

import { _, ngettext, fill, num } from './i18n.js';

const RANKS = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };
const SUITS = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };

export function cardName(token) {
  if (!token) return 'face down';
  const r = token[0], s = token[1];
  return `${RANKS[r] || r} of ${SUITS[s]}`;
}

export function clock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? h + ':' : ''}${mm}:${String(s).padStart(2, '0')}`;
}

// Elapsed time now, from a view received at `receivedAt` (the page's own ms clock).
export function elapsedNow(view, receivedAt, now) {
  if (!view) return 0;
  return view.elapsed_ms + (view.clock_running && !view.paused ? Math.max(0, now - receivedAt) : 0);
}

export function countdown(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  return `${h}h ${String(m).padStart(2, '0')}m ${String(s).padStart(2, '0')}s`;
}

export function rulesTitle(rules) {
  const r = typeof rules === 'string' ? parseKey(rules) : rules;
  return `${r.wrap ? 'King-Ace on' : 'King-Ace off'}, peaks ${r.open ? 'open' : 'closed'}`;
}

export function parseKey(key) {
  const parts = String(key).split('-');
  return { key, wrap: parts[0] === 'wrap', open: parts[1] === 'open', start: parts[2] === 'empty' ? 'empty' : 'waste' };
}

export function pct(rate) {
  return rate == null ? '–' : `${Math.round(rate * 100)}%`;
}

// "1 move", "2 moves" (in the locale's digits).
export function movesText(n) {
  return fill(ngettext('%(n)s move', '%(n)s moves', n), { n: num(n) });
}

// What a game is: "Daily deal 2026-12-01 · King-Ace on, peaks closed", "Deal #42 · ...".
export function dealTitle(v) {
  const what = v.mode === 'daily' ? fill(_('Daily deal %(day)s'), { day: v.day })
    : v.mode === 'numbered' ? fill(_('Deal #%(n)s'), { n: v.number })
      : v.mode === 'custom' ? _('Custom deal') : _('New deal');
  return `${what} · ${rulesTitle(v.rules)}`;
}

// "1 card left", "5 cards left".
export function cardsLeftText(n) {
  return fill(ngettext('%(n)s card left', '%(n)s cards left', n), { n: num(n) });
}
