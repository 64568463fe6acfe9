// Layout picker: a grid of thumbnails drawn from the layouts' outlines; the choice is remembered,
// and PLAY (always on the screen, at its bottom) deals a new game on it.

import { thumbnail } from '../geometry.js';
import { esc } from '../dialog.js';
import { startAsking } from '../starting.js';
import { _, fill, num } from '../i18n.js';
import { layoutTitle } from '../format.js';

/** @param {Layout} layout */
function svg(layout) {
  const t = thumbnail(layout.slots);
  return `<svg viewBox="0 0 ${t.width} ${t.height}" aria-hidden="true" focusable="false">${t.rects.map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" rx="2"/>`).join('')}</svg>`;
}

/** @type {Mount} */
export async function mount(root, ctx) {
  const data = await ctx.layouts();
  const chosen = ctx.layoutName();
  const playLabel = () => fill(_('Play %(layout)s'), { layout: ctx.layoutTitle() });
  // PLAY stands in a bar that keeps to the bottom of the screen: at hand wherever the layout was
  // picked (at the top of the page it was 3,366 px away from the last ones on a phone).
  root.innerHTML = `<p class="layout-intro">${_('Pick the shape of the table for new and numbered deals (the daily deal is always the classic three peaks).')}</p>
    <div class="layout-grid" role="group" aria-label="${_('Layouts')}">${data.layouts.map((l) => `
      <button type="button" class="thumb" data-name="${esc(l.name)}" aria-pressed="${l.name === chosen}">
        ${svg(l)}<span>${esc(layoutTitle(l.name, l.title))}</span><small>${esc(fill(_('%(n)s cards'), { n: num(l.size) }))}</small></button>`).join('')}</div>
    <div class="layout-bar"><button type="button" class="button play-layout" data-testid="play-layout">${esc(playLabel())}</button></div>`;
  const play = /** @type {HTMLElement} */ (root.querySelector('[data-testid=play-layout]'));
  /** @type {HTMLElement} */ (root.querySelector('.layout-grid')).addEventListener('click', (e) => {
    const b = /** @type {Element} */ (e.target).closest('.thumb');
    if (!(b instanceof HTMLElement)) return;
    const l = data.layouts.find((x) => x.name === b.dataset.name);
    if (!l) return;
    localStorage.setItem('tp.layout', l.name);
    localStorage.setItem('tp.layoutTitle', l.title);
    root.querySelectorAll('.thumb').forEach((t) => t.setAttribute('aria-pressed', String(t === b)));
    play.textContent = playLabel();
  });
  play.addEventListener('click', () => {
    const rules = JSON.parse(localStorage.getItem('tp.rules') || '{"wrap":true,"open":false}');
    startAsking(ctx, { mode: 'random', rules, layout: ctx.layoutName() }, play);
  });
  return null;
}
