/**
 * Built-in aux-data managers (docs/aux-managers.md#measured) against a real influxd (Debian's, in a temporary
 * folder), with the server in process on SQLite in memory, through the real routes (app.inject):
 *
 * - latency: events logged at 50 per second (POST /events, live) with four InfluxDB managers on four
 *   measurements; from the start of each event's POST to each of its aux records on the bus
 *   (newEventAuxData), per record and per event (its fourth record): p50, p99, max;
 * - backfill: a 5,000-event lowering logged while the managers were off, dry run then run, through the four
 *   managers: events and records per second.
 *
 * Writes bench/results/aux-managers.json and .md. Asserts nothing.
 * Env: BENCH_SECONDS (10 seconds of events), BENCH_BACKFILL_EVENTS (5000).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newObjectId, type WsAuxData } from '@bathylog/shared';
import { createTestApp } from '../apps/server/test/test-app.js';
import { insertEvents, insertLowering } from '../apps/server/test/table-fixtures.js';
import { Influxd } from '../apps/server/test/influxd.js';
import { log, resultsDir, sleep } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const backfillEvents = Number(process.env.BENCH_BACKFILL_EVENTS ?? 5000);
const rate = 50;
const measurements = ['nav', 'ctd', 'gyro', 'paro'] as const;

function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r(at(0.5)), p99: r(at(0.99)), max: r(s[s.length - 1] ?? 0) };
}

/** One point per second per measurement over [from, to]. */
async function writeSeries(influx: Influxd, from: number, to: number): Promise<void> {
  let lines: string[] = [];
  for (let ts = from; ts <= to; ts += 1000) {
    lines.push(`nav lat=${(12 + ts / 1e12).toFixed(6)},lon=-45.1,depth=${1500 + (ts % 100)} ${ts}`);
    lines.push(`ctd temp=4.5,cond=3.2,sal=34.5 ${ts}`);
    lines.push(`gyro heading=${ts % 360},pitch=1.2,roll=0.4 ${ts}`);
    lines.push(`paro depth=${1500 + (ts % 50)} ${ts}`);
    if (lines.length >= 8000) {
      await influx.write('openrvdas', lines);
      lines = [];
    }
  }
  if (lines.length) await influx.write('openrvdas', lines);
}

const yaml = (m: string, fields: string[], url: string) =>
  [
    `data_source: bench_${m}`,
    `query_measurements: [${m}]`,
    'aux_record_lookup:',
    ...fields.map((f) => `  ${f}: {name: ${f}, round: 3}`),
    'source:',
    `  url: ${url}`,
    '  database: openrvdas',
    '',
  ].join('\n');

