import { sql } from 'kysely';
import type { Health, StorageStatus } from '@bathylog/shared';
import type { AppContext } from '../../context.js';

/** A check that takes longer than this counts as a failure: a balancer must not wait on a hung bucket. */
const checkTimeoutMs = 5000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${checkTimeoutMs / 1000} s`)),
      checkTimeoutMs,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Why the store failed, in words safe to show an admin (never an address with credentials). */
function reason(err: unknown): string {
  return err instanceof Error ? err.message.slice(0, 200) : 'the file store failed';
}

/** The file store's state (docs/storage.md#when-the-bucket-is-down), and the server's readiness. */
export class StorageService {
  constructor(private readonly ctx: AppContext) {}

  async status(): Promise<StorageStatus> {
    const { store } = this.ctx;
    try {
      await withTimeout(store.check(), 'The file store');
      return { backend: store.kind, location: store.description, reachable: true, message: null };
    } catch (err) {
      return { backend: store.kind, location: store.description, reachable: false, message: reason(err) };
    }
  }

  async health(): Promise<Health> {
    const [database, files] = await Promise.all([
      withTimeout(sql`SELECT 1`.execute(this.ctx.database.db), 'The database').then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      ),
      withTimeout(this.ctx.store.check(), 'The file store').then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      ),
    ]);
    const status = database === 'unavailable' ? 'unavailable' : files === 'ok' ? 'ok' : 'degraded';
    return { status, database, files };
  }
}
