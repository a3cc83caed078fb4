import type { FastifyInstance } from 'fastify';
import { executeOutputPath, executeOutputReply, wsChannels } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import type { ChannelAccess } from './channel-access.js';
import { internalChannels } from './internal-channels.js';
import { NesServer } from './nes-server.js';

export interface Realtime {
  nes: NesServer;
}

/**
 * The live half of the server: the nes websocket on the server's port (any path outside
 * /sealog-server, like Sealog, which scripts reach at /ws), delivery of every bus channel to its
 * subscribers (filtered by `access`) and the execute_output stream. The background jobs are the app's (jobs/).
 */
export function registerRealtime(app: FastifyInstance, ctx: AppContext, access: ChannelAccess): Realtime {
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
      fanOutSlice: settings.fanOutSlice,
      useAccessControl: ctx.config.useAccessControl,
      maxPayloadBytes: Math.round(ctx.config.bodyLimitMb * 1024 * 1024) + 64 * 1024,
      allowedOrigins: ctx.config.allowedOrigins,
      access,
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

  app.addHook('preClose', async () => {
    for (const off of unsubscribe) off();
    await nes.close();
  });

  return { nes };
}
