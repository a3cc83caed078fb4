import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { createRoleUsers } from '../../test/role-tokens.js';

// PostgreSQL cannot hold a NUL character in text, nor take one as a query parameter: such input was a
// 500 there (the fuzz suite's PostgreSQL share did not reach it). It is bad input: a 400 with a
// message, and nothing stored. SQLite stores the text as given.
describe.each(engines)('text with a NUL character on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = (await createRoleUsers(t)).tokens.admin!;
  });
  afterAll(() => t?.close());

  const eventCount = async () =>
    Number(
      (
        await t.ctx.database.db
          .selectFrom('events')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is never a 500, and a refused event leaves nothing behind', async () => {
    const before = await eventCount();
    const created = await t.api('POST', '/events', {
      token: admin,
      body: { event_value: 'A\u0000B', event_author: 'x' },
    });
    const withOption = await t.api('POST', '/events', {
      token: admin,
      body: { event_value: 'AB', event_options: [{ event_option_name: 'n\u0000', event_option_value: 'v' }] },
    });
    if (engine === 'postgres') {
      for (const res of [created, withOption]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: messages.unstorableText });
      }
      expect(await eventCount()).toBe(before);
    } else {
      expect([created.statusCode, withOption.statusCode]).toEqual([201, 201]);
      expect(await eventCount()).toBe(before + 2);
    }
    for (const url of ['/events?value=a%00b', '/event_aux_data?datasource=a%00b', '/cruises?cruise_id=a%00b']) {
      const res = await t.api('GET', url, { token: admin });
      expect(res.statusCode, url).toBeLessThan(500);
      if (res.statusCode >= 400) expect(res.json().message, url).toEqual(expect.any(String));
    }
    const login = await t.api('POST', '/auth/login', { body: { username: 'ad\u0000min', password: 'demo' } });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    expect(login.statusCode).toBeLessThan(500);
  });
});
