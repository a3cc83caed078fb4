/// <reference lib="webworker" />
/**
 * Fetches map tiles (and overlay lists) off the page. A request that fails inside a dedicated
 * worker is reported to the worker only: it leaves no "Failed to load resource" error in the
 * page's console, which is what a ship without a tile server would otherwise see for every tile.
 *
 * Request: { id, url, kind: 'tile' | 'json' }. Answer: { id, ok: true, body } (a Blob for tiles,
 * parsed JSON for lists) or { id, ok: false, reason } (see FetchFailure).
 */
import type { FetchFailure, TileWorkerAnswer, TileWorkerRequest } from './tile-protocol';

declare const self: DedicatedWorkerGlobalScope;

/** After a failed CORS fetch: does the host answer at all (an opaque no-cors answer says yes)? */
async function failureOf(url: string): Promise<FetchFailure> {
  try {
    await fetch(url, { mode: 'no-cors', credentials: 'omit' });
    return 'no-cors';
  } catch {
    return 'unreachable';
  }
}

async function answer(req: TileWorkerRequest): Promise<TileWorkerAnswer> {
  let res: Response;
  try {
    res = await fetch(req.url, { mode: 'cors', credentials: 'omit' });
  } catch {
    return { id: req.id, ok: false, reason: await failureOf(req.url) };
  }
  if (!res.ok) return { id: req.id, ok: false, reason: 'status' };
  try {
    if (req.kind === 'json') return { id: req.id, ok: true, body: (await res.json()) as unknown };
    return { id: req.id, ok: true, body: await res.blob() };
  } catch {
    return { id: req.id, ok: false, reason: 'status' };
  }
}

self.onmessage = (e: MessageEvent<TileWorkerRequest>) => {
  void answer(e.data).then((a) => self.postMessage(a));
};
