import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions } from 'pino';
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
      return;
    }
    const log = reply.log as pino.Logger & { [plainSym]?: unknown };
    if (log[plainSym] !== log) {
      log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    } else if (log.isLevelEnabled('info')) {
      // The line pino writes for the call above, put together directly: pino walks the object,
      // looks up a serializer for each key and escapes each value, a third of a small request's
      // logging cost. Same keys, same order, same values (test: credentials.test.ts).
      const own = log as unknown as Record<symbol, unknown>;
      (own[streamSym] as { write(line: string): void }).write(
        `{"level":${infoLevel},"time":${Date.now()}${own[chindingsSym] as string},"req":${JSON.stringify(requestLogValue(request))},` +
          `"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
      );
    }
  }
}

const { chindingsSym, streamSym } = pino.symbols;
const infoLevel = pino.levels.values.info!;

/**
 * Marks a request logger that is the server's own logger with the request's bindings and nothing
 * else: the marker names the logger itself, so a child made from it (which inherits the property)
 * is not taken for one.
 */
const plainSym = Symbol('plain request logger');

/**
 * The logger of one request (docs/performance.md#per-request): the server's logger with the
 * request's bindings (`reqId`) appended to the text its lines carry. Fastify passes options even
 * when a route sets no log level or serializers, and pino then rebuilds its formatters and checks
 * each option for every request; with none to apply, the child is only that text. Routes that do
 * set a level or serializers get pino's own child.
 */
function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  if (opts.level !== undefined || opts.serializers !== undefined) return logger.child(bindings, opts);
  const parent = logger as FastifyBaseLogger & { [chindingsSym]?: string; [plainSym]?: unknown };
  if (typeof parent[chindingsSym] !== 'string') return logger.child(bindings);
  let text = parent[chindingsSym];
  for (const key in bindings) {
    const value: unknown = bindings[key];
    if (value !== undefined) text += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  const child = Object.create(logger) as typeof parent;
  child[chindingsSym] = text;
  child[plainSym] = child;
  return child;
}

/**
 * Lines are written to stdout a few kilobytes at a time: each write is a trip through libuv's
 * thread pool (a task, a wake-up of the event loop), which cost more than formatting the line
 * itself. Lines are gathered here, in order, until `lineBatchChars` are pending or at most
 * `lineFlushMs` have passed, and handed to pino's asynchronous writer (sonic-boom) a batch at a
 * time: handed a line at a time, it measured its pending chunk's byte length on every line (a
 * copy of the chunk each time). What is pending goes to the writer whenever pino flushes it,
 * which it does when the process exits.
 */
const lineBatchChars = 8192;
const lineFlushMs = 100;

class LineBatches {
  private pending = '';

  constructor(private readonly dest: ReturnType<typeof pino.destination>) {
    setInterval(() => this.push(), lineFlushMs).unref();
    // pino flushes the writer itself on exit (flush before it, flushSync at it): the pending
    // lines go first.
    const flush = dest.flush.bind(dest);
    const flushSync = dest.flushSync.bind(dest);
    dest.flush = (cb?: (err?: Error) => unknown) => {
      this.push();
      flush(cb);
    };
    dest.flushSync = () => {
      this.push();
      flushSync();
    };
  }

  write(line: string): boolean {
    this.pending += line;
    if (this.pending.length >= lineBatchChars) this.push();
    return true;
  }

  flush(cb?: (err?: Error) => unknown): void {
    this.dest.flush(cb);
  }

  flushSync(): void {
    this.dest.flushSync();
  }

  private push(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.dest.write(text);
  }
}

/**
 * The server's logger options. No `redact` paths: the request serializer (`requestLogValue`)
 * writes no header at all, so paths into headers never matched and only cost each line a pass;
 * credentials in URLs are removed by the serializer itself. Without a stream of its own (tests
 * pass one), lines go to stdout through pino's asynchronous writer, a batch of lines at a time
 * (`LineBatches`).
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): Pick<FastifyServerOptions, 'logger' | 'logController' | 'childLoggerFactory'> {
  return {
    logger: {
      level,
      serializers: { req: requestLogValue },
      stream: stream ?? new LineBatches(pino.destination({ dest: 1, sync: false })),
    },
    logController: new OneLinePerRequest(),
    childLoggerFactory: requestLogger,
  };
}
