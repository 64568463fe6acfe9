// Whom the player may claim the win over: the server's word, not the page's guess. Each race the
// server sends says of every racer whether a claim against them would be accepted now
// (`claimable`) and, if not, in how many seconds at the soonest (`claimable_in_s`), by the claim's
// own rule (races/absence.py: no race socket and no move for the race's `absent_s`). The page
// shows a button only where the server said `claimable` and it has heard nothing of that racer
// since; when the soonest moment passes without a word of them it asks again (`due`: a `sync`),
// since a racer idle with their race page open is here, and only the server knows it.

/** @param {RacePlayer} p */
const racing = (p) => p.status === 'playing' || p.status === 'stuck';

// How long the page waits for an answer to its asking before it may ask again.
const ASK_AGAIN_MS = 5000;

export class Absence {
  /** @param {Race} race the race as the server sent it @param {number} [now] */
  constructor(race, now = Date.now()) {
    /** @type {Map<string, {claimable: boolean, askAt: number | null}>} the server's last word */
    this.word = new Map();
    this.askedAt = -Infinity;
    this.take(race, now);
  }

  /** A race from the server: its word on every racer. @param {Race} race @param {number} [now] */
  take(race, now = Date.now()) {
    for (const p of race.players) {
      const inS = p.claimable_in_s;
      this.word.set(p.username, { claimable: p.claimable === true, askAt: inS == null ? null : now + 1000 * inS });
    }
    this.askedAt = -Infinity;
  }

  /**
   * A move of the racer: they are here, whatever the server said before; ask again once the
   * race's absence has passed without another.
   * @param {string} username @param {number} absentS @param {number} [now]
   */
  hear(username, absentS, now = Date.now()) {
    this.word.set(username, { claimable: false, askAt: now + 1000 * absentS });
  }

  /**
   * The other racers the server said may be claimed against, while the player races.
   * @param {Race} race @param {string} me
   */
  absent(race, me) {
    if (race.state !== 'running' || !race.players.some((p) => p.username === me && racing(p))) return [];
    return race.players.filter((p) => p.username !== me && racing(p) && this.word.get(p.username)?.claimable);
  }

  /**
   * Whether to ask the server again now: the player races, and some other racer's soonest
   * moment came with no word of them since (at most once every ASK_AGAIN_MS while unanswered).
   * @param {Race} race @param {string} me @param {number} [now]
   */
  due(race, me, now = Date.now()) {
    if (race.state !== 'running' || !race.players.some((p) => p.username === me && racing(p))) return false;
    if (now - this.askedAt < ASK_AGAIN_MS) return false;
    const waiting = race.players.some((p) => {
      const word = this.word.get(p.username);
      return p.username !== me && racing(p) && word != null && !word.claimable && word.askAt != null && word.askAt <= now;
    });
    if (waiting) this.askedAt = now;
    return waiting;
  }
}
