import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, engines, openTestDatabase, type TestApp } from '../../../test/test-app.js';

const health = '/sealog-server/api/v1/health';

/** The balancers' health check (docs/deployment.md#health-checks). */
describe.each(engines)('health check on %s', (engine) => {
  let t: TestApp;
  let broken: TestApp;
  let closeBroken: () => Promise<void>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    // A server whose database went away after it started: its connections are closed under it.
    const { database, drop } = await openTestDatabase(engine);
    broken = await createTestApp(engine, {}, database);
    await database.close();
    closeBroken = async () => {
      await broken.close().catch(() => undefined);
      await drop().catch(() => undefined);
    };
  });
  afterAll(async () => {
    await t?.close();
    await closeBroken?.();
  });

  it('answers 200 to anyone while the process and its database answer, never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: health });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database does not answer, naming nothing about it', async () => {
    const res = await broken.app.inject({ method: 'GET', url: health });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The database does not answer',
    });
    // No driver message, address, user or schema in the answer.
    expect(res.body).not.toMatch(/postgres|sqlite|127\.0\.0\.1|closed|pool|schema/i);
  });
});
