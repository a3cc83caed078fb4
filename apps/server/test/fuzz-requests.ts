import fc from 'fast-check';
import { z, type ZodMiniType } from 'zod/mini';
import type { RouteEntry } from '../src/plugins/route-table.js';

/**
 * Arbitrary requests for any route of the server's route table (docs/bad-input.md). Nothing here
 * names a route: path parameters, query keys and bodies come from the route's pattern and its zod
 * schemas, so a new route is fuzzed as soon as it is registered.
 *
 * Values that must point at real records are placeholders (`$fx:cruise$`) replaced when the
 * request is sent, because the records behind them can be deleted and recreated during a run.
 */

/** Kinds of records the harness keeps alive; `$fx:<kind>$` stands for the id of one. */
export const fixtureKinds = [
  'cruise',
  'lowering',
  'event',
  'aux',
  'template',
  'user',
  'key',
  'customVar',
  'auditSeq',
] as const;
export type FixtureKind = (typeof fixtureKinds)[number];
export const fixtureRef = (kind: FixtureKind) => `$fx:${kind}$`;

/** Who sends the request. */
export const fuzzCallers = [
  'admin',
  'cruise_manager',
  'event_manager',
  'event_logger',
  'event_watcher',
  'guest',
  'device_key',
  'none',
  'garbage',
] as const;
export type FuzzCaller = (typeof fuzzCallers)[number];

export type FuzzPayload =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string | null }
  | { kind: 'text'; text: string; contentType: string | null }
  | { kind: 'bytes'; bytes: number[]; contentType: string | null }
  | { kind: 'huge'; bytes: number; contentType: string }
  | { kind: 'multipart'; boundary: string | null; parts: MultipartPart[] };

export interface MultipartPart {
  name: string;
  filename: string | null;
  content: string;
  contentType: string | null;
}

export interface FuzzRequest {
  route: string;
  method: string;
  /** Path with placeholders, already percent-encoded. */
  path: string;
  /** Raw query string (without `?`), placeholders allowed. */
  query: string;
  caller: FuzzCaller;
  tokenInQuery: boolean;
  headers: Record<string, string>;
  payload: FuzzPayload;
}

// ---- building blocks -------------------------------------------------------------------------

const controlChars = fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)) });
const unicodeText = fc.string({ unit: 'binary', maxLength: 40 });
const hugeString = fc.constantFrom(1_000, 10_000, 100_000).map((n) => 'x'.repeat(n));

const badTimestamps = fc.constantFrom(
  '2023-13-45T25:61:61Z',
  '2023-02-30T00:00:00Z',
  '0000-00-00',
  '9999999999999999999999',
  '-8640000000000001',
  '8640000000000001',
  '1e400',
  'NaN',
  'Infinity',
  'yesterday',
  '',
  ' ',
  '2023-03-03T00:00:00.000+25:00',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00.000Z',
  '2023-03-03T00:00:00',
  '2023-W10',
  '١٢٣٤',
);

const goodTimestamps = fc
  .integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) })
  .map((ms) => new Date(ms).toISOString());

const badIds = fc.constantFrom(
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  'FFFFFFFFFFFFFFFFFFFFFFFF',
  'zzzzzzzzzzzzzzzzzzzzzzzz',
  '5981f167212b348aed7fa9f',
  '5981f167212b348aed7fa9f55',
  '',
  ' ',
  'null',
  'undefined',
  'all',
  '-1',
  '0',
  '1e309',
  '{}',
  '[]',
  "' OR 1=1 --",
  '"; DROP TABLE events; --',
);

const traversal = fc.constantFrom(
  '..',
  '../..',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fsecret',
  '..%2f..%2fsecret',
  '%252e%252e%252fsecret',
  '....//....//secret',
  '.%00.',
  '%00',
  '%c0%ae%c0%ae/secret',
  '/etc/passwd',
  '//',
  '.',
  '~',
  'secret',
  'bathylog.sqlite',
  '..%5c..%5csecret',
);

