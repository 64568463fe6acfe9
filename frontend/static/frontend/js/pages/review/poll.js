// Asking again for an analysis still being computed (202 pending): gently, further apart each
// time, a server's Retry-After obeyed, and not for ever. The schedule is pure; `AnalysisPoll`
// runs it with a timer.

// The waits between asks (s): 2, 3, 5, 7, 10, 15, 23, 30, 30, 30, and no more asks once they add
// up to POLL_GIVE_UP_S. A typical analysis is ready in a few seconds (at most 2 s of CPU), the
// slow ones in a minute when the solver's workers are busy.
const FIRST_S = 2;
const GROWTH = 1.5;
const MAX_S = 30;
export const POLL_GIVE_UP_S = 180;

/**
 * The wait before ask number `attempt` (0 the first ask after the first 202), or null to stop.
 * @param {number} attempt
 * @param {number} waited seconds waited so far
 * @param {number | null} [retryAfter] the server's Retry-After (a 429 or 503), in seconds
 * @returns {number | null} seconds
 */
export function nextWait(attempt, waited, retryAfter = null) {
  const planned = Math.min(MAX_S, Math.round(FIRST_S * GROWTH ** attempt));
  const wait = Math.max(planned, retryAfter || 0);
  return waited + wait > POLL_GIVE_UP_S ? null : wait;
}

/**
 * @typedef {object} PollAnswer
 * @property {AnalysisPayload | null} analysis the analysis when ready
 * @property {number | null} [retryAfter] the server asked to wait (s)
 */

export class AnalysisPoll {
  /**
   * @param {() => Promise<PollAnswer>} ask one ask: ready (analysis) or not yet (null)
   * @param {{ready: (a: AnalysisPayload) => void, gaveUp: () => void, failed: (e: unknown) => void}} on
   * @param {typeof nextWait} [schedule] the waits (the tests' own)
   */
  constructor(ask, on, schedule = nextWait) {
    this.ask = ask;
    this.on = on;
    this.schedule = schedule;
    this.attempt = 0;
    this.waited = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.stopped = false;
  }

  /** Ask now, then again on the schedule while pending. */
  async run() {
    if (this.stopped) return;
    let answer;
    try {
      answer = await this.ask();
    } catch (e) {
      if (!this.stopped) this.on.failed(e);
      return;
    }
    if (this.stopped) return;
    if (answer.analysis) { this.on.ready(answer.analysis); return; }
    const wait = this.schedule(this.attempt, this.waited, answer.retryAfter);
    if (wait === null) { this.on.gaveUp(); return; }
    this.attempt += 1;
    this.waited += wait;
    this.timer = setTimeout(() => this.run(), wait * 1000);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
