// Table geometry: where every card, the stock and the waste go for a given area.
// Layout slots are in half-card units (a card spans 2 across and 2 down); pure, no DOM.

export const RATIO = 1.4; // card height / width
const GAP = 0.25; // gap between the layout and the piles, in card widths
const PAD = 0.06; // padding around the table, in card widths
const UNDO = 0.8; // the round Undo beside the waste, in card widths
const PILES = 2 * (1.35 + UNDO); // width of the stock, waste and Undo row, centred, in card widths

/** @param {SlotPlace[]} slots @returns {Bounds} */
export function bounds(slots) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const s of slots) {
    minX = Math.min(minX, s.x); minY = Math.min(minY, s.y);
    maxX = Math.max(maxX, s.x); maxY = Math.max(maxY, s.y);
  }
  if (!slots.length) return { minX: 0, minY: 0, cols: 2, rows: 2 };
  return { minX, minY, cols: maxX - minX + 2, rows: maxY - minY + 2 };
}

// Card width for one arrangement: "below" puts stock and waste in a row under the layout,
// "beside" puts them in a column to its right (phones held sideways).
/** @param {Bounds} b @param {number} w @param {number} h @param {'below' | 'beside'} mode */
function widthFor(b, w, h, mode) {
  const layoutW = b.cols / 2, layoutH = (b.rows / 2) * RATIO;
  if (mode === 'below') {
    return Math.min(w / (Math.max(layoutW, PILES) + 2 * PAD), h / (layoutH + GAP * RATIO + RATIO + 2 * PAD * RATIO));
  }
  return Math.min(w / (layoutW + GAP + 1 + 0.2 + UNDO + 2 * PAD), h / (Math.max(layoutH, 2 * RATIO + GAP) + 2 * PAD * RATIO));
}

// fit(slots, width, height, {maxCard}) -> {mode, cardW, cardH, width, height, cards[], stock, waste, undo}
// (undo: the round Undo button right of the waste, {left, top, size})
// cards[p] = {left, top, z}; every box is in pixels from the table's top-left corner.
// stretch: with room to spare under the layout, the piles go to the bottom of the area (at thumb
// reach on a phone held upright) and the layout stays near the top.
/**
 * @param {SlotPlace[]} slots
 * @param {number} width
 * @param {number} height
 * @param {{maxCard?: number, stretch?: boolean}} [options]
 * @returns {Fit}
 */
export function fit(slots, width, height, { maxCard = 140, stretch = false } = {}) {
  const b = bounds(slots);
  const below = widthFor(b, width, height, 'below');
  const beside = widthFor(b, width, height, 'beside');
  // Prefer the row under the layout unless the column beside it gives clearly bigger cards.
  const mode = beside > below * 1.08 ? 'beside' : 'below';
  const cardW = Math.max(16, Math.floor(Math.min(mode === 'below' ? below : beside, maxCard)));
  const cardH = Math.round(cardW * RATIO);
  const unitX = cardW / 2, unitY = cardH / 2;
  const pad = Math.round(cardW * PAD);
  const layoutW = b.cols * unitX, layoutH = b.rows * unitY;
  let tableW, tableH, originX, stock, waste;
  if (mode === 'below') {
    tableW = Math.max(layoutW, cardW * PILES) + 2 * pad;
    tableH = layoutH + GAP * cardH + cardH + 2 * pad;
    originX = pad + (tableW - 2 * pad - layoutW) / 2;
    const pileTop = pad + layoutH + GAP * cardH;
    const mid = tableW / 2;
    stock = { left: Math.round(mid - cardW * 1.15), top: Math.round(pileTop) };
    waste = { left: Math.round(mid + cardW * 0.15), top: Math.round(pileTop) };
  } else {
    tableW = layoutW + GAP * cardW + cardW * (1.2 + UNDO) + 2 * pad;
    tableH = Math.max(layoutH, 2 * cardH + GAP * cardH) + 2 * pad;
    originX = pad;
    const pileLeft = Math.round(pad + layoutW + GAP * cardW);
    const midY = tableH / 2;
    stock = { left: pileLeft, top: Math.round(midY - cardH - (GAP * cardH) / 2) };
    waste = { left: pileLeft, top: Math.round(midY + (GAP * cardH) / 2) };
  }
  const originY = mode === 'below' ? pad : pad + (tableH - 2 * pad - layoutH) / 2;
  const cards = slots.map((s) => ({
    left: Math.round(originX + (s.x - b.minX) * unitX),
    top: Math.round(originY + (s.y - b.minY) * unitY),
    z: s.z,
  }));
  const size = Math.round(cardW * UNDO);
  const undo = { left: Math.round(waste.left + cardW * 1.2), top: Math.round(waste.top + (cardH - size) / 2), size };
  const spare = Math.floor(height - Math.ceil(tableH));
  if (stretch && mode === 'below' && spare > cardH * 0.5) {
    // Piles down by all the spare room, the layout by a quarter of it.
    const down = Math.round(spare / 4);
    for (const c of cards) c.top += down;
    for (const box of [stock, waste, undo]) box.top += spare;
    tableH += spare;
  }
  return { mode, cardW, cardH, width: Math.ceil(tableW), height: Math.ceil(tableH), cards, stock, waste, undo };
}

// A small drawing of a layout's shape for the picker: rectangles in a viewBox.
/** @param {SlotPlace[]} slots */
export function thumbnail(slots) {
  const b = bounds(slots);
  const rects = [...slots]
    .sort((a, c) => a.z - c.z)
    .map((s) => ({ x: (s.x - b.minX) * 10 + 1, y: (s.y - b.minY) * 14 + 1, w: 18, h: 26 }));
  return { width: b.cols * 10 + 2, height: b.rows * 14 + 2, rects };
}
