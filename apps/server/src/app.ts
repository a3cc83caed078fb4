import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { migrateToLatest, openDatabase, type Database } from './db/database.js';
import { holdStartupLock } from './db/startup-lock.js';
import { Mailer } from './lib/mailer.js';
import { serverRoot } from './lib/paths.js';
import { setPasswordHashCost } from './lib/passwords.js';
import { apiModules, callerStore, followCachedState, originExceptions, removeCascades } from './modules/index.js';
import { registerOriginGuard } from './origins/origin-guard.js';
import { miscRoutes } from './modules/misc/misc.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { registerEventAccess } from './modules/access/event-access.js';
import { registerVideoLinks } from './media/video-links.js';
import { channelAccess } from './modules/access/channel-access.js';
import { registerCompression } from './plugins/compression.js';
import { registerCors } from './plugins/cors.js';
import { registerCrossSiteGuard } from './plugins/cross-site.js';
import { registerAuth } from './plugins/auth.js';
import { registerHeavyReads } from './plugins/heavy-reads.js';
import { notFoundBody, registerHttpConventions } from './plugins/http.js';
import { collectRoutes, type RouteEntry } from './plugins/route-table.js';
import { registerResponseCheck, registerResponseSerializer } from './plugins/response-schemas.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import type { ChannelBus } from './realtime/bus.js';
import { createBus } from './realtime/create-bus.js';
import { registerPublishBarrier } from './realtime/publish-barrier.js';
import { registerRealtime } from './realtime/register-realtime.js';
import { registerJobs } from './jobs/index.js';
import { seedSystem } from './seed/system.js';
import { loadDemo } from './seed/demo.js';
import { loggerOptions } from './plugins/request-log.js';
import { createFileStore, type FileStore } from './storage/index.js';
import { maxFilesPerUpload } from './modules/files/files.service.js';

export const apiPrefix = '/sealog-server/api/v1';

export interface BuildOptions {
  config: Config;
  /** An open database (tests); otherwise one is opened from the config. */
  database?: Database;
  bus?: ChannelBus;
  /** Seed system users and custom vars (and the demo cruise in demo mode). Default true. */
  seed?: boolean;
  logger?: boolean;
  /** The clock of date rules (archive embargoes); default Date.now. Tests fake it. */
  now?: () => number;
  /** The file store (tests); otherwise the one the configuration names. */
  store?: FileStore;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /**
   * Tests: every JSON answer is checked against its route's response schema in strict mode, and
   * each mismatch is reported here (plugins/response-schemas.ts).
   */
  onResponseMismatch?: (violation: string) => void;
  /**
   * False: SQLite's writes and exports run on the main connection, with no write or read thread
   * (a one-shot CLI command, where loading the two threads cost more CPU than its work). Default true.
   */
  threads?: boolean;
}

/** The JWT secret: configured, or kept in <data>/secret (made on first start). */
export function ensureSecret(config: Config, dataDir: string): string {
  if (config.secret) return config.secret;
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  // Written whole under a temporary name, then linked into place (which fails if it exists): of
  // hosts that share the data folder and start together, one makes the secret and the others read
  // it, never a half-written file, so a token one signs is valid on all (docs/deployment.md).
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, secret, { mode: 0o600 });
  try {
    linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8').trim();
  } finally {
    rmSync(temp, { force: true });
  }
  return secret;
}

/**
 * Timeouts of the HTTP server (config `http`): Node checks headers and request deadlines every
 * `connectionsCheckingInterval`, so the interval follows the shortest deadline.
 */
function httpTimeouts(config: Config) {
  const t = config.http;
  return {
    connectionTimeout: t.idleTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    http: {
      headersTimeout: t.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(t.headersTimeoutMs / 4))),
    },
  };
}

function defaultWebDir(): string {
  return path.resolve(serverRoot, '../web/dist');
}

/** The folders under the data folder (made when missing). */
export function dataPaths(data: string): AppContext['paths'] {
  const paths = {
    data,
    files: path.join(data, 'files'),
    images: path.join(data, 'files', 'images'),
    cruises: path.join(data, 'files', 'cruises'),
    lowerings: path.join(data, 'files', 'lowerings'),
    outbox: path.join(data, 'outbox'),
  };
  for (const dir of [paths.images, paths.cruises, paths.lowerings]) mkdirSync(dir, { recursive: true });
  return paths;
}

