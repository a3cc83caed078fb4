import { request, type APIRequestContext } from '@playwright/test';

/** Seeding data through the real API (each test makes its own records). */

export function serverUrl(): string {
  const url = process.env.BATHYLOG_E2E_URL;
  if (!url) throw new Error('BATHYLOG_E2E_URL is not set: run the tests through e2e/playwright.config.ts');
  return url;
}

export function dataDir(): string {
  const dir = process.env.BATHYLOG_E2E_DATA;
  if (!dir) throw new Error('BATHYLOG_E2E_DATA is not set: run the tests through e2e/playwright.config.ts');
  return dir;
}

export const apiPrefix = '/sealog-server/api/v1';

export interface ApiClient {
  token: string;
  userId: string;
  context: APIRequestContext;
  get: <T = unknown>(path: string) => Promise<T>;
  post: <T = unknown>(path: string, body: unknown) => Promise<T>;
  patch: (path: string, body: unknown) => Promise<void>;
  del: (path: string) => Promise<void>;
  dispose: () => Promise<void>;
}

async function check(res: Awaited<ReturnType<APIRequestContext['get']>>, what: string) {
  if (!res.ok()) throw new Error(`${what} → ${res.status()} ${await res.text()}`);
}

/** Logs in through the API and returns a client that sends the bearer token. */
export async function apiLogin(username: string, password: string, baseURL = serverUrl()): Promise<ApiClient> {
  const anon = await request.newContext({ baseURL });
  const res = await anon.post(`${apiPrefix}/auth/login`, { data: { username, password } });
  await check(res, `login ${username}`);
  const { token, id } = (await res.json()) as { token: string; id: string };
  await anon.dispose();
  const context = await request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  const url = (p: string) => `${apiPrefix}/${p.replace(/^\//, '')}`;
  return {
    token,
    userId: id,
    context,
    get: async <T>(p: string) => {
      const r = await context.get(url(p));
      await check(r, `GET ${p}`);
      return (await r.json()) as T;
    },
    post: async <T>(p: string, body: unknown) => {
      const r = await context.post(url(p), { data: body });
      await check(r, `POST ${p}`);
      const text = await r.text();
      return (text ? JSON.parse(text) : undefined) as T;
    },
    patch: async (p: string, body: unknown) => {
      const r = await context.patch(url(p), { data: body });
      await check(r, `PATCH ${p}`);
    },
    del: async (p: string) => {
      const r = await context.delete(url(p));
      await check(r, `DELETE ${p}`);
    },
    dispose: () => context.dispose(),
  };
}

let counter = 0;
/** A short unique lower-case name (usernames are at most 15 characters). */
export function uniqueName(prefix: string): string {
  counter += 1;
  const stamp =
    (Date.now() % 1_000_000).toString(36) + counter.toString(36) + Math.floor(Math.random() * 36).toString(36);
  return `${prefix}${stamp}`.toLowerCase().slice(0, 15);
}

export interface NewUser {
  username: string;
  fullname: string;
  email: string;
  password: string;
  roles: string[];
}

/** Creates a regular user through POST /users as admin; returns its id and the data used. */
export async function createUser(
  admin: ApiClient,
  overrides: Partial<NewUser> = {},
): Promise<NewUser & { id: string }> {
  const username = overrides.username ?? uniqueName('u');
  const user: NewUser = {
    username,
    fullname: overrides.fullname ?? `Test ${username}`,
    email: overrides.email ?? `${username}@example.org`,
    password: overrides.password ?? 'password1',
    roles: overrides.roles ?? ['event_watcher'],
  };
  const res = await admin.post<{ insertedId: string }>('users', user);
  return { ...user, id: res.insertedId };
}

/** Creates a lowering through POST /lowerings as admin (an empty description, no tags); returns its id. */
export async function createLowering(
  admin: ApiClient,
  lowering: { lowering_id: string; start_ts: string; stop_ts: string; lowering_location?: string },
): Promise<string> {
  const res = await admin.post<{ insertedId: string }>('lowerings', {
    lowering_location: '',
    lowering_tags: [],
    lowering_hidden: false,
    lowering_additional_meta: {},
    ...lowering,
  });
  return res.insertedId;
}
