// A solver's line (the winning line from the position before the losing move, the par line from
// the deal) played on the table, pure: each step's position from the one before, worked out from
// the layout (what covers what) and the cards this game showed. A card the game never showed
// stays face down and the waste shows nothing for it: the review shows no card the replay did not.

/**
 * The cards the replay showed: each layout position's card, and the card each draw turned, by
 * the stock's count before the draw (the stock's order is the deal's, whatever was undone).
 * @param {ReplayMove[]} moves @param {ReplayPosition[]} positions
 * @returns {{layout: Map<number, string>, stock: Map<number, string>}}
 */
export function seenCards(moves, positions) {
  /** @type {Map<number, string>} */
  const layout = new Map();
  /** @type {Map<number, string>} */
  const stock = new Map();
  for (const pos of positions) {
    for (const p of pos.positions) if (p.card) layout.set(p.position, p.card);
  }
  moves.forEach((m, i) => {
    const before = positions[i], after = positions[i + 1];
    if (m.action === 'draw' && before && after && after.waste) stock.set(before.stock_left, after.waste);
  });
  return { layout, stock };
}

/**
 * Every position of `line` played from `start`: [start, after its first move, ...].
 * @param {ReplayPosition} start
 * @param {LineToken[]} line
 * @param {Layout} layout
 * @param {{layout: Map<number, string>, stock: Map<number, string>}} seen
 * @param {boolean} open the peaks dealt face up
 * @returns {ReplayPosition[]}
 */
export function linePositions(start, line, layout, seen, open) {
  /** @type {ReplayPosition[]} */
  const out = [start];
  let at = start;
  for (const token of line) {
    at = token === 'draw' ? drawn(at, seen) : played(at, token, layout, seen, open);
    out.push(at);
  }
  return out;
}

/** @param {ReplayPosition} at @param {{stock: Map<number, string>}} seen @returns {ReplayPosition} */
function drawn(at, seen) {
  return {
    ...at, seq: at.seq + 1, moves: at.moves + 1, waste: seen.stock.get(at.stock_left) || null,
    waste_count: at.waste_count + 1, stock_left: Math.max(0, at.stock_left - 1), playable: [],
  };
}

/**
 * @param {ReplayPosition} at @param {number} position @param {Layout} layout
 * @param {{layout: Map<number, string>}} seen @param {boolean} open
 * @returns {ReplayPosition}
 */
function played(at, position, layout, seen, open) {
  const gone = new Set(at.positions.filter((p) => p.removed).map((p) => p.position));
  const card = at.positions[position]?.card || seen.layout.get(position) || null;
  gone.add(position);
  const positions = at.positions.map((p) => {
    if (gone.has(p.position)) return { position: p.position, card: null, face_up: false, free: false, removed: true };
    const covers = layout.slots[p.position]?.covered_by || [];
    const free = covers.every((q) => gone.has(q));
    const faceUp = free || open;
    return { position: p.position, card: faceUp ? seen.layout.get(p.position) || null : null, face_up: faceUp, free, removed: false };
  });
  const left = positions.filter((p) => !p.removed).length;
  return {
    ...at, seq: at.seq + 1, moves: at.moves + 1, waste: card, waste_count: at.waste_count + 1,
    cards_left: left, positions, playable: [], status: left ? at.status : 'won',
  };
}

/**
 * The place a line's token glows on: its layout position, or the stock.
 * @param {LineToken} token @returns {PlaceId}
 */
export const placeOf = (token) => (token === 'draw' ? 'stock' : token);
