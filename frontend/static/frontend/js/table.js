// The table on screen: one button per layout card, the stock and the waste, placed by
// geometry.fit, redrawn from each view; the card animations (fly, shake, bounce) live here.

import { face, back, slot } from './cards.js';
import { fit } from './geometry.js';
import { cardName, cardsLeftText } from './format.js';
import { _, fill, digits } from './i18n.js';
import { step, ordered } from './nav.js';

const reduced = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// How many of each motion the table has played (tests read it: motions are too quick to catch).
const motions = { deal: 0, flip: 0, fly: 0, draw: 0 };
window.__tpMotion = motions;

// The release and its click go to the card pressed, even if the table moved under the pointer.
/** @param {PointerEvent} e @param {HTMLElement} b */
function hold(e, b) {
  if (e.button === 0 && e.isPrimary && !b.hasPointerCapture(e.pointerId)) b.setPointerCapture(e.pointerId);
}

export class Table {
  /**
   * @param {HTMLElement} wrap where the table goes (it takes that element's size)
   * @param {Layout} layout
   * @param {object} handlers
   * @param {(position: number, opts?: {dropFrom?: Point}) => void} handlers.onCard a card clicked, or dragged onto the waste
   * @param {() => void} handlers.onStock
   * @param {() => void} [handlers.onUndo] the round Undo (none on the table without it)
   */
  constructor(wrap, layout, { onCard, onStock, onUndo }) {
    this.wrap = wrap;
    this.layout = layout;
    this.onCard = onCard;
    this.onStock = onStock;
    this.el = document.createElement('div');
    this.el.className = 'table';
    this.el.setAttribute('role', 'group');
    this.el.setAttribute('aria-label', _('Table'));
    this.cards = layout.slots.map((s) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'pc';
      b.dataset.pos = String(s.position);
      b.tabIndex = -1;
      b.addEventListener('click', (e) => {
        if (this.dragged) { this.dragged = false; return; }
        e.preventDefault();
        this.focusId = s.position;
        this.onCard(s.position);
      });
      b.addEventListener('pointerdown', (e) => { hold(e, b); this.dragStart(e, b, s.position); });
      this.el.append(b);
      return b;
    });
    this.stock = document.createElement('button');
    this.stock.type = 'button';
    this.stock.className = 'pc stock';
    this.stock.dataset.place = 'stock';
    this.stock.addEventListener('click', () => { this.focusId = 'stock'; this.onStock(); });
    this.stock.addEventListener('pointerdown', (e) => hold(e, this.stock));
    this.waste = document.createElement('div');
    this.waste.className = 'pc waste';
    this.waste.setAttribute('role', 'img');
    // The round Undo by the waste, at thumb reach (the toolbar has one too).
    this.undo = document.createElement('button');
    this.undo.type = 'button';
    this.undo.className = 'round-undo';
    this.undo.setAttribute('aria-label', _('Undo'));
    this.undo.setAttribute('aria-keyshortcuts', 'Z U Backspace');
    this.undo.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M9 5 3 10l6 5v-3.5c5 0 8 1.5 10 5.5-.5-5.5-3.5-9-10-9.5V5z"/></svg>';
    this.undo.addEventListener('click', () => onUndo && onUndo());
    this.el.append(this.stock, this.waste);
    if (onUndo) this.el.append(this.undo);
    wrap.replaceChildren(this.el);
    /** @type {PlaceId | null} where the keyboard is on the table */
    this.focusId = null;
    /** @type {GameView | null} */
    this.view = null;
    this.dragged = false;
    /** @type {Fit} */
    this.geo = /** @type {Fit} */ (/** @type {unknown} */ (null)); // place() below sets it
    /** @type {Record<string, string>} what each place shows now, by position, 'stock', 'waste' */
    this.shown = {};
    /** @type {Set<string>} the cards seen face up (the win bounce throws them) */
    this.seen = new Set();
    this.resize = () => this.place();
    window.addEventListener('resize', this.resize);
    this.place();
  }

  destroy() { window.removeEventListener('resize', this.resize); }

  place() {
    const r = this.wrap.getBoundingClientRect();
    // The room inside the frame's padding and border (the welcome table has padding).
    const cs = getComputedStyle(this.wrap);
    const px = (/** @type {string[]} */ names) => names.reduce((sum, n) => sum + (parseFloat(cs.getPropertyValue(n)) || 0), 0);
    const w = r.width - px(['padding-left', 'padding-right', 'border-left-width', 'border-right-width']);
    const h = r.height - px(['padding-top', 'padding-bottom', 'border-top-width', 'border-bottom-width']);
    // Upright (a phone), the piles go down to the buttons, at thumb reach.
    const g = fit(this.layout.slots, Math.max(200, w), Math.max(160, h), { stretch: h > w });
    this.geo = g;
    this.el.style.width = g.width + 'px';
    this.el.style.height = g.height + 'px';
    this.el.style.setProperty('--cw', g.cardW + 'px');
    this.el.classList.toggle('beside', g.mode === 'beside');
    /** @param {HTMLElement} el @param {{left: number, top: number}} box @param {number} [z] */
    const put = (el, box, z) => {
      el.style.left = box.left + 'px';
      el.style.top = box.top + 'px';
      el.style.width = g.cardW + 'px';
      el.style.height = g.cardH + 'px';
      if (z !== undefined) el.style.zIndex = String(z);
    };
    this.cards.forEach((b, p) => put(b, g.cards[p], g.cards[p].z + 1));
    put(this.stock, g.stock, 1);
    put(this.waste, g.waste, 1);
    Object.assign(this.undo.style, { left: g.undo.left + 'px', top: g.undo.top + 'px', width: g.undo.size + 'px', height: g.undo.size + 'px' });
  }

  // Places the arrow keys move between: free cards still on the table, and the stock.
  /** @returns {Place[]} */
  places() {
    const v = this.view, g = this.geo;
    if (!v || !g) return [];
    /** @type {Place[]} */
    const list = [];
    v.positions.forEach((p) => {
      if (!p.removed && p.free) list.push({ id: p.position, x: g.cards[p.position].left + g.cardW / 2, y: g.cards[p.position].top + g.cardH / 2 });
    });
    if (v.stock_left > 0) list.push({ id: 'stock', x: g.stock.left + g.cardW / 2, y: g.stock.top + g.cardH / 2 });
    return list;
  }

  /** @param {PlaceId} id */
  elementOf(id) { return id === 'stock' ? this.stock : this.cards[id]; }

  /** @param {string} dir left, right, up, down */
  move(dir) {
    const places = this.places();
    if (!places.length) return;
    const current = places.some((p) => p.id === this.focusId) ? this.focusId : ordered(places)[0].id;
    this.focusId = places.some((p) => p.id === this.focusId) ? step(places, current, dir) : current;
    this.roving(true);
  }

  /**
   * @param {boolean} focus move the page's focus there too
   * @param {boolean} [quiet] without a ring until a key is used (a page's first focus: the browser
   *   would ring it on a fresh load, even on a phone)
   */
  roving(focus, quiet = false) {
    const places = this.places();
    if (!places.some((p) => p.id === this.focusId)) this.focusId = places.length ? ordered(places)[0].id : null;
    for (const b of [...this.cards, this.stock]) b.tabIndex = -1;
    const el = this.focusId === null ? null : this.elementOf(this.focusId);
    if (el) {
      el.tabIndex = 0;
      if (focus) el.focus(quiet ? { focusVisible: false } : undefined);
    }
  }

  /**
   * @param {GameView} view
   * @param {{dropFrom?: Point | null}} [opts] where a card dragged to the waste was let go
   */
  render(view, { dropFrom } = {}) {
    const prev = this.view;
    this.view = view;
    const dealt = !prev || prev.id !== view.id;
    if (prev && prev.id !== view.id) this.seen.clear(); // a new deal on this table
    const hidden = view.paused;
    /** @type {HTMLElement[]} */
    const flips = [];
    this.el.classList.toggle('paused', hidden);
    view.positions.forEach((p) => {
      const b = this.cards[p.position];
      const key = p.removed ? 'x' : hidden ? 'h' : p.card ? p.card + (p.free ? '' : '-') : 'b';
      if (this.shown[p.position] === key) return;
      if (this.shown[p.position] === 'b' && p.card && !hidden) flips.push(b); // uncovered: it turns over
      this.shown[p.position] = key;
      b.hidden = p.removed;
      if (p.removed) return;
      if (p.card) this.seen.add(p.card);
      b.innerHTML = p.card ? face(p.card) : back();
      b.classList.toggle('free', p.free);
      b.classList.toggle('up', Boolean(p.card));
      const name = hidden ? _('hidden while paused') : cardName(p.card);
      b.setAttribute('aria-label', p.card && !p.free ? fill(_('%(card)s, covered'), { card: name }) : name);
      b.setAttribute('aria-disabled', String(!p.free));
    });
    const stockKey = `${view.stock_left}`;
    if (this.shown.stock !== stockKey) {
      this.shown.stock = stockKey;
      this.stock.innerHTML = (view.stock_left ? back() : slot()) + `<span class="count" aria-hidden="true">${digits(view.stock_left)}</span>`;
      this.stock.setAttribute('aria-label', view.stock_left ? fill(_('Stock, %(left)s: draw'), { left: cardsLeftText(view.stock_left) }) : _('Stock is empty'));
      this.stock.setAttribute('aria-disabled', String(!view.stock_left));
    }
    const wasteKey = hidden ? 'h' : view.waste || '';
    if (this.shown.waste !== wasteKey) {
      this.shown.waste = wasteKey;
      this.waste.innerHTML = view.waste && !hidden ? face(view.waste) : slot();
      this.waste.setAttribute('aria-label', view.waste && !hidden ? fill(_('Waste: %(card)s'), { card: cardName(view.waste) }) : _('Waste is empty'));
      if (view.waste) this.seen.add(view.waste);
      if (prev && prev.id === view.id && !hidden && view.waste && prev.waste !== view.waste) this.flyIn(prev, view, dropFrom);
    }
    this.undo.setAttribute('aria-disabled', String(!view.can_undo || hidden));
    this.hint(null);
    this.roving(this.el.contains(document.activeElement));
    if (reduced() || hidden) return;
    if (dealt && view.seq === 0) this.dealIn();
    else {
      for (const b of flips) b.animate([{ transform: 'rotateY(90deg)' }, { transform: 'rotateY(0)' }], { duration: 240, easing: 'ease-out' });
      motions.flip += flips.length;
    }
  }

  // A fresh deal: the cards fly out of the stock to their places, one after another.
  dealIn() {
    motions.deal += 1;
    const g = this.geo;
    this.cards.forEach((b, p) => {
      const c = g.cards[p];
      b.animate(
        [{ transform: `translate(${g.stock.left - c.left}px, ${g.stock.top - c.top}px)`, opacity: 0.4 }, { transform: 'translate(0,0)', opacity: 1 }],
        { duration: 320, delay: p * 16, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'backwards' },
      );
    });
  }

  // The new waste card arrives from where it was: a layout card or the stock.
  /** @param {GameView} prev @param {GameView} view @param {Point | null | undefined} dropFrom */
  flyIn(prev, view, dropFrom) {
    if (reduced()) return;
    /** @type {{left: number, top: number} | null} */
    let from = null;
    const played = prev.positions.find((p, i) => !p.removed && view.positions[i].removed && p.card === view.waste);
    if (dropFrom) from = dropFrom;
    else if (played) from = this.geo.cards[played.position];
    else if (view.stock_left < prev.stock_left) from = this.geo.stock;
    if (!from) return;
    const to = this.geo.waste;
    this.waste.style.zIndex = '60';
    // A card drawn from the stock turns face up on its way; a played card just flies.
    const turn = from === this.geo.stock ? ' rotateY(90deg)' : '';
    motions[turn ? 'draw' : 'fly'] += 1;
    const anim = this.waste.animate(
      [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)${turn}` }, { transform: 'translate(0,0)' }],
      { duration: turn ? 260 : 220, easing: 'cubic-bezier(.2,.7,.3,1)' },
    );
    anim.onfinish = () => { this.waste.style.zIndex = '1'; };
  }

  /** @param {PlaceId} id */
  shake(id) {
    const el = this.elementOf(id);
    if (!el) return;
    el.dataset.shaken = String(Number(el.dataset.shaken || 0) + 1); // a count tests can wait on
    el.classList.add('refused');
    setTimeout(() => el.classList.remove('refused'), 450);
    if (reduced()) return;
    el.animate(
      [0, -7, 7, -5, 5, -2, 0].map((x) => ({ transform: `translateX(${x}px)` })),
      { duration: 360, easing: 'ease-out' },
    );
  }

  /** @param {PlaceId | null | undefined} id the hinted place; none clears the glow */
  hint(id) {
    for (const b of [...this.cards, this.stock]) b.classList.remove('hinted');
    if (id === null || id === undefined) return;
    const el = this.elementOf(id);
    if (el) el.classList.add('hinted');
  }

  // Dragging a free card onto the waste plays it.
  /** @param {PointerEvent} e @param {HTMLElement} b @param {number} position */
  dragStart(e, b, position) {
    if (e.button !== 0 || !this.view || !this.view.positions[position].free) return;
    const sx = e.clientX, sy = e.clientY;
    let moving = false;
    /** @param {PointerEvent} ev */
    const onMove = (ev) => {
      const dx = ev.clientX - sx, dy = ev.clientY - sy;
      if (!moving && Math.hypot(dx, dy) < 8) return;
      moving = true;
      b.classList.add('dragging');
      b.style.transform = `translate(${dx}px, ${dy}px)`;
    };
    /** @param {PointerEvent} ev */
    const onUp = (ev) => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      if (!moving) return;
      this.dragged = true;
      setTimeout(() => { this.dragged = false; }, 0);
      const dx = ev.clientX - sx, dy = ev.clientY - sy;
      b.classList.remove('dragging');
      b.style.transform = '';
      const g = this.geo, c = g.cards[position];
      const left = c.left + dx, top = c.top + dy;
      const over = Math.abs(left - g.waste.left) < g.cardW * 0.75 && Math.abs(top - g.waste.top) < g.cardH * 0.75;
      if (over) this.onCard(position, { dropFrom: { left, top } });
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  }

  // A win: the cards bounce off the table (skipped when motion is reduced). Resolves when done.
  /** @returns {Promise<unknown>} */
  bounce() {
    if (reduced()) return Promise.resolve();
    const g = this.geo;
    const tokens = [...this.seen].slice(-16);
    const floor = g.height - g.cardH;
    const runs = tokens.map((token, i) => {
      const el = document.createElement('div');
      el.className = 'pc flying';
      el.innerHTML = face(token);
      Object.assign(el.style, { left: g.waste.left + 'px', top: g.waste.top + 'px', width: g.cardW + 'px', height: g.cardH + 'px', zIndex: 80 + i });
      this.el.append(el);
      const vx = (i % 2 ? 1 : -1) * (4 + (i * 7) % 6);
      let x = 0, y = 0, vy = -10 - (i % 4) * 2;
      /** @type {Keyframe[]} */
      const frames = [];
      for (let t = 0; t < 70; t++) {
        x += vx; y += vy; vy += 1.2;
        if (g.waste.top + y > floor) { y = floor - g.waste.top; vy = -vy * 0.7; }
        frames.push({ transform: `translate(${Math.round(x)}px, ${Math.round(y)}px) rotate(${Math.round(x / 4)}deg)` });
      }
      frames.push({ transform: frames[frames.length - 1].transform, opacity: 0 });
      const anim = el.animate(frames, { duration: 1400, delay: i * 70, easing: 'linear', fill: 'forwards' });
      return anim.finished.catch(() => {}).then(() => el.remove());
    });
    return Promise.all(runs);
  }
}
