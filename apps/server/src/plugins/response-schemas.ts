import { Transform, type Readable, pipeline } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { errorBodySchema } from '@bathylog/shared';

/**
 * Response schemas (the `response` of every route) describe the answers in the OpenAPI document
 * and are checked strictly by the test suites; they never reshape what is sent.
 *
 * fastify-type-provider-zod's serializer encodes the answer through the schema before
 * JSON.stringify: a plain `z.object` drops every key it does not declare and puts the declared
 * keys first, in the schema's order, and any mismatch turns the answer into a 500. Sealog clients
 * and scripts read free-form content (meta, event options, aux data, custom fields) and some
 * compare key order, so the answer is serialised as the handler made it. The contract holds
 * because the test app checks every JSON answer against its route's schema in strict mode
 * (`registerResponseCheck`).
 */
export function registerResponseSerializer(app: FastifyInstance): void {
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

const jsonType = 'application/json';

/** `response` entry of a route that answers no body. */
export const noContent = z.undefined().check(z.describe('No content'));

/** A non-JSON answer (a file, a stream, CSV text): only its content type and description are declared. */
const body = (what: string) => z.unknown().check(z.describe(what));

/** `response` entry of a route whose answer is a file or a text document of the given types. */
export function fileResponse(types: readonly string[], what: string) {
  return { description: what, content: Object.fromEntries(types.map((type) => [type, { schema: body(what) }])) };
}

/** `response` entry of a route answering JSON or, with `format=csv`, CSV. */
export function jsonOrCsv(schema: $ZodType, csvWhat: string) {
  return {
    description: `JSON, or ${csvWhat} as CSV with format=csv`,
    content: { [jsonType]: { schema }, 'text/csv': { schema: body(csvWhat) } },
  };
}

type ResponseEntry = $ZodType | { content: Record<string, { schema: unknown }> };

function pickEntry(
  response: Record<string, ResponseEntry> | undefined,
  status: number,
  contentType: string,
): $ZodType | null | undefined {
  if (!response) return undefined;
  const entry = response[status] ?? response[`${String(status)[0]}xx`] ?? response.default;
  if (!entry) return undefined;
  if ('_zod' in entry) return entry;
  const media = contentType.split(';')[0]!.trim();
  const schema = entry.content[media]?.schema;
  return schema ? (schema as $ZodType) : null;
}

type Def = {
  type: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  options?: $ZodType[];
  in?: $ZodType;
  valueType?: $ZodType;
  getter?: () => $ZodType;
  left?: $ZodType;
  right?: $ZodType;
  items?: $ZodType[];
  rest?: $ZodType | null;
};

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

const parses = (schema: $ZodType, value: unknown) => (schema as unknown as z.ZodMiniType).safeParse(value).success;

/** Keys a plain object schema does not declare, wherever they are (loose objects and records allow any). */
function unknownKeys(schema: $ZodType, value: unknown, path: string, out: string[]): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null) return;
      const shape = def.shape ?? {};
      for (const [key, item] of Object.entries(value)) {
        const at = `${path}.${key}`;
        const field = shape[key];
        if (field) unknownKeys(field, item, at, out);
        else if (def.catchall) unknownKeys(def.catchall, item, at, out);
        else out.push(`${at} is not in the schema`);
      }
      return;
    }
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => unknownKeys(def.element!, item, `${path}[${i}]`, out));
      return;
    case 'tuple':
      if (Array.isArray(value))
        value.forEach((item, i) => {
          const itemSchema = def.items?.[i] ?? def.rest;
          if (itemSchema) unknownKeys(itemSchema, item, `${path}[${i}]`, out);
        });
      return;
    case 'record':
      if (typeof value === 'object' && value !== null)
        for (const [key, item] of Object.entries(value)) unknownKeys(def.valueType!, item, `${path}.${key}`, out);
      return;
    case 'union': {
      const option = def.options!.find((o) => parses(o, value));
      if (option) unknownKeys(option, value, path, out);
      return;
    }
    case 'intersection':
      unknownKeys(def.left!, value, path, out);
      unknownKeys(def.right!, value, path, out);
      return;
    case 'pipe':
      unknownKeys(def.in!, value, path, out);
      return;
    case 'lazy':
      unknownKeys(def.getter!(), value, path, out);
      return;
    default:
      if (def.innerType && value !== null && value !== undefined) unknownKeys(def.innerType, value, path, out);
  }
}

/**
 * What is wrong with `value` as an answer of `schema`, in strict mode: what the schema refuses,
 * and keys a plain object does not declare (zod would drop them silently). Empty when it fits.
 */
export function strictIssues(schema: $ZodType, value: unknown): string[] {
  const result = (schema as unknown as z.ZodMiniType).safeParse(value);
  if (!result.success) {
    return result.error.issues.map((issue) => `$${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`);
  }
  const out: string[] = [];
  unknownKeys(schema, value, '$', out);
  return out;
}

/** Whether the request's route answers a JSON list (its declared 200 JSON answer is an array). */
export function answersJsonList(request: FastifyRequest): boolean {
  const declared = request.routeOptions.schema?.response as Record<string, ResponseEntry> | undefined;
  let schema = pickEntry(declared, 200, jsonType);
  for (let depth = 0; schema && depth < 8; depth++) {
    const def = defOf(schema);
    if (def.type === 'array') return true;
    schema = def.innerType ?? def.in ?? null;
  }
  return false;
}

/** What is wrong with a JSON answer of the request's route, or [] when it fits. */
function answerIssues(request: FastifyRequest, status: number, contentType: string, text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return ['the body is not JSON'];
  }
  if (status >= 400) return strictIssues(errorBodySchema as unknown as $ZodType, value);
  const declared = request.routeOptions.schema?.response as Record<string, ResponseEntry> | undefined;
  const schema = pickEntry(declared, status, contentType);
  if (!schema) return [`no response schema for ${status} ${contentType.split(';')[0]}`];
  return strictIssues(schema, value);
}

const isStream = (payload: unknown): payload is Readable =>
  typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';

/**
 * Tests only: every JSON answer (streamed ones too) is checked against its route's declared
 * response schema in strict mode; errors against the `{statusCode, error, message}` body. Each
 * mismatch is reported to `report` (the test app fails the request that caused it). Register it
 * before compression, so it reads the body as the handler sent it.
 */
export function registerResponseCheck(app: FastifyInstance, report: (violation: string) => void): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const contentType = String(reply.getHeader('content-type') ?? '');
    if (!contentType.startsWith(jsonType) || payload === null || payload === undefined) return done(null, payload);
    if (request.routeOptions.schema?.hide) return done(null, payload);
    const check = (text: string) => {
      const issues = answerIssues(request, reply.statusCode, contentType, text);
      if (issues.length > 0)
        report(`${request.method} ${request.url} answered ${reply.statusCode}: ${issues.slice(0, 5).join('; ')}`);
    };
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      check(payload.toString());
      return done(null, payload);
    }
    if (!isStream(payload)) return done(null, payload);
    const chunks: Buffer[] = [];
    const tee = new Transform({
      transform(chunk: Buffer | string, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback(null, chunk);
      },
      flush(callback) {
        check(Buffer.concat(chunks).toString('utf8'));
        callback();
      },
    });
    pipeline(payload, tee, () => {});
    return done(null, tee);
  });
}
