/**
 * Ship-to-shore benchmark (docs/ship-to-shore.md): a shore server follows a ship holding the demo
 * cruise as `npm start` loads it (dive S0492: 4,540 events, 5,381 aux records, the frame grabs of its
 * photo and sample events) over an emulated thin link: a TCP proxy at 256 kbit/s each way with 600 ms
 * round trips, the ship's cap set to the same 256 kbit/s. Measures the time until every event is on
 * shore, until every thumbnail, until every image (checked by SHA-256), the bytes that crossed the
 * link, and then how long one new event takes to arrive. Writes bench/results/ship-to-shore.json.
 * Not a test: it asserts nothing.
 *
 * Env: BENCH_KBIT (256), BENCH_RTT_MS (600).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tableCount } from '../apps/server/test/table-fixtures.js';
import { loadDemo } from '../apps/server/src/seed/demo.js';
import { startShipAndShore } from '../apps/server/test/ship-and-shore.js';
import { log, resultsDir, sleep } from './support.js';

const kbit = Number(process.env.BENCH_KBIT ?? 256);
const rttMs = Number(process.env.BENCH_RTT_MS ?? 600);

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function main(): Promise<void> {
  const both = await startShipAndShore({ proxy: { delayMs: rttMs / 2, rateBytes: (kbit * 1000) / 8 } });
  const { ship, shore, proxy, shoreAdmin, key } = both;
  try {
    log('loading the demo cruise (dive S0492) on the ship');
    const loaded = await loadDemo(ship.ctx);
    // The demo's users replace the ship's (sessions from before the load end): log in after it.
    const admin = await ship.login('admin', 'demo');
    const db = ship.ctx.database.db;
    const eventCount = await tableCount(ship, 'events');
    const auxCount = await tableCount(ship, 'event_aux_data');
    const names = new Set(readdirSync(ship.ctx.paths.images).filter((n) => n.endsWith('.jpg')));
    const imageBytes = [...names].reduce((sum, n) => sum + statSync(path.join(ship.ctx.paths.images, n)).size, 0);
    const dive = await db.selectFrom('lowerings').select(['start_ts', 'stop_ts']).executeTakeFirstOrThrow();
    const diveEvents = Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('ts', '>=', dive.start_ts)
          .where('ts', '<=', dive.stop_ts)
          .executeTakeFirstOrThrow()
      ).n,
    );
    log(
      `${eventCount} events (${loaded.events} loaded), ${auxCount} aux records, ${names.size} frame grabs (${imageBytes} bytes)`,
    );

    const started = Date.now();
    const res = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Falkor (too)', url: proxy.url, key, bandwidth_kbps: kbit },
    });
    if (res.statusCode !== 201) throw new Error(`add ship: ${res.statusCode} ${res.body}`);

    const count = (table: 'events' | 'event_aux_data') => tableCount(shore, table);
    const thumbs = path.join(shore.ctx.paths.images, '.thumbnails', '320');
    const marks: Record<string, number | null> = { events: null, aux_data: null, thumbnails: null, images: null };
    const limit = started + 45 * 60_000;
    let lastReached = '';
    while (Date.now() < limit && Object.values(marks).some((v) => v === null)) {
      const t = (Date.now() - started) / 1000;
      if (marks.events === null && (await count('events')) >= eventCount) marks.events = t;
      if (marks.aux_data === null && (await count('event_aux_data')) >= auxCount) marks.aux_data = t;
      if (marks.thumbnails === null && existsSync(thumbs) && readdirSync(thumbs).length >= names.size) {
        marks.thumbnails = t;
      }
      if (
        marks.images === null &&
        [...names].every((n) => {
          const f = path.join(shore.ctx.paths.images, n);
          return existsSync(f) && sha(f) === sha(path.join(ship.ctx.paths.images, n));
        })
      ) {
        marks.images = t;
      }
      const reached = Object.entries(marks)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => `${k} ${v}s`)
        .join(', ');
      if (reached !== lastReached) {
        lastReached = reached;
        log(`reached: ${reached}`);
      }
      await sleep(250);
    }
    const ended = Date.now();
    const bytes = proxy.bytesBetween(started, ended + 1);
    let peak = 0;
    for (let t = started; t + 2000 <= ended; t += 500) peak = Math.max(peak, proxy.bytesBetween(t, t + 2000) / 2);

    // Live: one event logged on the ship, once the shore follows.
    const before = Date.now();
    const id = (
      (await ship.api('POST', '/events', { token: admin, body: { event_value: 'LIVE' } })).json() as {
        insertedId: string;
      }
    ).insertedId;
    let liveSeconds: number | null = null;
    while (Date.now() - before < 60_000) {
      const found = await shore.ctx.database.db
        .selectFrom('events')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (found) {
        liveSeconds = (Date.now() - before) / 1000;
        break;
      }
      await sleep(50);
    }

    const result = {
      measured_at: new Date().toISOString(),
      link: { kbit_per_s: kbit, rtt_ms: rttMs, cap_kbit_per_s: kbit },
      dive: {
        events: eventCount,
        events_in_dive: diveEvents,
        aux_records: auxCount,
        frame_grabs: names.size,
        frame_grab_bytes: imageBytes,
        note: 'the demo cruise as npm start loads it: S0492 events and the cruise aux records as distributed, generated navigation for every dive event, two 640x360 frame grabs per photo and sample event',
      },
      seconds_until: marks,
      bytes_over_link: bytes,
      average_bytes_per_s: Math.round(bytes / ((ended - started) / 1000)),
      peak_2s_bytes_per_s: Math.round(peak),
      cap_bytes_per_s: (kbit * 1000) / 8,
      live_event_seconds: liveSeconds,
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'ship-to-shore.json'), `${JSON.stringify(result, null, 2)}\n`);
    log(JSON.stringify(result, null, 2));
  } finally {
    await both.close();
  }
}

await main();