/** A JSON value of the wrong kind for whatever the field wants. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, '', ' ', [], {}, [null], { $gt: '' }, { __proto: 1 }),
  fc.integer(),
  fc.double(),
  unicodeText,
  controlChars,
  hugeString,
  badTimestamps,
  badIds,
  traversal,
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 5 }),
  fc.constantFrom(10_000, 100_000).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 50, max: 400 }).map((depth) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 1 }), { maxKeys: 4 }),
);

const hexId = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });
/** A well-formed id no record has (yet). */
const freshId = hexId;
const anyFixture = fc.constantFrom(...fixtureKinds.map(fixtureRef));

// ---- values from a schema ---------------------------------------------------------------------

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  format?: string;
  additionalProperties?: JsonSchema | boolean;
};

/** The JSON Schema of a route's zod schema as callers send it, or null when it has none. */
export function inputSchemaOf(schema: unknown): JsonSchema | null {
  if (!schema || typeof (schema as ZodMiniType).safeParse !== 'function') return null;
  try {
    return z.toJSONSchema(schema as ZodMiniType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return null;
  }
}

function idKindForName(name: string): FixtureKind | null {
  const n = name.toLowerCase();
  if (n.includes('cruise')) return 'cruise';
  if (n.includes('lowering')) return 'lowering';
  if (n.includes('aux')) return 'aux';
  if (n.includes('template')) return 'template';
  if (n.includes('user') || n === 'add' || n === 'remove') return 'user';
  if (n.includes('event')) return 'event';
  return null;
}

/** A plausible string for a field, by its name. */
function stringFor(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  const n = name.toLowerCase();
  if (/(^|_)ts$|startts|stopts|_at$|date|time|expires/.test(n))
    return fc.oneof({ weight: 4, arbitrary: goodTimestamps }, { weight: 1, arbitrary: badTimestamps });
  if (n === 'id')
    return fc.oneof(
      { weight: 3, arbitrary: freshId },
      { weight: 1, arbitrary: anyFixture },
      { weight: 1, arbitrary: badIds },
    );
  if (n.endsWith('_id') || n.endsWith('id') || n === 'add' || n === 'remove') {
    const kind = idKindForName(n);
    return fc.oneof(
      { weight: 4, arbitrary: kind ? fc.constant(fixtureRef(kind)) : anyFixture },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: badIds },
    );
  }
  if (schema.format === 'email' || n.includes('email')) return fc.constantFrom('fuzz@example.org', 'not-an-email');
  return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('FISH', 'On', 'Off', 'true', 'csv', 'json'));
}

/** A value that fits the schema most of the time (so requests get past validation and deeper). */
export function valueFor(schema: JsonSchema | undefined, name: string, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.anything({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueFor(s, name, depth + 1)));
  if (schema.allOf?.length) return valueFor(schema.allOf[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = schema.properties ?? {};
      const keys = Object.keys(props);
      if (keys.length === 0)
        return fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 });
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of keys) record[key] = valueFor(props[key], key, depth + 1);
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => keys.includes(k)) });
    }
    case 'array':
      return fc.array(valueFor(schema.items, name, depth + 1), { maxLength: 3 });
    case 'string':
      return stringFor(name, schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

/** One mutation of a valid body: drop, replace or add a key (top level or one level down). */
function mutate(
  base: unknown,
  how: 'drop' | 'replace' | 'add',
  pick: number,
  value: unknown,
  nested: boolean,
): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return value;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  const keys = Object.keys(out);
  const key = keys.length ? keys[pick % keys.length]! : 'fuzz';
  if (nested && typeof out[key] === 'object' && out[key] !== null) {
    const inner = out[key];
    out[key] = Array.isArray(inner)
      ? inner.length
        ? [mutate(inner[0], how, pick, value, false), ...inner.slice(1)]
        : [value]
      : mutate(inner, how, pick, value, false);
    return out;
  }
  if (how === 'drop') delete out[key];
  else if (how === 'replace') out[key] = value;
  else out[`unknown_${pick % 7}`] = value;
  return out;
}

function bodyValues(schema: JsonSchema | null): fc.Arbitrary<unknown> {
  const valid = schema
    ? valueFor(schema, 'body')
    : fc.dictionary(fc.string({ maxLength: 8 }), wrongValue, { maxKeys: 3 });
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom('drop', 'replace', 'add') as fc.Arbitrary<'drop' | 'replace' | 'add'>,
          fc.nat(),
          wrongValue,
          fc.boolean(),
        )
        .map(([base, how, pick, value, nested]) => mutate(base, how, pick, value, nested)),
    },
    { weight: 1, arbitrary: wrongValue },
    { weight: 1, arbitrary: fc.constant({ __proto__: null, constructor: { prototype: { admin: true } } }) },
  );
}

