import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { createCruiseSchema, createLoweringSchema } from '@bathylog/shared';
import type { TestApp } from './test-app.js';

/**
 * Records made through the API for the cruise, lowering, user and file tests: request bodies
 * shaped like the demo cruise FKt230303 and its dive S0492, typed by the shared schemas (a new
 * field in a schema shows here and in the tests that build on these), plus multipart bodies for
 * upload tests. Rows written straight into tables are in table-fixtures.ts.
 */

/** A POST /cruises body as a client sends it. */
export type CruiseBody = z.input<typeof createCruiseSchema>;
/** A POST /lowerings body as a client sends it. */
export type LoweringBody = z.input<typeof createLoweringSchema>;
/** A body with some fields replaced, wrong ones included (validation tests send those). */
type Overridden<Body, O> = Omit<Body, keyof O> & O;

export const day = 24 * 60 * 60 * 1000;

/** A POST /cruises body; times are ISO strings. */
export function makeCruise<O extends Record<string, unknown> = Record<never, never>>(
  overrides: O = {} as O,
): Overridden<CruiseBody, O> {
  const body: CruiseBody = {
    cruise_id: 'FKt230303',
    start_ts: '2023-03-03T00:00:00.000Z',
    stop_ts: '2023-04-11T23:59:59.000Z',
    cruise_location: 'Lost City, Mid-Atlantic Ridge',
    cruise_tags: [],
    cruise_hidden: false,
    cruise_additional_meta: {
      cruise_name: 'In Search of Hydrothermal Lost Cities',
      cruise_vessel: 'R/V Falkor (too)',
      cruise_pi: 'Dr. David Butterfield',
      cruise_departure_location: 'San Juan, PR',
      cruise_arrival_location: 'San Juan, PR',
      cruise_description:
        'On its inaugural expedition, Falkor (too) will head to the Mid-Atlantic Ridge.\n\nIn 2000, scientists found Lost City.',
      cruise_participants: ['D. Butterfield', 'S. Walker'],
    },
  };
  return { ...body, ...overrides };
}

/** A POST /lowerings body inside the default cruise. */
export function makeLowering<O extends Record<string, unknown> = Record<never, never>>(
  overrides: O = {} as O,
): Overridden<LoweringBody, O> {
  const body: LoweringBody = {
    lowering_id: 'S0492',
    start_ts: '2023-03-14T22:15:39.479Z',
    stop_ts: '2023-03-15T08:32:32.654Z',
    lowering_location: 'Kane FZ',
    lowering_tags: [],
    lowering_hidden: false,
    lowering_additional_meta: {
      lowering_description: 'Launch target location\n\nMain dive objectives:\n1. Geological transect',
      milestones: {
        lowering_descending: '2023-03-14T22:29:58.755Z',
        lowering_on_bottom: '2023-03-14T23:45:16.031Z',
        lowering_off_bottom: '2023-03-15T01:39:44.340Z',
        lowering_on_surface: '2023-03-15T08:11:12.549Z',
        lowering_aborted: null,
      },
      stats: { max_depth: 2011.54, bounding_box: [23.551409, -45.133938, 23.547893, -45.150482] },
    },
  };
  return { ...body, ...overrides };
}

async function create(t: TestApp, token: string, path: string, body: object): Promise<string> {
  const res = await t.api('POST', path, { token, body });
  if (res.statusCode !== 201) throw new Error(`POST ${path}: ${res.statusCode} ${res.body}`);
  return (res.json() as { insertedId: string }).insertedId;
}

export function createCruise(t: TestApp, token: string, overrides: Record<string, unknown> = {}): Promise<string> {
  return create(t, token, '/cruises', makeCruise(overrides));
}

export function createLowering(t: TestApp, token: string, overrides: Record<string, unknown> = {}): Promise<string> {
  return create(t, token, '/lowerings', makeLowering(overrides));
}

/** Creates a user with the given roles and logs them in. */
export async function createUser(
  t: TestApp,
  adminToken: string,
  username: string,
  roles: string[],
): Promise<{ id: string; token: string }> {
  const res = await t.api('POST', '/users', {
    token: adminToken,
    body: { username, fullname: username, email: `${username}@example.org`, password: 'secret-pw', roles },
  });
  if (res.statusCode !== 201) throw new Error(`creating ${username}: ${res.statusCode} ${res.body}`);
  return { id: (res.json() as { insertedId: string }).insertedId, token: await t.login(username, 'secret-pw') };
}

export interface MultipartPart {
  name: string;
  /** A file part when set; a plain field otherwise. */
  filename?: string;
  contentType?: string;
  data: string | Buffer;
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: MultipartPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----bathylog${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type =
      part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data) : part.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** FilePond's process body: a metadata field, then the file, both named `filepond`. */
export function filepondBody(
  filename: string,
  data: string | Buffer,
): { payload: Buffer; headers: Record<string, string> } {
  return multipart([
    { name: 'filepond', data: '{}' },
    { name: 'filepond', filename, contentType: 'text/plain', data },
  ]);
}
