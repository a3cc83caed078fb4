import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { cruiseSchema, type User } from '@bathylog/shared';
import {
  noContent,
  registerResponseCheck,
  registerResponseSerializer,
  strictIssues,
} from '../src/plugins/response-schemas.js';
import type { RouteEntry } from '../src/plugins/route-table.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { createTestApp } from './test-app.js';

/**
 * Response schemas: every route of the route table declares its 2xx answers (JSON ones as zod
 * schemas, files and streams by content type), the OpenAPI document shows them, the serializer
 * sends what the handler made (nothing dropped or reordered), and the test app's strict check
 * fails a request whose JSON answer its schema does not describe.
 */

const t = await createTestApp('sqlite');
afterAll(() => t.close());

/** Routes a caller reaches: Fastify's HEAD copies of GET routes and hidden routes (docs UI, internals) aside. */
const apiRoutes = t.routes.filter((r) => r.method !== 'HEAD' && !r.schema?.hide && r.url.startsWith('/sealog-server'));

type Entry = { content?: Record<string, unknown> } | { _zod: unknown };
const responsesOf = (route: RouteEntry) => (route.schema?.response ?? {}) as Record<string, Entry>;

describe('the route table', () => {
  it('holds the whole API (the checks below cannot pass on an empty table)', () => {
    expect(apiRoutes.length).toBeGreaterThan(75);
  });

  it.each(apiRoutes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s declares its 2xx answers', (_name, route) => {
    const statuses = Object.keys(responsesOf(route)).filter((status) => /^2(\d\d|xx)$/.test(status));
    expect(statuses, 'no 2xx response schema').not.toEqual([]);
    for (const status of statuses) {
      const entry = responsesOf(route)[status]!;
      // A zod schema (JSON, or no body), or content types each with a schema (files, CSV, streams).
      if (!('_zod' in entry))
        expect(Object.keys(entry.content ?? {}), `${status} names no content type`).not.toEqual([]);
    }
  });
});

describe('the OpenAPI document', () => {
  let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  beforeAll(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/sealog-server/swagger.json' })).json();
  });

  it('shows the JSON answers with their fields', () => {
    const list = doc.paths['/sealog-server/api/v1/cruises']!.get!.responses['200'] as {
      content: Record<string, { schema: { items: { properties: Record<string, unknown> } } }>;
    };
    expect(Object.keys(list.content)).toEqual(['application/json', 'text/csv']);
    expect(Object.keys(list.content['application/json']!.schema.items.properties)).toEqual(
      expect.arrayContaining(['id', 'cruise_id', 'start_ts', 'cruise_additional_meta']),
    );
    const created = doc.paths['/sealog-server/api/v1/events']!.post!.responses['201'] as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    expect(Object.keys(created.content['application/json']!.schema.properties)).toEqual(
      expect.arrayContaining(['acknowledged', 'insertedId', 'insertedEvent']),
    );
  });

  it('shows file answers by content type', () => {
    const gis = doc.paths['/sealog-server/api/v1/gis_exports/bylowering/{id}']!.get!.responses['200'] as {
      content: Record<string, unknown>;
    };
    expect(Object.keys(gis.content)).toEqual(['application/geo+json', 'application/vnd.google-earth.kml+xml']);
  });
});

describe('strict check of an answer', () => {
  const record = z.object({
    id: z.string(),
    meta: z.looseObject({ name: z.optional(z.string()) }),
    tags: z.array(z.string()),
  });

  it('accepts an answer the schema describes, free-form content included', () => {
    expect(
      strictIssues(record, { id: 'a', meta: { name: 'x', vessel: 'R/V Falkor', any: { nested: 1 } }, tags: [] }),
    ).toEqual([]);
  });

  it('names keys a plain object does not declare, at any depth', () => {
    expect(strictIssues(record, { id: 'a', meta: {}, tags: [], password: 'x' })).toEqual([
      '$.password is not in the schema',
    ]);
    expect(strictIssues(z.array(record), [{ id: 'a', meta: {}, tags: [], extra: 1 }])).toEqual([
      '$[0].extra is not in the schema',
    ]);
  });

  it('names values of the wrong type and missing fields', () => {
    expect(strictIssues(record, { id: 1, meta: {}, tags: [] })).toEqual([expect.stringMatching(/^\$\.id: /)]);
    expect(strictIssues(record, { id: 'a', meta: {} })).toEqual([expect.stringMatching(/^\$\.tags: /)]);
  });
});

