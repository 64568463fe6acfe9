// When this page last heard of each racer (a move, a change of their line): a racer silent for
// the race's `absent_s` (30 s) may have lost their connection, and the others get a button to
// claim against them (the server judges the absence: too early is a 409 that changes nothing).

/** @param {RacePlayer} p */
const racing = (p) => p.status === 'playing' || p.status === 'stuck';

export class Absence {
  /** @param {RacePlayer[]} players all heard of now */
  constructor(players) {
    /** @type {Map<string, number>} */
    this.heard = new Map();
    for (const p of players) this.heard.set(p.username, Date.now());
  }

  /** @param {string} username */
  hear(username) { this.heard.set(username, Date.now()); }

  /** The racers whose line changed from `race` to `next`. @param {Race} race @param {Race} next */
  hearChanges(race, next) {
    for (const p of next.players) {
      const old = race.players.find((o) => o.username === p.username);
      if (!old || old.seq !== p.seq || old.status !== p.status) this.hear(p.username);
    }
  }

  /**
   * The other racers not heard of for the race's `absent_s`, while the player races.
   * @param {Race} race @param {string} me @param {number} offset the server's clock minus ours
   */
  absent(race, me, offset) {
    if (race.state !== 'running' || !race.players.some((p) => p.username === me && racing(p))) return [];
    const since = Date.parse(race.starts_at || '') - offset;
    const absentMs = 1000 * (race.absent_s ?? 30);
    return race.players.filter((p) => p.username !== me && racing(p)
      && Date.now() - Math.max(since, this.heard.get(p.username) || 0) >= absentMs);
  }
}
