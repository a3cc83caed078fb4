/** Messages between the page and tile-worker.ts. */
export interface TileWorkerRequest {
  id: number;
  url: string;
  kind: 'tile' | 'json';
}

/**
 * Why a fetch failed: the host did not answer at all, it answered with an error status, or it
 * answered but without CORS headers (so the body cannot be read off the page; an <img> can).
 */
export type FetchFailure = 'unreachable' | 'status' | 'no-cors';

export type TileWorkerAnswer =
  { id: number; ok: true; body: unknown } | { id: number; ok: false; reason: FetchFailure };

export type FetchResult = { ok: true; body: unknown } | { ok: false; reason: FetchFailure };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, (a: FetchResult) => void>();

function tileWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./tile-worker.ts', import.meta.url), { type: 'module', name: 'map-tiles' });
    worker.onmessage = (e: MessageEvent<TileWorkerAnswer>) => {
      const done = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (!done) return;
      done(e.data.ok ? { ok: true, body: e.data.body } : { ok: false, reason: e.data.reason });
    };
  }
  return worker;
}

/**
 * Fetches a URL in the map worker: failures come back as a value, never as a console error.
 */
export function fetchOffPage(url: string, kind: 'tile' | 'json'): Promise<FetchResult> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    tileWorker().postMessage({ id, url, kind } satisfies TileWorkerRequest);
  });
}
