import type { FastifyInstance } from 'fastify';
import { executeOutputPath, executeOutputReply, wsChannels } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { AsnapService, logAsnapThroughEvents, type LogAsnapEvent } from '../services/asnap.service.js';
import { FreeSpaceMonitor } from '../services/free-space.service.js';
import { BackupScheduler } from '../services/backup-scheduler.service.js';
import { LeaderElection } from '../services/leader.service.js';
import { internalChannels } from './internal-channels.js';
import { NesServer } from './nes-server.js';

export interface Realtime {
  nes: NesServer;
  leader: LeaderElection;
  freeSpace: FreeSpaceMonitor;
  asnap: AsnapService | null;
}

export interface RealtimeOptions {
  /** How the built-in ASNAP logs its events (tests); default: through the events service. */
  logAsnapEvent?: LogAsnapEvent;
}

/**
 * The live half of the server: the nes websocket on the server's port (any path outside
 * /sealog-server, like Sealog, which scripts reach at /ws), delivery of every bus channel to its
 * subscribers, the execute_output stream, and the singleton jobs (free-space monitor, built-in
 * ASNAP) run by the leading process.
 */
export function registerRealtime(app: FastifyInstance, ctx: AppContext, opts: RealtimeOptions = {}): Realtime {
  const settings = ctx.config.realtime;
  const nes = new NesServer(
    ctx,
    async (request) => {
      const res = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload as string } : {}),
        ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
      });
      return { statusCode: res.statusCode, headers: res.headers, body: res.body };
    },
    {
      heartbeatIntervalMs: settings.heartbeatIntervalMs,
      heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
      helloTimeoutMs: settings.helloTimeoutMs,
      authRecheckMs: settings.authRecheckMs,
      useAccessControl: ctx.config.useAccessControl,
      maxPayloadBytes: Math.round(ctx.config.bodyLimitMb * 1024 * 1024) + 64 * 1024,
      allowedOrigins: ctx.config.allowedOrigins,
    },
  );

  app.server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/sealog-server' || path.startsWith('/sealog-server/')) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    nes.handleUpgrade(req, socket, head);
  });

  const unsubscribe = wsChannels.map((channel) =>
    ctx.bus.subscribe(channel, (payload) => {
      nes
        .publish(channel, payload)
        .catch((err: unknown) => ctx.log.error({ err, channel }, 'websocket publish failed'));
    }),
  );
  unsubscribe.push(ctx.bus.subscribe(internalChannels.executeOutput, (message) => nes.sendOutput(String(message))));
  unsubscribe.push(
    ctx.bus.subscribe(internalChannels.revoked, (target) => {
      nes
        .revoked(target as { userId?: string; keyId?: string })
        .catch((err: unknown) => ctx.log.error({ err }, 'closing revoked websockets failed'));
    }),
  );

  // Over plain HTTP this only answers (Sealog registered a null socket here and later broke the
  // export call); the nes request of the same path on a socket registers that socket.
  app.get(executeOutputPath, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(executeOutputReply),
  );

  const leader = new LeaderElection(ctx.database, ctx.log);
  const freeSpace = new FreeSpaceMonitor(ctx);
  const asnap = ctx.config.asnap.enabled
    ? new AsnapService(ctx, opts.logAsnapEvent ?? logAsnapThroughEvents(ctx))
    : null;
  const backups = new BackupScheduler(ctx);
  const startJobs = () => Promise.all([freeSpace.start(), asnap?.start(), backups.start()]);
  const stopJobs = () => Promise.all([freeSpace.stop(), asnap?.stop(), backups.stop()]);

  app.addHook('onReady', async () => {
    await leader.start();
    // The first free-space reading is in place before the server takes requests.
    if (leader.isLeader) await startJobs();
    leader.onChange((leading) => {
      (leading ? startJobs() : stopJobs()).catch((err: unknown) => ctx.log.error({ err }, 'singleton jobs failed'));
    });
  });

  app.addHook('preClose', async () => {
    for (const off of unsubscribe) off();
    await stopJobs();
    await leader.stop();
    await nes.close();
  });

  return { nes, leader, freeSpace, asnap };
}
