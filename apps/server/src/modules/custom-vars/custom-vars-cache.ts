import type { CustomVar } from '@bathylog/shared';
import type { AppContext } from '../../context.js';

/**
 * The custom vars as the API lists them, kept for a moment (docs/performance.md#per-request: reading them was half of
 * an authenticated `GET /custom_vars`, and on PostgreSQL a round trip). Every change goes
 * through CustomVarsService, which drops the list after writing and publishes the new value on
 * `updateCustomVars`; every process (PostgreSQL with several servers: the LISTEN/NOTIFY bus)
 * drops its list when that message arrives, so a change shows at once everywhere. A read that
 * was under way when a change arrived is not kept (it may have seen the row before the change),
 * and a list lives `customVarsCacheLifetimeMs` at most, which bounds how long a change made by
 * hand in the database, or one whose notification was lost with the bus connection, goes unseen.
 */
export const customVarsCacheLifetimeMs = 1000;

export class CustomVarsCache {
  private vars: readonly CustomVar[] | null = null;
  private at = 0;
  private reading: Promise<CustomVar[]> | null = null;
  /** Bumped by every change: a read that began under an older generation is not kept. */
  private generation = 0;

  constructor(ctx: Pick<AppContext, 'bus'>) {
    ctx.bus.subscribe('updateCustomVars', () => this.invalidate());
  }

  /** The whole list (in id order) from the cache, or from `read` (and kept). Callers get copies. */
  async list(read: () => Promise<CustomVar[]>): Promise<CustomVar[]> {
    if (this.vars && Date.now() - this.at <= customVarsCacheLifetimeMs) return this.vars.map((v) => ({ ...v }));
    // Callers missing the list at once share one read (no burst of queries when it expires under load).
    if (!this.reading) {
      const generation = this.generation;
      const readAt = Date.now();
      const reading = read().then((vars) => {
        if (generation === this.generation) {
          this.vars = vars.map((v) => ({ ...v }));
          this.at = readAt;
        }
        return vars;
      });
      this.reading = reading;
      const settled = () => {
        if (this.reading === reading) this.reading = null;
      };
      reading.then(settled, settled);
    }
    return (await this.reading).map((v) => ({ ...v }));
  }

  /** A var changed: forget the list, and keep (or share) no read that was under way. */
  invalidate(): void {
    this.vars = null;
    this.reading = null;
    this.generation++;
  }
}

const caches = new WeakMap<object, CustomVarsCache>();

/** The cache of one database (tests run several servers in one process, each with its own). */
export function customVarsCache(ctx: Pick<AppContext, 'bus' | 'database'>): CustomVarsCache {
  let cache = caches.get(ctx.database);
  if (!cache) {
    cache = new CustomVarsCache(ctx);
    caches.set(ctx.database, cache);
  }
  return cache;
}