/** Builds the whole server (no listen): used by main.ts and by tests. */
export async function buildApp(
  opts: BuildOptions,
): Promise<{ app: FastifyInstance; ctx: AppContext; routes: RouteEntry[] }> {
  const { config } = opts;
  setPasswordHashCost(config.passwordHashCost);
  const data = config.dataDir;
  const paths = dataPaths(data);

  const bodyLimit = Math.round(config.bodyLimitMb * 1024 * 1024);
  const app = Fastify({
    // One access line per request; tokens in query strings and reset paths never reach the log.
    ...(opts.logger === false ? { logger: false } : loggerOptions(config.logLevel, opts.logStream)),
    bodyLimit,
    ...httpTimeouts(config),
    // X-Forwarded-For only from the configured proxies; otherwise the socket's address.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    routerOptions: { maxParamLength: 500 },
    // The SQLite write thread loads while the app is built, and `onReady` waits for it. On a loaded
    // machine (a ship's box busy importing, a CLI command beside a running server) that took longer
    // than Fastify's default 10 s, and start-up failed although nothing was wrong.
    pluginTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();
  const routes = collectRoutes(app);

  const database =
    opts.database ??
    openDatabase({
      url: config.databaseUrl,
      sqlitePath: path.join(data, 'bathylog.sqlite'),
      sqliteSynchronous: config.sqliteSynchronous,
      ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
      writeThread: opts.threads !== false,
    });
  // Hosts started together on one PostgreSQL database migrate and seed one after another.
  const releaseStartup = await holdStartupLock(database);
  try {
    await migrateToLatest(database);
  } catch (err) {
    await releaseStartup();
    throw err;
  }
  // The SQLite write thread loads while the app is built; the app is ready once it is.
  const writeThread = database.writeWorker?.start().then(
    () => null,
    (error: unknown) => error,
  );
  // The exports' read thread too, so the first export does not wait for it to load (if it cannot
  // start, the first export tries again and fails alone).
  database.readWorker?.start().catch(() => {});
  const ctx: AppContext = {
    config,
    database,
    bus: opts.bus ?? (await createBus(database, app.log)),
    mailer: new Mailer(config, app.log),
    secret: ensureSecret(config, data),
    log: app.log,
    callers: callerStore,
    removeCascades,
    now: opts.now ?? Date.now,
    paths,
    store:
      opts.store ??
      createFileStore(config.storage, data, (err, operation) =>
        app.log.error({ failure: err, operation }, 'the file store failed'),
      ),
  };
  try {
    if (opts.seed !== false) {
      await seedSystem(database, { mode: config.mode, adminPassword: config.adminPassword, log: app.log });
      if (config.mode === 'demo') await loadDemo(ctx);
    }
  } finally {
    await releaseStartup();
  }

  app.addHook('onReady', async () => {
    const failed = await writeThread;
    if (failed) throw failed;
  });
  const unfollow = followCachedState(ctx);
  app.addHook('onClose', async () => {
    unfollow();
    await ctx.bus.close();
    if (!opts.store) ctx.store.close();
    if (!opts.database) await database.close();
  });

  // A refused upload's body is read before the answer, up to what one upload may carry.
  const drainLimit = Math.round(config.uploadLimitMb * 1024 * 1024) * maxFilesPerUpload;
  // Before any route: write routes answer once their notifications left for the other hosts.
  registerPublishBarrier(app, ctx.bus);
  registerHttpConventions(app, { bodyLimit, drainLimit });
  registerResponseSerializer(app);
  // Before compression, so the check reads the answer as the handler sent it.
  if (opts.onResponseMismatch) registerResponseCheck(app, opts.onResponseMismatch);
  const webDir = config.webDir ?? defaultWebDir();
  const hasWeb = existsSync(path.join(webDir, 'index.html'));
  registerSecurityHeaders(app, { config, webDir: hasWeb ? webDir : null });
  registerCrossSiteGuard(app, ctx);
  await registerCors(app);
  await registerCompression(app);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Bathylog API (Sealog v2 compatible)', version: '0.1.0' },
      components: { securitySchemes: { jwt: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/sealog-server/documentation' });
  app.get('/sealog-server/swagger.json', { schema: { hide: true } }, async () => app.swagger());
  registerAuth(app, ctx);
  registerEventAccess(app, ctx);
  registerVideoLinks(app, ctx);
  registerOriginGuard(app, ctx, originExceptions(ctx));
  registerHeavyReads(app, ctx, apiPrefix);

  miscRoutes(app, ctx);
  await filesRoutes(app, ctx);
  await app.register(
    async (api) => {
      for (const mod of apiModules) mod(api, ctx);
    },
    { prefix: apiPrefix },
  );
  registerRealtime(app, ctx, channelAccess);
  registerJobs(app, ctx);

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      // Hashed assets never change under their name: cached for good. The shell is revalidated.
      cacheControl: false,
      setHeaders(reply, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // Client routes (/login, /review_map/…) get the app shell; hashed assets are cached for good.
    app.get('/assets/*', (req, reply) => {
      const file = (req.params as { '*': string })['*'];
      return reply.sendFile(path.join('assets', file));
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/sealog-server') || request.url.startsWith('/ws');
    if (hasWeb && !isApi && request.method === 'GET') return reply.type('text/html').sendFile('index.html');
    return reply.code(404).send(notFoundBody(request));
  });
  return { app, ctx, routes };
}