const malformedJson = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"a":',
    '[1,2',
    'nul',
    'tru',
    "{'a':1}",
    '{"a":1,}',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '\u0000',
    '\ufeff{}',
    '"unterminated',
    '{"a":1}{"b":2}',
    '1'.repeat(400),
    '-',
    '{"ts":"\\ud800"}',
  ),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.string({ maxLength: 60 }),
);

const oddContentTypes = fc.constantFrom(
  'text/plain',
  'application/xml',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  `multipart/form-data; boundary=${'b'.repeat(300)}`,
  'multipart/form-data; boundary="unterminated',
  'text/html; charset=utf-8',
  'image/png',
  ';;;',
  'application/json, text/plain',
);

const filenames = fc.oneof(
  fc.constantFrom('notes.txt', 'photo.jpg', 'a.html', 'movie.mp4', '.hidden', 'x.sqlite', ''),
  traversal,
  unicodeText,
  controlChars,
  fc.constantFrom(300, 5000).map((n) => `${'n'.repeat(n)}.txt`),
);

const multipartPayload: fc.Arbitrary<FuzzPayload> = fc.record({
  kind: fc.constant('multipart' as const),
  boundary: fc.oneof(fc.constant('fuzzBoundary'), fc.constant(null)),
  parts: fc.array(
    fc.record({
      name: fc.oneof(fc.constantFrom('file', 'filepond', 'files', ''), unicodeText),
      filename: fc.oneof(fc.constant(null), filenames),
      content: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('{}')),
      contentType: fc.constantFrom(null, 'text/plain', 'image/jpeg', 'application/json', '../..'),
    }),
    { maxLength: 7 },
  ),
});

