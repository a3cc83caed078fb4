/**
 * Live aux sources benchmark (docs/aux-live-sources.md): what a manager waits for when it asks a
 * live source for an event's values. Three figures:
 * 1. the buffer's answer with 5,000 readings held (the lookup itself);
 * 2. NMEA over UDP, from a sentence sent to the moment the source answers its value;
 * 3. 50 events a second for BENCH_SECONDS, each asked of an NMEA (UDP), an OpenRVDAS (UDP) and a
 *    two-camera HTTP snapshot source at once (the cameras a local HTTP server), while a camera that
 *    never answers is asked too and times out after 1 s: the others' times must not move.
 * Writes bench/results/aux-live-sources.json and .md. Not a test: it asserts nothing.
 *
 * Env: BENCH_SECONDS (10).
 */
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ReadingBuffer } from '../apps/server/src/aux-sources/live/buffer.js';
import { liveSources } from '../apps/server/src/aux-sources/live/index.js';
import { CachedDataServer } from '../apps/server/test/openrvdas-data-server.js';
import type { AuxSource, ReadingRequest } from '../apps/server/src/aux-sources/source.js';
import { log, resultsDir, sleep } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const quiet = { log: { warn: () => {}, info: () => {} } };

/** Nearest-rank percentiles (ms, to 0.01). */
function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, p50: r(at(0.5)), p99: r(at(0.99)), max: r(s[s.length - 1] ?? 0) };
}

const request = (at: number, keys: string[], imagesDir = os.tmpdir()): ReadingRequest => ({
  at,
  maxAgeMs: 20_000,
  keys,
  signal: AbortSignal.timeout(5000),
  imagesDir,
  eventId: '000000000000000000000000',
});

function nmea(body: string): string {
  let sum = 0;
  for (const c of body) sum ^= c.charCodeAt(0);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

async function bufferLookup() {
  const buffer = new ReadingBuffer({ maxAgeMs: 3_600_000, maxCount: 5000 });
  const t0 = Date.now() - 5000 * 200;
  for (let i = 0; i < 5000; i++)
    buffer.push({ ts: t0 + i * 200, values: { 'GGA.latitude': 23.5 + i / 1e6, 'GGA.longitude': -45 - i / 1e6 } });
  const samples: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const at = t0 + 1000 + Math.random() * 5000 * 199;
    const start = performance.now();
    buffer.answer({
      at,
      maxAgeMs: 20_000,
      keys: ['GGA.latitude', 'GGA.longitude'],
      interpolate: ['GGA.latitude', 'GGA.longitude'],
    });
    samples.push((performance.now() - start) * 1000);
  }
  return percentiles(samples); // µs
}

async function udpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function nmeaArrival(sender: ReturnType<typeof createSocket>) {
  const port = await udpPort();
  const source = liveSources.nmea!.create({ transport: 'udp', host: '127.0.0.1', port }, quiet);
  await source.start();
  await sleep(100);
  const samples: number[] = [];
  for (let i = 0; i < 500; i++) {
    const minutes = (31 + i / 10_000).toFixed(5);
    const expected = Number((23 + Number(minutes) / 60).toFixed(9));
    const start = performance.now();
    sender.send(nmea(`GPGGA,071503.00,23${minutes},N,04501.07298,W,1,09,0.9,-1.2,M,-35.1,M,,`), port, '127.0.0.1');
    for (;;) {
      const r = await source.readingAt(request(Date.now(), ['GGA.latitude']));
      if (r.kind === 'reading' && r.reading.values['GGA.latitude'] === expected) break;
      await new Promise((resolve) => setImmediate(resolve));
      if (performance.now() - start > 2000) throw new Error('sentence lost');
    }
    samples.push(performance.now() - start);
    await sleep(20); // 50 sentences a second
  }
  await source.stop();
  return percentiles(samples);
}

