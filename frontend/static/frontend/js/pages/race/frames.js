// What the race socket's frames do to the race in hand (pure). The channel layer is best-effort:
// a gap in the race's `version` or in a player's `seq` asks for the whole race again (`sync`).
// The player's own moves never come as progress (the server sends a socket only the others':
// the page shows their own game itself), so their own `seq` is no gap.

/**
 * A whole race: taken unless older than the one in hand.
 * @param {Race} race @param {Race} next @param {string} me the player's username
 * @returns {{take: boolean, sync: boolean}}
 */
export function raceStep(race, next, me) {
  if (next.version < race.version) return { take: false, sync: false };
  const gap = next.version > race.version + 1
    || next.players.some((p) => {
      const old = race.players.find((o) => o.username === p.username);
      return Boolean(p.username !== me && old && old.seq != null && p.seq != null && p.seq > old.seq + 1);
    });
  return { take: true, sync: gap };
}

/**
 * A player's progress: the line it changes (null: none, the frame is old or the race not
 * running), and whether a frame was missed.
 * @param {Race} race @param {ProgressFrame} m
 * @returns {{line: RacePlayer, sync: boolean} | null}
 */
export function progressStep(race, m) {
  const line = race.players.find((o) => o.username === m.player.username);
  if (m.version < race.version || !line || race.state !== 'running') return null;
  const [had, seq] = [line.seq, m.player.seq];
  if (had != null && seq != null && seq <= had) return null;
  const gap = m.version > race.version || (had != null && seq != null && seq > had + 1);
  return { line, sync: gap };
}
