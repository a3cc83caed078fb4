import type { Health } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { HealthRepository } from './health.repository.js';

/**
 * How long the database may take to answer a health check. A balancer checks every second or
 * so: a host whose database hangs must be taken out quickly, not after the pool's own timeout.
 */
export const healthTimeoutMs = 2000;

/**
 * Whether this process can serve requests (docs/deployment.md#health-checks): it answers, and its
 * database answers within healthTimeoutMs. A failure says which part failed and nothing more (no
 * address, no driver message: those may name the database's host or user).
 */
export class HealthService {
  constructor(private readonly ctx: AppContext) {}

  async check(): Promise<Health> {
    const repo = new HealthRepository(this.ctx.database.db);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), healthTimeoutMs);
    });
    try {
      const outcome = await Promise.race([repo.ping().then(() => 'ok' as const), timeout]);
      if (outcome === 'timeout') throw new AppError('SERVICE_UNAVAILABLE', 'The database does not answer');
      return { status: 'ok', database: 'ok' };
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.ctx.log.warn({ err }, 'health check: the database query failed');
      throw new AppError('SERVICE_UNAVAILABLE', 'The database does not answer');
    } finally {
      clearTimeout(timer);
    }
  }
}
