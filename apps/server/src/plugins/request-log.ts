import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { requestLogValue } from '../lib/redact-url.js';

/**
 * One access line per request (docs/performance.md#per-request): Fastify writes two by default
 * ("incoming request" and "request completed"); the request is logged once, when it completes,
 * with its method, redacted URL, status and time. Errors, stream failures and the rest stay as
 * Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // The request appears in its completion line.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

/**
 * The server's logger options. No `redact` paths: the request serializer (`requestLogValue`)
 * writes no header at all, so paths into headers never matched and only cost each line a pass;
 * credentials in URLs are removed by the serializer itself. Without a stream of its own (tests
 * pass one), lines go to stdout through pino's asynchronous writer, its chunks bounded so that
 * appending a line never copies a long pending buffer.
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    logger: {
      level,
      serializers: { req: requestLogValue },
      stream: stream ?? pino.destination({ dest: 1, sync: false, maxWrite: 4096 }),
    },
    logController: new OneLinePerRequest(),
  };
}
