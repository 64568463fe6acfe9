// Layout picker: a grid of thumbnails drawn from the layout data; the choice is remembered.

import { thumbnail } from '../geometry.js';
import { esc } from '../dialog.js';

function svg(layout) {
  const t = thumbnail(layout.slots);
  return `<svg viewBox="0 0 ${t.width} ${t.height}" aria-hidden="true" focusable="false">${t.rects.map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" rx="2"/>`).join('')}</svg>`;
}

export async function mount(root, ctx) {
  const data = await ctx.layouts();
  const chosen = ctx.layoutName();
  root.innerHTML = `<p>Pick the shape of the table for new and numbered deals (the daily deal is always the classic three peaks).</p>
    <div class="layout-grid" role="group" aria-label="Layouts">${data.layouts.map((l) => `
      <button type="button" class="thumb" data-name="${esc(l.name)}" aria-pressed="${l.name === chosen}">
        ${svg(l)}<span>${esc(l.title)}</span><small>${l.size} cards</small></button>`).join('')}</div>`;
  root.querySelector('.layout-grid').addEventListener('click', (e) => {
    const b = e.target.closest('.thumb');
    if (!b) return;
    const l = data.layouts.find((x) => x.name === b.dataset.name);
    localStorage.setItem('tp.layout', l.name);
    localStorage.setItem('tp.layoutTitle', l.title);
    root.querySelectorAll('.thumb').forEach((t) => t.setAttribute('aria-pressed', String(t === b)));
  });
  return null;
}
