// Where a review's data is (under /api/), from the hash's parts after `#/review/` (pure).

// A game's id (a UUID) and a shared link's token (URL-safe base64) are both of these letters: any
// other key is no game, and asks for nothing (never a path that climbs: "#/review/../../me").
const KEY = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Where the review's data is, from the hash's parts: a game's id, or `s` and a shared link's token.
 * @param {string[]} params @returns {{replay: string, analysis: string, byLink: boolean} | null}
 */
export function reviewPaths(params) {
  const byLink = params[0] === 's';
  const key = byLink ? params[1] : params[0];
  if (!key || !KEY.test(key)) return null;
  const base = byLink ? `replays/${encodeURIComponent(key)}` : `games/${encodeURIComponent(key)}`;
  return { replay: byLink ? base : `${base}/replay`, analysis: `${base}/analysis`, byLink };
}
