// What the arena socket's frames and the passing clock do to the arena in hand (pure).

/**
 * Only what is as new as the page (a socket's first message may have been read before the page's
 * own join); a standings push only when newer; a gap is read again whole (`sync`, and only by a
 * player in it: a watcher waits for the next push).
 * @param {Arena} arena the page's
 * @param {ArenaFrame} m
 * @param {boolean} joined the viewer has a line
 * @returns {{take: boolean, sync: boolean}}
 */
export function frameStep(arena, m, joined) {
  const newer = m.version > arena.version || (m.final && !arena.final);
  if (m.type === 'arena') return { take: newer || m.version === arena.version, sync: false };
  if (m.type === 'standings' && newer) return { take: true, sync: m.version > arena.version + 1 && joined };
  return { take: false, sync: false };
}

/**
 * The clock passing the start or the end changes what one may do: the state the page goes on
 * with until the server says more, or null when nothing turned.
 * @param {Arena} arena
 * @param {number} now the server's time, in ms
 * @returns {'running' | 'finishing' | null}
 */
export function turnAt(arena, now) {
  const ends = Date.parse(arena.ends_at);
  const turn = (arena.state === 'scheduled' && now >= Date.parse(arena.starts_at)) || (arena.state === 'running' && now >= ends);
  if (!turn) return null;
  return now >= ends ? 'finishing' : 'running';
}
