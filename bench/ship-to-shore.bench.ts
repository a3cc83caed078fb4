/**
 * Ship-to-shore benchmark (docs/ship-to-shore.md): a shore server follows a ship holding the demo
 * dive S0492 (4,540 events, their navigation and frame-grab aux records, one JPEG per frame-grab
 * file they name) over an emulated thin link: a TCP proxy at 256 kbit/s each way with 600 ms
 * round trips, the ship's cap set to the same 256 kbit/s. Measures the time until every event is on
 * shore, until every thumbnail, until every image (checked by SHA-256), the bytes that crossed the
 * link, and then how long one new event takes to arrive. Writes bench/results/ship-to-shore.json.
 * Not a test: it asserts nothing.
 *
 * Env: BENCH_KBIT (256), BENCH_RTT_MS (600), BENCH_IMAGE_WIDTH (640).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApp } from '../apps/server/test/test-app.js';
import { loadDemoLowering } from '../apps/server/test/table-fixtures.js';
import { TcpProxy } from '../apps/server/test/tcp-proxy.js';
import { log, resultsDir, sleep } from './support.js';

const kbit = Number(process.env.BENCH_KBIT ?? 256);
const rttMs = Number(process.env.BENCH_RTT_MS ?? 600);
const imageWidth = Number(process.env.BENCH_IMAGE_WIDTH ?? 640);

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function frameGrab(n: number): Promise<Buffer> {
  const width = imageWidth;
  const height = Math.round((width * 9) / 16);
  const raw = Buffer.alloc(width * height * 3);
  let seed = n * 2654435761;
  for (let i = 0; i < raw.length; i += 3) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    const noise = seed >>> 27;
    raw[i] = (x + n * 7 + noise) & 0xff;
    raw[i + 1] = (y * 2 + noise) & 0xff;
    raw[i + 2] = (90 + ((x * y) >> 8) + noise) & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function main(): Promise<void> {
  const ship = await createTestApp('sqlite', { sync: { pollIntervalMs: 2000 } });
  const shore = await createTestApp('sqlite', { sync: { pollIntervalMs: 2000 } });
  await ship.app.listen({ port: 0, host: '127.0.0.1' });
  const proxy = new TcpProxy((ship.app.server.address() as { port: number }).port, {
    delayMs: rttMs / 2,
    rateBytes: (kbit * 1000) / 8,
  });
  await proxy.listen();
  try {
    log('loading S0492 on the ship');
    const dive = await loadDemoLowering(ship.ctx.database.db);
    const names = new Set<string>();
    const auxRows = await ship.ctx.database.db
      .selectFrom('event_aux_data')
      .select('data_array')
      .where('data_source', '=', 'framegrabber')
      .execute();
    for (const row of auxRows) {
      for (const item of JSON.parse(row.data_array) as Array<{ data_value: string }>) {
        if (item.data_value.endsWith('.jpg')) names.add(path.basename(item.data_value));
      }
    }
    let imageBytes = 0;
    let i = 0;
    for (const name of names) {
      const jpeg = await frameGrab(i++);
      imageBytes += jpeg.length;
      writeFileSync(path.join(ship.ctx.paths.images, name), jpeg);
    }
    const auxCount = dive.auxCount;
    log(`${dive.events.length} events, ${auxCount} aux records, ${names.size} frame grabs (${imageBytes} bytes)`);

    const admin = await ship.login('admin', 'demo');
    const { key } = (
      await ship.api('POST', '/device_keys', { token: admin, body: { name: 'shore', roles: ['event_watcher'] } })
    ).json() as { key: string };
    const shoreAdmin = await shore.login('admin', 'demo');
    const started = Date.now();
    const res = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Falkor (too)', url: proxy.url, key, bandwidth_kbps: kbit },
    });
    if (res.statusCode !== 201) throw new Error(`add ship: ${res.statusCode} ${res.body}`);

    const count = async (table: 'events' | 'event_aux_data') =>
      Number(
        (
          await shore.ctx.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const thumbs = path.join(shore.ctx.paths.images, '.thumbnails', '320');
    const marks: Record<string, number | null> = { events: null, aux_data: null, thumbnails: null, images: null };
    const limit = started + 30 * 60_000;
    let lastReached = '';
    while (Date.now() < limit && Object.values(marks).some((v) => v === null)) {
      const t = (Date.now() - started) / 1000;
      if (marks.events === null && (await count('events')) >= dive.events.length) marks.events = t;
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
        events: dive.events.length,
        aux_records: auxCount,
        frame_grabs: names.size,
        frame_grab_bytes: imageBytes,
        image_width: imageWidth,
        note: 'S0492 events as distributed; navigation aux records are synthetic (one per event) plus the frame-grab records of SAMPLE and FRAMEGRAB events',
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
    await shore.close();
    await proxy.close();
    await ship.close();
  }
}

await main();
