import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from './database.js';
import { withSessionOptions } from './session-options.js';

describe('session options in a PostgreSQL URL', () => {
  it('adds settings after those the URL gives, and leaves a URL alone when there are none', () => {
    expect(withSessionOptions('postgres://u@db:5432/x', [])).toBe('postgres://u@db:5432/x');
    expect(withSessionOptions('postgres://u@db:5432/x', [null, false])).toBe('postgres://u@db:5432/x');
    const url = new URL(
      withSessionOptions('postgres://u:p%40ss@db:5432/x?options=-c%20statement_timeout%3D5000&sslmode=disable', [
        'search_path=s1',
        'synchronous_commit=off',
      ]),
    );
    expect(url.searchParams.get('options')).toBe(
      '-c statement_timeout=5000 -c search_path=s1 -c synchronous_commit=off',
    );
    expect(url.searchParams.get('sslmode')).toBe('disable');
    expect(url.password).toBe('p%40ss');
  });

  // A URL with options of its own once made the server drop the schema and write to `public`.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a URL with options of its own keeps the schema and those options',
    async () => {
      const base = new URL(process.env.TEST_DATABASE_URL!);
      base.searchParams.set('options', '-c statement_timeout=4321');
      const schema = `so_${process.pid}_${Date.now().toString(36)}`;
      const database = openDatabase({ url: base.toString(), schema, poolSize: 1 });
      try {
        const { rows } = await sql<{ timeout: string; path: string }>`
        select current_setting('statement_timeout') as timeout, current_setting('search_path') as path`.execute(
          database.db,
        );
        expect(rows[0]).toMatchObject({ timeout: '4321ms', path: schema });
      } finally {
        await database.close();
      }
    },
  );
});
