import type { FastifyInstance, RouteOptions, onSendHookHandler } from 'fastify';
import type { ChannelBus } from './bus.js';

/** The longest a write's answer waits for its notifications to leave (a bus connection that hangs). */
export const publishBarrierTimeoutMs = 2000;

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write is answered only after what it published has left for the other server processes
 * (docs/deployment.md#what-a-2xx-promises-across-hosts). Without it, a host that dies right after
 * answering takes the notifications still queued with it: the event is stored, but the consoles
 * connected to the other hosts never see it arrive. Added per route to write routes only, so reads
 * pay nothing; on a bus that reaches one process only (SQLite) it is not added at all. Call it
 * before any route is registered.
 */
export function registerPublishBarrier(app: FastifyInstance, bus: ChannelBus): void {
  if (!bus.sent) return;
  const sent = bus.sent.bind(bus);
  const barrier: onSendHookHandler = async (_req, _reply, payload) => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      sent(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, publishBarrierTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return payload;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => writeMethods.has(m))) return;
    const existing = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
    route.onSend = [...existing, barrier];
  });
}
