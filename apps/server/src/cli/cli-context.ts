import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { scopesForRoles } from '@bathylog/shared';
import { buildApp } from '../app.js';
import { loadConfig, type Config, type ConfigInput } from '../config.js';
import type { AppContext } from '../context.js';
import { standInCaller, type AuthContext } from '../plugins/auth.js';
import { issueApiToken } from '../plugins/session-tokens.js';
import { UsersRepository, type UserRecord } from '../modules/users/users.repository.js';
import { seedSystem } from '../seed/system.js';
import { CliError, type GlobalOptions } from './cli-args.js';

export { CliError, UsageError, type GlobalOptions } from './cli-args.js';

/**
 * The configuration the server would use (BATHYLOG_CONFIG, environment, defaults), with
 * `--config` and `--data` applied. The CLI never runs the server's background jobs.
 */
export function cliConfig(opts: GlobalOptions, extra: ConfigInput = {}): Config {
  const env = { ...process.env, ...(opts.config ? { BATHYLOG_CONFIG: opts.config } : {}) };
  return loadConfig(env, {
    ...(opts.data ? { dataDir: opts.data } : {}),
    ...extra,
  });
}

/**
 * The logger handed to start-up code (seeding): warnings reach the operator as plain lines on
 * stderr (stdout carries exports), e.g. a generated admin password.
 */
function plainLogger(): FastifyBaseLogger {
  const write = (level: string) => (obj: unknown, msg?: string) => {
    const text = typeof obj === 'string' ? obj : (msg ?? '');
    process.stderr.write(`${level === 'warn' ? '' : `${level}: `}${text.trim()}\n`);
  };
  const quiet = () => {};
  const log = {
    level: 'warn',
    fatal: write('fatal'),
    error: write('error'),
    warn: write('warn'),
    info: quiet,
    debug: quiet,
    trace: quiet,
    silent: quiet,
    child: () => log,
  };
  return log as unknown as FastifyBaseLogger;
}
export const cliLog = plainLogger();

export interface CliApp {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/**
 * The server, in this process, without listening: migrations and system seeding as at start-up
 * (a fresh data folder gets its admin user here), then the same routes and services scripts
 * use. No background jobs (free space, ASNAP, scheduled backups), and no SQLite write or read thread:
 * a command's writes and exports run on the main connection, and it starts in a third of the time.
 */
export async function openCliApp(opts: GlobalOptions): Promise<CliApp> {
  const config = cliConfig(opts, {
    freeSpaceIntervalSeconds: 0,
    asnap: { enabled: false },
    auxManagers: { enabled: false },
    backups: { intervalMinutes: 0 },
    writeRateLimit: { perKey: 0, perAddress: 0 },
    logLevel: 'silent',
  });
  const { app, ctx } = await buildApp({ config, logger: false, seed: false, threads: false });
  await seedSystem(ctx.database, { mode: config.mode, adminPassword: config.adminPassword, log: cliLog });
  await app.ready();
  return { app, ctx, close: () => app.close() };
}

/** The first enabled admin: the CLI acts (and is audited) as this user. */
export async function findAdmin(ctx: AppContext): Promise<UserRecord | undefined> {
  const users = await new UsersRepository(ctx.database.db).list({ sort: 'username' });
  return users.find((u) => !u.disabled && u.roles.includes('admin'));
}

/** The CLI as a caller of the services: the first enabled admin, or the CLI itself when none is left. */
export async function cliCaller(ctx: AppContext): Promise<AuthContext> {
  const admin = await findAdmin(ctx);
  const route = 'bathylog CLI';
  if (!admin) {
    const cli = {
      id: '000000000000000000000000',
      username: 'bathylog-cli',
      fullname: 'bathylog CLI',
      email: 'cli@localhost',
      roles: ['admin'],
      system_user: true,
      last_login: 0,
    };
    return standInCaller(cli, { iat: 0, key: null, route });
  }
  const scopes = scopesForRoles(admin.roles);
  return {
    user: admin,
    claims: { id: admin.id, scope: scopes, roles: admin.roles, iat: 0 },
    scopes,
    isAdmin: true,
    key: null,
    route,
  };
}

/** An API token of the first enabled admin, for calling the routes in-process. */
export async function adminToken(ctx: AppContext): Promise<string> {
  const admin = await findAdmin(ctx);
  if (!admin) {
    throw new CliError('No enabled admin user: create one with `bathylog user create --admin ...` first');
  }
  return issueApiToken(ctx, admin);
}
