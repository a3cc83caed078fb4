import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { checkIntegrity } from '../../src/db/integrity.js';
import { engines } from '../test-app.js';
import {
  ApiClient,
  createCruiseAndLowering,
  exportLowering,
  startServerProcess,
  type ServerProcess,
} from '../server-process.js';

/**
 * Crash suite (docs/storage.md#durability-what-a-2xx-promises): several clients POST events and aux
 * data to the real server while it is killed with SIGKILL at a random moment. After every restart,
 * each record that got a 2xx is there exactly once, nothing that was never sent is, the database
 * passes its integrity check, and the lowering's export holds exactly what was acknowledged (plus,
 * at most once each, records whose answer was lost in the crash). `npm run test:soak` runs it with 20
 * cycles per engine (`npm test` leaves it out: vitest.config.ts); run on its own
 * (`BATHYLOG_SOAK=1 npx vitest run apps/server/test/soak/crash.test.ts`) it makes BATHYLOG_SOAK_CYCLES
 * (3 by default).
 */
const cycles = Number(process.env.BATHYLOG_SOAK_CYCLES ?? 3);
const clients = 4;

interface Attempt {
  marker: string;
  /** Event id once the POST got its 201. */
  eventId?: string;
  /** Aux data POST answered 2xx. */
  auxAcked?: boolean;
  auxSent?: boolean;
}

async function writer(api: ApiClient, cycle: number, n: number, attempts: Map<string, Attempt>, errors: string[]) {
  for (let i = 0; ; i++) {
    const marker = `c${cycle}-w${n}-${i}`;
    const attempt: Attempt = { marker };
    attempts.set(marker, attempt);
    let res;
    try {
      res = await api.call('POST', '/events', { event_value: 'SOAK', event_free_text: marker });
    } catch {
      return; // the server is gone
    }
    if (res.status !== 201) {
      errors.push(`POST /events ${marker}: ${res.status} ${JSON.stringify(res.body)}`);
      return;
    }
    attempt.eventId = (res.body as { insertedId: string }).insertedId;
    attempt.auxSent = true;
    try {
      res = await api.call('POST', '/event_aux_data', {
        event_id: attempt.eventId,
        data_source: `soak_${marker}`,
        data_array: [{ data_name: 'marker', data_value: marker }],
      });
    } catch {
      return;
    }
    if (res.status !== 201) {
      errors.push(`POST /event_aux_data ${marker}: ${res.status} ${JSON.stringify(res.body)}`);
      return;
    }
    attempt.auxAcked = true;
  }
}

function openForCheck(engine: 'sqlite' | 'postgres', dataDir: string, schema: string): Database {
  return engine === 'sqlite'
    ? openDatabase({ url: null, sqlitePath: path.join(dataDir, 'bathylog.sqlite') })
    : openDatabase({ url: process.env.TEST_DATABASE_URL!, schema, poolSize: 1 });
}

describe.each(engines)('crash suite on %s', (engine) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-crash-'));
  const dataDir = path.join(root, 'data');
  const schema = `crash_${process.pid}_${Date.now().toString(36)}`;
  const databaseUrl = engine === 'postgres' ? process.env.TEST_DATABASE_URL! : undefined;
  let server: ServerProcess | null = null;

  afterAll(async () => {
    await server?.kill();
    if (engine === 'postgres') {
      const admin = openDatabase({ url: databaseUrl!, poolSize: 1 });
      await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin.close();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it(
    `keeps every acknowledged event and aux data record through ${cycles} SIGKILLs`,
    async () => {
      const start = () =>
        startServerProcess({ dataDir, ...(databaseUrl ? { databaseUrl, databaseSchema: schema } : {}) });
      if (engine === 'postgres') {
        const admin = openDatabase({ url: databaseUrl!, poolSize: 1 });
        // amcheck lets the integrity check verify every index; without it the check says so.
        await sql`CREATE EXTENSION IF NOT EXISTS amcheck`.execute(admin.db).catch((err: unknown) => {
          console.warn(`amcheck unavailable, indexes are not checked: ${(err as Error).message}`);
        });
        await admin.close();
      }
      server = await start();
      let api = new ApiClient(server.url);
      await api.login();
      const { loweringId } = await createCruiseAndLowering(api, engine);
      const attempts = new Map<string, Attempt>();
      const errors: string[] = [];
      const started = Date.now();

      for (let cycle = 0; cycle < cycles; cycle++) {
        const writers = Array.from({ length: clients }, (_, n) => writer(api, cycle, n, attempts, errors));
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 1500));
        await server.kill();
        await Promise.all(writers);
        expect(errors).toEqual([]);

        const database = openForCheck(engine, dataDir, schema);
        const report = await checkIntegrity(database);
        await database.close();
        expect(report.problems, `integrity after cycle ${cycle}`).toEqual([]);

        server = await start();
        api = new ApiClient(server.url);
        await api.login();
        const exported = await exportLowering(api, loweringId);
        const byMarker = new Map<string, typeof exported>();
        for (const e of exported) byMarker.set(e.event_free_text, [...(byMarker.get(e.event_free_text) ?? []), e]);

        for (const a of attempts.values()) {
          const found = byMarker.get(a.marker) ?? [];
          if (a.eventId) {
            expect(
              found.map((e) => e.id),
              `event ${a.marker} (acknowledged)`,
            ).toEqual([a.eventId]);
          } else {
            expect(found.length, `event ${a.marker} (answer lost)`).toBeLessThanOrEqual(1);
          }
          const aux = (found[0]?.aux_data ?? []).filter((x) => x.data_source === `soak_${a.marker}`);
          if (a.auxAcked) {
            expect(
              aux.map((x) => x.data_array[0]?.data_value),
              `aux data of ${a.marker} (acknowledged)`,
            ).toEqual([a.marker]);
          } else if (!a.auxSent) {
            expect(aux, `aux data of ${a.marker} (never sent)`).toEqual([]);
          } else {
            expect(aux.length).toBeLessThanOrEqual(1);
          }
        }
        for (const marker of byMarker.keys()) expect(attempts.has(marker), `exported ${marker} was sent`).toBe(true);
      }

      const acked = [...attempts.values()].filter((a) => a.eventId).length;
      const auxAcked = [...attempts.values()].filter((a) => a.auxAcked).length;
      console.log(
        `crash suite on ${engine}: ${cycles} cycles, ${acked} events and ${auxAcked} aux data acknowledged, ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      expect(acked).toBeGreaterThan(cycles);
    },
    120_000 + cycles * 60_000,
  );
});
