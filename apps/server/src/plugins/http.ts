import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { emptyListHeader, messages, statusPhrase } from '@bathylog/shared';
import { AppError, ValidationError, diskFullError, unstorableTextError } from '../lib/app-error.js';
import type { ZodMiniType } from 'zod/mini';
import { formatZodError } from '@bathylog/shared';
import { answersJsonList } from './response-schemas.js';

/** How long a refused request's body is read before the connection is closed instead. */
const drainTimeoutMs = 15_000;

/**
 * Reads and discards what is left of a refused request's body, up to `limit` bytes and a time
 * bound; true when all of it arrived (the connection can then answer and stay open). A body that
 * some reader is already consuming, or that says it is larger than the limit, is not read.
 */
export function drainBody(raw: IncomingMessage, limit: number, timeoutMs = drainTimeoutMs): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  const declared = Number(raw.headers['content-length']);
  if (raw.readableFlowing === true || raw.destroyed || (Number.isFinite(declared) && declared > limit)) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (complete: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('error', onFail).off('close', onClose);
      if (!complete) raw.pause();
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish(false);
    };
    const onEnd = () => finish(true);
    const onFail = () => finish(false);
    const onClose = () => finish(raw.complete || raw.readableEnded);
    const timer = setTimeout(onFail, timeoutMs);
    raw.on('data', onData).once('end', onEnd).once('error', onFail).once('close', onClose);
    raw.resume();
  });
}

/**
 * Wire conventions of Sealog (docs/wire.md#transport-and-url-layout): a body without Content-Type is JSON, form bodies
 * parse, malformed JSON is a 400 with Sealog's text, every error is `{statusCode, error, message}`,
 * and nothing unexpected leaks (a plain 500). A refused request's body is read first, up to
 * `drainLimit` (what one upload may carry; see `drainBody`).
 */
export function registerHttpConventions(app: FastifyInstance, opts: { bodyLimit: number; drainLimit: number }): void {
  // Hooks on every request take a callback, not a promise (each async hook costs a
  // promise and a microtask per request).
  app.addHook('onRequest', (request, _reply, done) => {
    const headers = request.headers;
    if (
      !headers['content-type'] &&
      (headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0)
    ) {
      headers['content-type'] = 'application/json';
    }
    done();
  });

  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: opts.bodyLimit }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new AppError('BAD_REQUEST', 'Invalid request payload JSON format'), undefined);
    }
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: opts.bodyLimit },
    (_req, body, done) => done(null, { ...parseQueryString(typeof body === 'string' ? body : body.toString('utf8')) }),
  );
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: opts.bodyLimit }, (_req, body, done) =>
    done(null, body),
  );

  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zodSchema = schema as unknown as ZodMiniType;
    const validate = (data: unknown) => {
      const result = zodSchema.safeParse(data);
      return result.success ? { value: result.data } : { error: new ValidationError(formatZodError(result.error)) };
    };
    // Most reads carry no query string: when the schema turns an empty query into an empty object
    // (no defaults), an empty query is answered so without parsing (docs/performance.md#per-request).
    if (httpPart !== 'querystring' || !yieldsEmptyObject(zodSchema)) return validate;
    return (data: unknown) => (isEmptyObject(data) ? { value: {} } : validate(data));
  });

  app.setErrorHandler(async (error: FastifyError | AppError | ValidationError, request, reply) => {
    // Refused before its body was read (an upload without a token or the right): read the rest
    // first, so that a client that sends its whole body before reading (most do) sees this answer
    // rather than a reset connection. A body too large or too slow for that is not read: then the
    // client must not reuse the connection, whose remaining bytes would be read as its next request.
    if (!(await drainBody(request.raw, opts.drainLimit))) reply.header('connection', 'close');
    if (error instanceof AppError) {
      if (isEmptyListForOurClient(error, request)) {
        return reply.code(200).header('vary', emptyListHeader).type('application/json').send('[]');
      }
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (error instanceof ValidationError) return sendError(reply, 400, error.message);
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, 415, 'Unsupported Media Type');
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(reply, 413, 'Payload content length greater than maximum allowed');
    if (fe.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return sendError(reply, 400, 'Invalid content length');
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(reply, fe.statusCode, fe.message || statusPhrase(fe.statusCode));
    }
    const full = diskFullError(error);
    if (full) {
      request.log.error({ err: error }, 'disk full: write refused');
      return reply.code(full.statusCode).send(full.toBody());
    }
    const badText = unstorableTextError(error);
    if (badText) return reply.code(badText.statusCode).send(badText.toBody());
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, messages.internal);
  });
}

/** Whether an object has no own enumerable keys (a parsed empty query string). */
function isEmptyObject(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  for (const key in data) if (Object.hasOwn(data, key)) return false;
  return true;
}

/** Whether the schema accepts `{}` and answers an empty object for it (no defaults to fill in). */
function yieldsEmptyObject(schema: ZodMiniType): boolean {
  const first = schema.safeParse({});
  const second = schema.safeParse({});
  const plainEmpty = (value: unknown) => isEmptyObject(value) && Object.getPrototypeOf(value) === Object.prototype;
  return first.success && second.success && plainEmpty(first.data) && plainEmpty(second.data);
}

/**
 * An empty list read by a client that asked for `200 []` (docs/wire.md#empty-lists): a GET of a
 * route that answers a JSON list, with the header, and no CSV format. Everyone else keeps Sealog's 404.
 */
function isEmptyListForOurClient(error: AppError, request: FastifyRequest): boolean {
  if (error.statusCode !== 404 || error.message !== messages.noRecords) return false;
  if (request.method !== 'GET' || request.headers[emptyListHeader] !== '200') return false;
  if ((request.query as Record<string, unknown> | undefined)?.format === 'csv') return false;
  return answersJsonList(request);
}

export function sendError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ statusCode: status, error: statusPhrase(status), message });
}

/** Sealog's 404s: its own text under /sealog-server, a plain one elsewhere. */
export function notFoundBody(request: FastifyRequest) {
  const misc = request.url.startsWith('/sealog-server') && !request.url.startsWith('/sealog-server/api/');
  return { statusCode: 404, error: 'Not Found', message: misc ? messages.notFoundPage : 'Not Found' };
}