function payloadFor(route: RouteEntry): fc.Arbitrary<FuzzPayload> {
  const schema = inputSchemaOf(route.schema?.body);
  const json = bodyValues(schema);
  return fc.oneof(
    {
      weight: 10,
      arbitrary: json.map((value): FuzzPayload => ({ kind: 'json', value, contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: json.map((value): FuzzPayload => ({ kind: 'json', value, contentType: null })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(json, oddContentTypes)
        .map(([value, contentType]): FuzzPayload => ({ kind: 'json', value, contentType })),
    },
    {
      weight: 3,
      arbitrary: malformedJson.map((text): FuzzPayload => ({ kind: 'text', text, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 80 }), oddContentTypes)
        .map(([text, contentType]): FuzzPayload => ({ kind: 'text', text, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }), fc.constantFrom('application/json', null))
        .map(([bytes, contentType]): FuzzPayload => ({ kind: 'bytes', bytes, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=fuzzBoundary')
        .map((contentType): FuzzPayload => ({ kind: 'huge', bytes: 2 * 1024 * 1024, contentType })),
    },
    { weight: 3, arbitrary: multipartPayload },
    { weight: 1, arbitrary: fc.constant<FuzzPayload>({ kind: 'none' }) },
  );
}

// ---- path and query -------------------------------------------------------------------------

const enc = (s: string) => encodeURIComponent(s);

/** A value for a `:param`: a real record (of any kind), a bad id, traversal, unicode, huge. */
const paramValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...fixtureKinds.map(fixtureRef)) },
  { weight: 2, arbitrary: badIds.map(enc) },
  { weight: 3, arbitrary: traversal },
  { weight: 1, arbitrary: unicodeText.map(enc) },
  { weight: 1, arbitrary: controlChars.map(enc) },
  { weight: 1, arbitrary: fc.constantFrom(499, 501, 5000).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: hexId },
);

/** A value for a `*` wildcard: one to four segments of record ids, names and traversal. */
const wildcardValue: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...fixtureKinds.map(fixtureRef)),
      fc.constantFrom('fuzz.txt', 'fuzz.jpg', 'index.html', 'swagger-initializer.js'),
      traversal,
      unicodeText.map(enc),
      badIds.map(enc),
    ),
    { minLength: 0, maxLength: 4 },
  )
  .map((segments) => segments.join('/'));

function pathFor(url: string): fc.Arbitrary<string> {
  const parts = url.split('/');
  const arbs = parts.map((part) => {
    if (part.startsWith(':')) return paramValue;
    if (part === '*') return wildcardValue;
    return fc.constant(part);
  });
  return fc.tuple(...arbs).map((segments) => segments.join('/'));
}

const queryKeysAlways = [
  'token',
  'format',
  'limit',
  'offset',
  'sort',
  'startTS',
  'stopTS',
  'value',
  'author',
  'datasource',
  'freetext',
  'w',
  'hidden',
  'add',
  'remove',
];

function queryFor(route: RouteEntry): fc.Arbitrary<string> {
  const schema = inputSchemaOf(route.schema?.querystring);
  const props = schema?.properties ?? {};
  const keys = [...new Set([...Object.keys(props), ...queryKeysAlways])];
  const scalar = (key: string): fc.Arbitrary<string> =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: valueFor(props[key], key).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
      },
      { weight: 1, arbitrary: badTimestamps },
      { weight: 1, arbitrary: unicodeText },
      { weight: 1, arbitrary: controlChars },
      { weight: 1, arbitrary: traversal.map(decodeURIComponentSafe) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('', '-1', '0', '1e9', '99999999999999999999', 'true', 'True', 'csv', 'json'),
      },
      { weight: 1, arbitrary: fc.constantFrom(1_000, 10_000).map((n) => 'q'.repeat(n)) },
    );
  const pair = fc
    .oneof({ weight: 6, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) })
    .chain((key) =>
      fc.oneof(
        { weight: 4, arbitrary: scalar(key).map((v) => `${enc(key)}=${enc(v)}`) },
        // query arrays where scalars go: the key repeated, and the bracket forms other stacks use
        {
          weight: 2,
          arbitrary: fc
            .array(scalar(key), { minLength: 2, maxLength: 4 })
            .map((vs) => vs.map((v) => `${enc(key)}=${enc(v)}`).join('&')),
        },
        { weight: 1, arbitrary: scalar(key).map((v) => `${enc(key)}[]=${enc(v)}&${enc(key)}[x]=${enc(v)}`) },
        { weight: 1, arbitrary: fc.constant(enc(key)) },
      ),
    );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 6, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => pairs.join('&')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%E0%A4%A', '&&&=', '=', 'a=%ZZ', 'limit=1&limit', '%00=%00', 'a[b][c][d]=1'),
    },
  );
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const callerArb: fc.Arbitrary<FuzzCaller> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('admin' as const) },
  { weight: 6, arbitrary: fc.constantFrom(...fuzzCallers.filter((c) => c !== 'admin')) },
);

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        origin: fc.constantFrom('https://evil.example', 'null', 'http://localhost:8000'),
        'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE', 'FUZZ'),
        'accept-encoding': fc.constantFrom('br', 'gzip', 'deflate', 'identity;q=0, *;q=0', 'x-unknown'),
        accept: fc.constantFrom('text/csv', 'application/json', '*/*', 'image/*', ';;'),
        'if-none-match': fc.constantFrom('"x"', '*', 'W/"1"', ''),
        range: fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=5-1', 'bytes=x'),
        cookie: fc.constantFrom('token=abc', 'token=%E0%A4%A', 'token='),
      },
      { requiredKeys: [] },
    ),
  },
);

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Arbitrary requests to one route of the table. */
export function requestFor(route: RouteEntry): fc.Arbitrary<FuzzRequest> {
  const canHaveBody = writeMethods.has(route.method);
  return fc
    .record({
      path: pathFor(route.url === '*' ? '/*' : route.url),
      query: queryFor(route),
      caller: callerArb,
      tokenInQuery: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      headers: extraHeaders,
      payload: canHaveBody
        ? payloadFor(route)
        : fc.oneof(
            { weight: 9, arbitrary: fc.constant<FuzzPayload>({ kind: 'none' }) },
            { weight: 1, arbitrary: payloadFor(route) },
          ),
    })
    .map((r) => ({ ...r, route: `${route.method} ${route.url}`, method: route.method }));
}

/** Requests spread over every route of the table, each route equally likely. */
export function requestsForTable(routes: RouteEntry[]): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...routes.map(requestFor));
}
