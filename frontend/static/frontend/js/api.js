// fetch() for the JSON API: CSRF header from the cookie, JSON errors as ApiError.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

function cookie(name) {
  const m = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
  return m ? decodeURIComponent(m[1]) : '';
}

export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRFToken'] = cookie('csrftoken');
  const res = await fetch('/api/' + path, {
    method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  if (res.status !== 204) {
    try { data = await res.json(); } catch { data = null; }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// Every layout's outline for the picker: slots as {x, y, z} (sent as [x, y, z], the light form).
let layoutsPromise = null;
export function layouts() {
  layoutsPromise ||= api('layouts?form=outline')
    .then((d) => ({ ...d, layouts: d.layouts.map((l) => ({ ...l, slots: l.slots.map(([x, y, z], position) => ({ position, x, y, z })) })) }))
    .catch((e) => { layoutsPromise = null; throw e; });
  return layoutsPromise;
}

// One layout in full, the table's: only the layout in play is sent.
const layoutCache = new Map();
export function layoutNamed(name) {
  if (!layoutCache.has(name)) {
    layoutCache.set(name, api(`layouts/${encodeURIComponent(name)}`).catch((e) => { layoutCache.delete(name); throw e; }));
  }
  return layoutCache.get(name);
}
