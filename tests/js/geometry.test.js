import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fit, bounds, thumbnail, RATIO } from '../../frontend/static/frontend/js/geometry.js';

// The classic three peaks as /api/layouts sends them.
const XS = [3, 9, 15, 2, 4, 8, 10, 14, 16, 1, 3, 5, 7, 9, 11, 13, 15, 17, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18];
const YS = [0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3];
const CLASSIC = XS.map((x, i) => ({ position: i, x, y: YS[i], z: YS[i] }));

const inside = (box, t, w, h) => box.left >= 0 && box.top >= 0 && box.left + w <= t.width + 1 && box.top + h <= t.height + 1;

test('bounds of the classic layout: ten cards across, two and a half down', () => {
  assert.deepEqual(bounds(CLASSIC), { minX: 0, minY: 0, cols: 20, rows: 5 });
});

for (const [name, w, h, mode] of [['phone portrait', 390, 640, 'below'], ['phone sideways', 844, 300, 'beside'], ['desktop', 1280, 660, 'below']]) {
  test(`the table fits a ${name} screen without scrolling (${mode})`, () => {
    const t = fit(CLASSIC, w, h);
    assert.equal(t.mode, mode);
    assert.ok(t.width <= w && t.height <= h, `${t.width}x${t.height} in ${w}x${h}`);
    for (const c of t.cards) assert.ok(inside(c, t, t.cardW, t.cardH));
    assert.ok(inside(t.stock, t, t.cardW, t.cardH) && inside(t.waste, t, t.cardW, t.cardH));
    assert.equal(t.cardH, Math.round(t.cardW * RATIO));
  });
}

test('stock and waste never overlap the layout or each other', () => {
  for (const [w, h] of [[390, 640], [844, 300], [1280, 660]]) {
    const t = fit(CLASSIC, w, h);
    const bottom = Math.max(...t.cards.map((c) => c.top)) + t.cardH;
    const right = Math.max(...t.cards.map((c) => c.left)) + t.cardW;
    for (const pile of [t.stock, t.waste]) {
      assert.ok(t.mode === 'below' ? pile.top >= bottom : pile.left >= right);
    }
    const apart = t.mode === 'below' ? t.waste.left - t.stock.left >= t.cardW : t.waste.top - t.stock.top >= t.cardH;
    assert.ok(apart);
  }
});

test('neighbouring slots half a card apart sit half a card apart on screen', () => {
  const t = fit(CLASSIC, 1280, 660);
  assert.equal(t.cards[19].left - t.cards[18].left, t.cardW);
  assert.equal(t.cards[9].left - t.cards[18].left, Math.round(t.cardW / 2));
  assert.equal(t.cards[18].top - t.cards[9].top, Math.round(t.cardH / 2));
});

test('the round Undo sits right of the waste, inside the table, clear of the layout', () => {
  for (const [w, h] of [[360, 560], [390, 700], [844, 300], [1366, 660]]) {
    const t = fit(CLASSIC, w, h);
    const u = t.undo;
    assert.ok(u.left >= t.waste.left + t.cardW && u.left + u.size <= t.width + 1, `${w}x${h}`);
    assert.ok(u.top >= t.waste.top && u.top + u.size <= t.waste.top + t.cardH);
    assert.ok(t.width <= w && t.height <= h);
  }
});

test('cards fill the width on a phone held upright: the classic layout spans the screen', () => {
  for (const w of [360, 390]) {
    const t = fit(CLASSIC, w, 700);
    assert.ok(t.width >= w * 0.97, `${t.width} of ${w}`);
  }
});

test('stretched on a tall phone, the piles go to the bottom and the cards keep their size', () => {
  const plain = fit(CLASSIC, 390, 700);
  const t = fit(CLASSIC, 390, 700, { stretch: true });
  assert.equal(t.cardW, plain.cardW);
  assert.ok(t.height <= 700 && t.height >= 699);
  assert.equal(t.stock.top + t.cardH, t.height - Math.round(t.cardW * 0.06));
  const bottom = Math.max(...t.cards.map((c) => c.top)) + t.cardH;
  assert.ok(bottom < t.stock.top);
  assert.deepEqual(fit(CLASSIC, 844, 300, { stretch: true }).stock, fit(CLASSIC, 844, 300).stock); // sideways: no change
});

test('card size is capped on a huge screen', () => {
  assert.equal(fit(CLASSIC, 5000, 4000, { maxCard: 120 }).cardW, 120);
});

test('thumbnail draws one rectangle per slot, lowest z first', () => {
  const th = thumbnail(CLASSIC);
  assert.equal(th.rects.length, 28);
  assert.equal(th.width, 202);
  assert.ok(th.rects[0].y <= th.rects[27].y);
});
