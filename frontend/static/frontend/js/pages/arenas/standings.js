// One arena's standings and podium as HTML (pure).

import { esc } from '../../dialog.js';
import { _, fill, num } from '../../i18n.js';

/**
 * A player's games as links to their replays (pages/review.js), in the order played, a won one
 * marked: an ended arena's, to its players (the server sends them only then: docs/arenas.md).
 * @param {ArenaReplay[] | undefined} games
 * @param {string} name the player's
 * @returns {string}
 */
export function replayLinks(games, name) {
  if (!games || !games.length) return '';
  const links = games.map((g, i) => {
    const said = `${_('Replay')}: ${name}, ${num(i + 1)}, ${g.won ? _('won') : _('lost')}`;
    return `<a href="#/review/${encodeURIComponent(g.game)}" aria-label="${esc(said)}" title="${esc(said)}"${g.won ? ' class="won"' : ''}>${num(i + 1)}${g.won ? '<span aria-hidden="true">✓</span>' : ''}</a>`;
  });
  return `<span class="arena-replays" data-testid="arena-replays">${links.join('')}</span>`;
}

/**
 * @param {ArenaLine} l
 * @param {string|null} me the viewer's username
 * @param {ArenaReplays} [replays]
 * @returns {string}
 */
function row(l, me, replays) {
  const fire = l.fire ? ` <span title="${esc(_('On fire: the next win scores double'))}" aria-label="${esc(_('on fire'))}">🔥</span>` : '';
  const away = l.active ? '' : ` <span class="small">(${esc(_('away'))})</span>`;
  return `<tr${me && l.player.username === me ? ' class="mine"' : ''}><td>${num(l.rank)}</td><td>${esc(l.player.display_name)}${fire}${away}${replayLinks(replays?.[l.player.username], l.player.display_name)}</td><td>${num(l.points)}</td><td>${num(l.wins)}</td><td>${num(l.games)}</td></tr>`;
}

/**
 * The standings table, the viewer's own line under it when it is not on the page.
 * @param {ArenaStandings} s
 * @param {ArenaLine|null|undefined} mine
 * @param {string|null} me
 * @param {ArenaReplays} [replays] an ended arena's games, to its players
 * @returns {string}
 */
export function standingsTable(s, mine, me, replays) {
  if (!s.lines.length) return `<p class="empty">${_('Nobody has joined yet.')}</p>`;
  const own = mine && !s.lines.some((l) => l.player.username === me) ? `<tfoot>${row(mine, me, replays)}</tfoot>` : '';
  return `<table class="board" data-testid="standings"><caption class="sr-only">${_('Standings')}</caption>
    <thead><tr><th scope="col">#</th><th scope="col">${_('Player')}</th><th scope="col">${_('Points')}</th><th scope="col">${_('Wins')}</th><th scope="col">${_('Games')}</th></tr></thead>
    <tbody>${s.lines.map((l) => row(l, me, replays)).join('')}</tbody>${own}</table>`;
}

/**
 * The podium's items.
 * @param {ArenaLine[]} podium
 * @returns {string}
 */
export function podiumItems(podium) {
  return podium.map((l) => `<li>${esc(l.player.display_name)} · ${esc(fill(_('%(n)s points'), { n: num(l.points) }))}</li>`).join('');
}
