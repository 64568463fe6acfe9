// Keyboard navigation between places on the table (free cards and the stock): pure.
// places: [{id, x, y}] with x, y the centre of each place; dir: 'left'|'right'|'up'|'down'.

/** @type {Record<string, [number, number]>} */
const DIRS = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

/**
 * The place the focus goes to from `currentId` in direction `dir`.
 * @param {Place[]} places
 * @param {PlaceId | null} currentId
 * @param {string} dir
 * @returns {PlaceId | null}
 */
export function step(places, currentId, dir) {
  const d = DIRS[dir];
  if (!d || !places.length) return currentId;
  const here = places.find((p) => p.id === currentId);
  if (!here) return places[0].id;
  /** @type {Place | null} */
  let best = null;
  let bestScore = Infinity;
  for (const p of places) {
    if (p.id === here.id) continue;
    const dx = p.x - here.x, dy = p.y - here.y;
    const along = dx * d[0] + dy * d[1];
    if (along <= 0.5) continue; // not in that direction
    const across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = p; }
  }
  if (best) return best.id;
  // Nothing further that way: wrap round to the farthest place on the other side of the row.
  if (dir === 'left' || dir === 'right') {
    const row = places.filter((p) => Math.abs(p.y - here.y) < 1e-6 && p.id !== here.id);
    if (row.length) {
      row.sort((a, b) => (dir === 'right' ? a.x - b.x : b.x - a.x));
      return row[0].id;
    }
  }
  return currentId;
}

// Reading order (top to bottom, left to right): what Tab order and Home/End follow.
/** @param {Place[]} places */
export function ordered(places) {
  return [...places].sort((a, b) => a.y - b.y || a.x - b.x);
}