async function main() {
  const bin = ['/usr/bin/influxd', '/usr/sbin/influxd'].find((p) => existsSync(p));
  if (!bin) throw new Error('influxd is missing (apt-get install influxdb)');
  const influx = await Influxd.create(bin);
  const t = await createTestApp('sqlite', { auxManagers: { probeSeconds: 0, concurrency: 4 } });
  try {
    await influx.query('CREATE DATABASE openrvdas');
    const now = Date.now();
    await writeSeries(influx, now - 60_000, now + (seconds + 60) * 1000);
    const T0 = Date.parse('2023-03-14T22:00:00.000Z');
    await writeSeries(influx, T0 - 60_000, T0 + backfillEvents * 1000 + 60_000);
    const token = await t.login('admin', 'demo');
    const fields: Record<string, string[]> = {
      nav: ['lat', 'lon', 'depth'],
      ctd: ['temp', 'cond', 'sal'],
      gyro: ['heading', 'pitch', 'roll'],
      paro: ['depth'],
    };
    for (const m of measurements) {
      const res = await t.api('POST', '/aux_managers', {
        token,
        body: { name: m, kind: 'influx', config_yaml: yaml(m, fields[m]!, influx.url) },
      });
      if (res.statusCode !== 201) throw new Error(res.body);
    }
    await sleep(500); // the runner takes the new managers up

    // Latency at 50 events/s.
    const posted = new Map<string, number>();
    const arrivals = new Map<string, number[]>();
    t.ctx.bus.subscribe('newEventAuxData', (a: WsAuxData) => {
      const list = arrivals.get(a.event_id) ?? [];
      list.push(performance.now());
      arrivals.set(a.event_id, list);
    });
    const total = seconds * rate;
    const started = performance.now();
    const posts: Array<Promise<unknown>> = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const id = newObjectId();
      posted.set(id, performance.now());
      posts.push(t.api('POST', '/events', { token, body: { id, event_value: 'ASNAP', publish: true } }));
    }
    await Promise.all(posts);
    const deadline = Date.now() + 60_000;
    while (
      [...posted.keys()].some((id) => (arrivals.get(id)?.length ?? 0) < measurements.length) &&
      Date.now() < deadline
    )
      await sleep(100);
    const perRecord: number[] = [];
    const perEvent: number[] = [];
    let complete = 0;
    for (const [id, at] of posted) {
      const got = arrivals.get(id) ?? [];
      for (const a of got) perRecord.push(a - at);
      if (got.length >= measurements.length) {
        complete++;
        perEvent.push(Math.max(...got) - at);
      }
    }
    const latency = { events: total, complete, perRecord: percentiles(perRecord), perEvent: percentiles(perEvent) };
    log(
      `latency per record p50 ${latency.perRecord.p50} ms p99 ${latency.perRecord.p99} ms; per event p50 ${latency.perEvent.p50} ms p99 ${latency.perEvent.p99} ms (${complete}/${total} complete)`,
    );

    // Backfill of a 5,000-event lowering.
    const lowering = await insertLowering(t.ctx.database.db, {
      lowering_id: 'BENCH',
      start_ts: new Date(T0).toISOString(),
      stop_ts: new Date(T0 + backfillEvents * 1000).toISOString(),
    });
    for (let i = 0; i < backfillEvents; i += 1000)
      await insertEvents(
        t.ctx.database.db,
        Array.from({ length: Math.min(1000, backfillEvents - i) }, (_, k) => ({
          ts: new Date(T0 + (i + k) * 1000 + 500).toISOString(),
          event_value: 'ASNAP',
        })),
      );
    const timed = async (dry: boolean) => {
      const s = performance.now();
      const res = await t.api('POST', '/aux_managers/backfill', {
        token,
        body: { lowering_id: lowering, dry_run: dry },
      });
      const ms = performance.now() - s;
      if (res.statusCode !== 200) throw new Error(res.body);
      const body = res.json() as { events: number; totals: Record<string, number> };
      return {
        ms: Math.round(ms),
        events: body.events,
        totals: body.totals,
        eventsPerSecond: Math.round((body.events / ms) * 1000),
      };
    };
    const dry = await timed(true);
    log(`backfill dry run: ${dry.events} events in ${dry.ms} ms (${dry.eventsPerSecond} events/s)`);
    const run = await timed(false);
    const records = run.totals.written ?? 0;
    log(`backfill run: ${run.events} events, ${records} records in ${run.ms} ms (${run.eventsPerSecond} events/s)`);
    const again = await timed(false);
    log(`backfill again: ${JSON.stringify(again.totals)} in ${again.ms} ms`);

    const result = {
      machine: `2 cores shared with other work (load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}); SQLite in memory; influxd 1.6 local`,
      latency: { rate, managers: measurements.length, ...latency },
      backfill: {
        events: backfillEvents,
        managers: measurements.length,
        dry,
        run,
        recordsPerSecond: Math.round((records / run.ms) * 1000),
        again,
      },
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'aux-managers.json'), JSON.stringify(result, null, 2));
    writeFileSync(
      path.join(resultsDir, 'aux-managers.md'),
      [
        `# Aux-data managers (influxd 1.6 local, SQLite in memory, 2 shared cores)`,
        '',
        `Machine: ${result.machine}.`,
        '',
        `## Event to aux record at ${rate} events/s, ${measurements.length} InfluxDB managers, ${total} events`,
        '',
        '| | n | p50 ms | p99 ms | max ms |',
        '|---|---|---|---|---|',
        `| each record | ${latency.perRecord.n} | ${latency.perRecord.p50} | ${latency.perRecord.p99} | ${latency.perRecord.max} |`,
        `| all ${measurements.length} records of an event | ${latency.perEvent.n} | ${latency.perEvent.p50} | ${latency.perEvent.p99} | ${latency.perEvent.max} |`,
        '',
        `Events with all their records: ${complete}/${total}.`,
        '',
        `## Backfill of a ${backfillEvents}-event lowering, ${measurements.length} managers`,
        '',
        '| | ms | events/s | records |',
        '|---|---|---|---|',
        `| dry run | ${dry.ms} | ${dry.eventsPerSecond} | — |`,
        `| run | ${run.ms} | ${run.eventsPerSecond} | ${records} written (${result.backfill.recordsPerSecond}/s) |`,
        `| run again | ${again.ms} | ${again.eventsPerSecond} | ${again.totals.written ?? 0} written, ${again.totals.unchanged ?? 0} unchanged |`,
        '',
      ].join('\n'),
    );
  } finally {
    await t.close();
    await influx.close();
  }
}

await main();