async function burst(sender: ReturnType<typeof createSocket>) {
  const images = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-aux-live-'));
  const frame = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(40_000, 7), 0xff, 0xd9]);
  const camera = createServer((req, res) => {
    if (req.url === '/never') return; // accepts, never answers
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(frame);
  });
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(camera.address() as AddressInfo).port}`;
  const nmeaPort = await udpPort();
  const rvdasPort = await udpPort();
  // OpenRVDAS's cached data server (websocket), as a logger's CachedDataWriter feeds it.
  const dataServer = await CachedDataServer.start(0, 100);
  const sources: Array<{ name: string; source: AuxSource; keys: string[] }> = [
    {
      name: 'nmea (UDP)',
      source: liveSources.nmea!.create({ transport: 'udp', host: '127.0.0.1', port: nmeaPort }, quiet),
      keys: ['GGA.latitude', 'GGA.longitude', 'HDT.heading'],
    },
    {
      name: 'openrvdas (UDP)',
      source: liveSources.openrvdas!.create({ host: '127.0.0.1', port: rvdasPort }, quiet),
      keys: ['gyr1.Gyr1HeadingTrue', 'seap.SeapLatitude'],
    },
    {
      name: 'openrvdas_ws (cached data server)',
      source: liveSources.openrvdas_ws!.create(
        { url: `ws://127.0.0.1:${dataServer.port}`, fields: ['S330HeadingTrue', 'S330Depth'], interval_seconds: 0.1 },
        quiet,
      ),
      keys: ['S330HeadingTrue', 'S330Depth'],
    },
    {
      name: 'http_snapshot (2 cameras)',
      source: liveSources.http_snapshot!.create(
        {
          cameras: [
            { camera: 'Main Camera', url: `${base}/main.jpg` },
            { camera: 'Down Camera', url: `${base}/down.jpg` },
          ],
          concurrency: 4,
        },
        quiet,
      ),
      keys: ['Main Camera.filename', 'Down Camera.filename'],
    },
  ];
  const hanging = liveSources.http_snapshot!.create(
    { camera: 'Silent Camera', url: `${base}/never`, timeout_seconds: 1, concurrency: 4 },
    quiet,
  );
  for (const s of sources) await s.source.start();
  // The talkers: NMEA and OpenRVDAS (UDP and the cached data server) at 10 Hz.
  const feed = setInterval(() => {
    dataServer.publish(Date.now() / 1000, { S330HeadingTrue: 11.04, S330Depth: -12.6 });
    sender.send(nmea('GPGGA,071503.00,2331.38582,N,04501.07298,W,1,09,0.9,-1.2,M,-35.1,M,,'), nmeaPort, '127.0.0.1');
    sender.send(nmea('HEHDT,11.04,T'), nmeaPort, '127.0.0.1');
    sender.send(
      JSON.stringify({
        data_id: 'gyr1',
        timestamp: Date.now() / 1000,
        fields: { Gyr1HeadingTrue: 11.04 },
      }),
      rvdasPort,
      '127.0.0.1',
    );
    sender.send(
      JSON.stringify({ data_id: 'seap', timestamp: Date.now() / 1000, fields: { SeapLatitude: 23.523097 } }),
      rvdasPort,
      '127.0.0.1',
    );
  }, 100);
  await sleep(500);
  const samples = new Map(sources.map((s) => [s.name, [] as number[]]));
  const outcomes = new Map(sources.map((s) => [s.name, {} as Record<string, number>]));
  let hangingTimeouts = 0;
  const pending: Promise<unknown>[] = [];
  const events = seconds * 50;
  for (let i = 0; i < events; i++) {
    const at = Date.now();
    for (const s of sources) {
      const start = performance.now();
      pending.push(
        s.source
          .readingAt(request(at, s.keys, images))
          .then(
            (r) => r.kind,
            () => 'error',
          )
          .then((kind) => {
            samples.get(s.name)!.push(performance.now() - start);
            const o = outcomes.get(s.name)!;
            o[kind] = (o[kind] ?? 0) + 1;
          }),
      );
    }
    if (i % 10 === 0)
      pending.push(hanging.readingAt(request(at, ['Silent Camera.filename'], images)).catch(() => hangingTimeouts++));
    await sleep(20);
  }
  await Promise.all(pending);
  clearInterval(feed);
  for (const s of sources) await s.source.stop();
  await dataServer.close();
  camera.closeAllConnections();
  await new Promise((resolve) => camera.close(resolve));
  rmSync(images, { recursive: true, force: true });
  return {
    events,
    perSource: sources.map((s) => ({
      source: s.name,
      ...percentiles(samples.get(s.name)!),
      outcomes: outcomes.get(s.name)!,
    })),
    hangingCameraTimeouts: hangingTimeouts,
  };
}

async function main() {
  const sender = createSocket('udp4');
  try {
    log('buffer lookups');
    const lookup = await bufferLookup();
    log('NMEA arrival');
    const arrival = await nmeaArrival(sender);
    log(`50 events/s for ${seconds} s`);
    const load = await burst(sender);
    const result = { date: new Date().toISOString(), bufferLookup: lookup, nmeaArrival: arrival, burst: load };
    writeFileSync(path.join(resultsDir, 'aux-live-sources.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = [
      '# Live aux sources',
      '',
      `${result.date}, one process on the loopback; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores (a shared machine: the p99s are mostly other processes' work).`,
      '',
      '| what | n | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|---|',
      `| buffer answer, 5,000 readings held, 2 interpolated keys (µs, not ms) | ${lookup.n} | ${lookup.p50} µs | ${lookup.p99} µs | ${lookup.max} µs |`,
      `| NMEA GGA sent over UDP → answered by the source | ${arrival.n} | ${arrival.p50} | ${arrival.p99} | ${arrival.max} |`,
      ...load.perSource.map(
        (s) =>
          `| 50 events/s: ${s.source} (${Object.entries(s.outcomes)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ')}) | ${s.n} | ${s.p50} | ${s.p99} | ${s.max} |`,
      ),
      '',
      `Meanwhile a camera that never answers was asked for every tenth event and timed out ${load.hangingCameraTimeouts} times after 1 s; the other sources' times include that load.`,
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'aux-live-sources.md'), md);
    log(`results in bench/results/aux-live-sources.{json,md}`);
  } finally {
    sender.close();
  }
}

await main();
