/**
 * Live sources through the aux-data managers (docs/aux-live-sources.md): the time from an event's
 * create to its aux records at 50 events a second, with four managers on live sources (NMEA over
 * UDP, OpenRVDAS over UDP, MQTT on a mosquitto started here, a two-camera HTTP snapshot of a local
 * camera) and a fifth whose camera never answers (it times out; the others must not wait for it).
 * One server in process (SQLite in a temporary folder), events posted through the API, records
 * seen on the bus as the websocket publishes them. Writes bench/results/aux-live-managers.json and
 * .md. Not a test: it asserts nothing.
 *
 * Env: BENCH_SECONDS (10), BENCH_RATE (50).
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connectAsync } from 'mqtt';
import { freePort } from '../apps/server/test/server-process.js';
import { createTestApp } from '../apps/server/test/test-app.js';
import { log, resultsDir, sleep } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rate = Number(process.env.BENCH_RATE ?? 50);

function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r(at(0.5)), p99: r(at(0.99)), max: r(s[s.length - 1] ?? 0) };
}

function nmea(body: string): string {
  let sum = 0;
  for (const c of body) sum ^= c.charCodeAt(0);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

async function main() {
  const mqttPort = await freePort();
  const broker = spawn('/usr/sbin/mosquitto', ['-p', String(mqttPort)], { stdio: 'ignore' });
  const frame = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(40_000, 7), 0xff, 0xd9]);
  const camera = createServer((req, res) => {
    if (req.url === '/never') return;
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(frame);
  });
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  const cam = `http://127.0.0.1:${(camera.address() as AddressInfo).port}`;
  const nmeaPort = await freePort();
  const rvdasPort = await freePort();
  const udp = createSocket('udp4');
  const t = await createTestApp('sqlite', { auxManagers: { concurrency: 8, probeSeconds: 5 } });
  try {
    const admin = await t.login('admin', 'demo');
    const managers: Array<[string, string, string]> = [
      [
        'nmea',
        'nav',
        `data_source: nav\naux_record_lookup:\n  GGA.latitude: { name: latitude, uom: ddeg, round: 6 }\n  HDT.heading: { name: heading, uom: deg }\nsource: { transport: udp, host: 127.0.0.1, port: ${nmeaPort} }\n`,
      ],
      [
        'openrvdas',
        'gyro',
        `data_source: gyro\naux_record_lookup:\n  gyr1.Gyr1HeadingTrue: { name: heading, uom: deg }\nsource: { host: 127.0.0.1, port: ${rvdasPort} }\n`,
      ],
      [
        'mqtt',
        'ctd',
        `data_source: ctd\naux_record_lookup:\n  rov/ctd.temp: { name: temperature, uom: degC }\nsource: { url: 'mqtt://127.0.0.1:${mqttPort}', topics: [rov/ctd] }\n`,
      ],
      [
        'http_snapshot',
        'framegrabber',
        `data_source: framegrabber\naux_record_lookup:\n  Main.camera_name: { name: camera_name }\n  Main.filename: { name: filename }\n  Down.camera_name: { name: camera_name }\n  Down.filename: { name: filename }\nsource: { cameras: [{ camera: Main, url: '${cam}/main.jpg' }, { camera: Down, url: '${cam}/down.jpg' }], concurrency: 8 }\n`,
      ],
    ];
    const silent = `data_source: silentcam\naux_record_lookup:\n  Silent.filename: { name: filename }\nsource: { camera: Silent, url: '${cam}/never', timeout_seconds: 1, concurrency: 8 }\n`;
    for (const [kind, name, yaml] of [...managers, ['http_snapshot', 'silentcam', silent] as const]) {
      const res = await t.api('POST', '/aux_managers', {
        token: admin,
        body: { name, kind, max_age_seconds: 20, timeout_seconds: 2, config_yaml: yaml },
      });
      if (res.statusCode !== 201) throw new Error(`manager ${name}: ${res.body}`);
    }
    const publisher = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`);
    const feed = setInterval(() => {
      udp.send(nmea('GPGGA,071509.00,2331.35816,N,04500.73812,W,1,09,0.9,-1.2,M,-35.1,M,,'), nmeaPort, '127.0.0.1');
      udp.send(nmea('HEHDT,10.59,T'), nmeaPort, '127.0.0.1');
      udp.send(
        JSON.stringify({ data_id: 'gyr1', timestamp: Date.now() / 1000, fields: { Gyr1HeadingTrue: 10.59 } }),
        rvdasPort,
        '127.0.0.1',
      );
      void publisher.publishAsync('rov/ctd', JSON.stringify({ temp: 4.5678 }));
    }, 100);
    await sleep(2000);

    const posted = new Map<string, number>();
    const seen = new Map<string, Map<string, number>>();
    const heard = (payload: { event_id?: string; data_source?: string }) => {
      if (!payload.event_id || !payload.data_source) return;
      const at = performance.now();
      const bySource = seen.get(payload.event_id) ?? new Map<string, number>();
      if (!bySource.has(payload.data_source)) bySource.set(payload.data_source, at);
      seen.set(payload.event_id, bySource);
    };
    const stops = [t.ctx.bus.subscribe('newEventAuxData', heard), t.ctx.bus.subscribe('updateEventAuxData', heard)];
    const unsubscribe = () => stops.forEach((stop) => stop());
    const events = seconds * rate;
    log(`${events} events at ${rate}/s`);
    const posts: Promise<void>[] = [];
    for (let i = 0; i < events; i++) {
      const start = performance.now();
      posts.push(
        t
          .api('POST', '/events', { token: admin, body: { event_value: 'ASNAP', publish: true } })
          .then((res) => void posted.set((res.json() as { insertedId: string }).insertedId, start)),
      );
      await sleep(1000 / rate);
    }
    await Promise.all(posts);
    const deadline = Date.now() + 15_000;
    const sources = managers.map(([, name]) => name);
    while (Date.now() < deadline) {
      const done = [...posted.keys()].every((id) => sources.every((s) => seen.get(id)?.has(s)));
      if (done) break;
      await sleep(100);
    }
    unsubscribe();
    clearInterval(feed);
    await publisher.endAsync(true);
    const perSource = sources.map((s) => {
      const samples = [...posted].flatMap(([id, start]) => {
        const at = seen.get(id)?.get(s);
        return at === undefined ? [] : [at - start];
      });
      return { source: s, missing: posted.size - samples.length, ...percentiles(samples) };
    });
    const all = [...posted].flatMap(([id, start]) => {
      const bySource = seen.get(id);
      if (!bySource || !sources.every((s) => bySource.has(s))) return [];
      return [Math.max(...sources.map((s) => bySource.get(s)!)) - start];
    });
    const silentWrites = [...seen.values()].filter((m) => m.has('silentcam')).length;
    const result = {
      date: new Date().toISOString(),
      events: posted.size,
      rate,
      perSource,
      allFour: { missing: posted.size - all.length, ...percentiles(all) },
      silentCameraRecords: silentWrites,
      load: os.loadavg()[0],
    };
    writeFileSync(path.join(resultsDir, 'aux-live-managers.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = [
      '# Live sources through the aux-data managers',
      '',
      `${result.date}: ${result.events} events at ${rate}/s posted through the API of one in-process server (SQLite), four managers on live sources and a fifth whose camera never answers (1 s time-out); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores (a shared machine).`,
      '',
      '| event → its record | missing | p50 ms | p99 ms | max ms |',
      '|---|---|---|---|---|',
      ...perSource.map((s) => `| ${s.source} | ${s.missing} | ${s.p50} | ${s.p99} | ${s.max} |`),
      `| all four records | ${result.allFour.missing} | ${result.allFour.p50} | ${result.allFour.p99} | ${result.allFour.max} |`,
      '',
      `The silent camera's manager wrote ${silentWrites} records (every grab timed out).`,
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'aux-live-managers.md'), md);
    log(
      `all four: p50 ${result.allFour.p50} ms, p99 ${result.allFour.p99} ms; bench/results/aux-live-managers.{json,md}`,
    );
  } finally {
    await t.close();
    udp.close();
    camera.closeAllConnections();
    camera.close();
    broker.kill('SIGTERM');
  }
}

await main();
