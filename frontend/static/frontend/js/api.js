// fetch() for the JSON API: CSRF header from the cookie, JSON errors as ApiError.

export class ApiError extends Error {
  /** @param {number} status @param {ErrorBody | null} body @param {number | null} [retryAfter] */
  constructor(status, body, retryAfter = null) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    /** @type {ErrorBody} */
    this.body = body || {};
    /** @type {number | null} seconds to wait before trying again (a 429's or 503's Retry-After) */
    this.retryAfter = retryAfter;
  }
}

/** @param {string} name */
function cookie(name) {
  const m = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
  return m ? decodeURIComponent(m[1]) : '';
}

/**
 * The JSON answer to `path` under /api/ (any: each caller says what it expects), or ApiError.
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = 'GET', body } = {}) {
  /** @type {Record<string, string>} */
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
  if (!res.ok) {
    const wait = Number(res.headers.get('Retry-After'));
    throw new ApiError(res.status, data, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return data;
}

// Every layout's outline for the picker: slots as {x, y, z} (sent as [x, y, z], the light form).
/** @type {Promise<{layouts: Layout[]}> | null} */
let layoutsPromise = null;
/** @returns {Promise<{layouts: Layout[]}>} */
export function layouts() {
  layoutsPromise ||= api('layouts?form=outline')
    .then((/** @type {{layouts: Outline[]}} */ d) => ({ ...d, layouts: d.layouts.map(fromOutline) }))
    .catch((e) => { layoutsPromise = null; throw e; });
  return layoutsPromise;
}

/** A layout from its outline (slots as [x, y, z] in position order). @param {Outline} l @returns {Layout} */
export const fromOutline = (l) => ({ ...l, slots: l.slots.map(([x, y, z], position) => ({ position, x, y, z })) });

// One layout in full, the table's: only the layout in play is sent.
/** @type {Map<string, Promise<Layout>>} */
const layoutCache = new Map();

// A layout the page already has (the boot data's: frontend/views.py), never asked for.
/** @param {Outline} outline */
export function knownLayout(outline) {
  layoutCache.set(outline.name, Promise.resolve(fromOutline(outline)));
}
/** @param {string} name @returns {Promise<Layout>} */
export function layoutNamed(name) {
  if (!layoutCache.has(name)) {
    layoutCache.set(name, api(`layouts/${encodeURIComponent(name)}`).catch((e) => { layoutCache.delete(name); throw e; }));
  }
  return /** @type {Promise<Layout>} */ (layoutCache.get(name));
}

/**
 * The player's unfinished game, or null when there is none or nobody is signed in (the context
 * then learns there is none, so it is not asked again).
 * @param {AppContext} ctx @returns {Promise<GameView | null>}
 */
export async function currentGame(ctx) {
  if (!ctx.user || !ctx.hasGame) return null;
  try {
    return await api('games/current');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    ctx.hasGame = false;
    return null;
  }
}