describe('the response check (deliberately wrong answers)', () => {
  /** A bare server with the check, answering what `answer` gives under a schema of `{id}`. */
  async function serverAnswering(answer: () => unknown) {
    const violations: string[] = [];
    const app = Fastify();
    registerResponseSerializer(app);
    registerResponseCheck(app, (v) => violations.push(v));
    app.get(
      '/thing',
      { schema: { response: { 200: z.object({ id: z.string() }), 204: noContent } } },
      (_req, reply) => {
        const body = answer();
        if (body instanceof Readable) return reply.type('application/json; charset=utf-8').send(body);
        return body === undefined ? reply.code(204).send() : body;
      },
    );
    app.get('/undeclared', async () => ({ id: 'a' }));
    await app.ready();
    return { app, violations };
  }

  it('passes a fitting answer and no body', async () => {
    for (const answer of [() => ({ id: 'a' }), () => undefined, () => Readable.from(['{"id":', '"a"}'])]) {
      const { app, violations } = await serverAnswering(answer);
      await app.inject({ method: 'GET', url: '/thing' });
      expect(violations).toEqual([]);
      await app.close();
    }
  });

  it('reports an undeclared key, a wrong type, a streamed misfit and an undeclared answer', async () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => ({ id: 'a', password_hash: 'x' }), /\$\.password_hash is not in the schema/],
      [() => ({ id: 7 }), /\$\.id: /],
      [() => Readable.from(['{"id":"a",', '"secret":1}']), /\$\.secret is not in the schema/],
    ];
    for (const [answer, expected] of cases) {
      const { app, violations } = await serverAnswering(answer);
      const res = await app.inject({ method: 'GET', url: '/thing' });
      expect(res.statusCode).toBe(200);
      expect(violations).toEqual([expect.stringMatching(expected)]);
      await app.close();
    }
    const { app, violations } = await serverAnswering(() => ({ id: 'a' }));
    await app.inject({ method: 'GET', url: '/undeclared' });
    expect(violations).toEqual([expect.stringMatching(/no response schema for 200 application\/json/)]);
    await app.close();
  });

  it('reports an error answer outside {statusCode, error, message}', async () => {
    const violations: string[] = [];
    const app = Fastify();
    registerResponseCheck(app, (v) => violations.push(v));
    app.get('/broken', (_req, reply) => reply.code(400).send({ statusCode: 400, message: 'no error field' }));
    await app.inject({ method: 'GET', url: '/broken' });
    expect(violations).toEqual([expect.stringMatching(/\$\.error: /)]);
    await app.close();
  });

  it('fails a test app request whose answer leaks a field', async () => {
    const admin = await t.login('admin', 'demo');
    const users = (await t.api('GET', '/users', { token: admin })).json() as User[];
    const spy = vi
      .spyOn(UsersService.prototype, 'get')
      .mockImplementation(async () => ({ ...users[0]!, password: 'hash' }) as User);
    try {
      await expect(t.api('GET', `/users/${users[0]!.id}`, { token: admin })).rejects.toThrow(
        /GET \/sealog-server\/api\/v1\/users\/[0-9a-f]{24} answered 200: \$\.password is not in the schema/,
      );
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the serializer', () => {
  it('sends what the handler made: undeclared keys kept, key order and value formats unchanged', async () => {
    const app = Fastify();
    registerResponseSerializer(app);
    const answer = {
      cruise_additional_meta: { cruise_name: 'x', custom_field: [1, { a: null }] },
      id: 'abc',
      start_ts: '2023-03-14T22:15:39.479Z',
      extra: 1,
    };
    app.get('/cruise', { schema: { response: { 200: cruiseSchema } } }, () => answer as never);
    const res = await app.inject({ method: 'GET', url: '/cruise' });
    expect(res.body).toBe(JSON.stringify(answer));
    await app.close();
  });
});
