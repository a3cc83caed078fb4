/**
 * Audit trail benchmark (docs/security.md#the-audit-trail): a SQLite database holding BENCH_AUDIT_ROWS audit entries
 * (default 300,000, each with old and new event values), served by the real app in-process:
 * - the Audit Trail screen's page (25 newest entries and the total), unfiltered and by user;
 * - the CSV export of the whole trail: rows/s and the process's peak resident memory growth while
 *   streaming (the export is written in keyset chunks, so memory should not grow with the trail).
 * Writes bench/results/audit.json and .md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database.js';
import { log, resultsDir, stats } from './support.js';

const rows = Number(process.env.BENCH_AUDIT_ROWS ?? 300_000);
const repeat = Number(process.env.BENCH_REPEAT ?? 15);

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-audit-'));
  try {
    const database = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'bathylog.db') });
    await migrateToLatest(database);
    const config = loadConfig(
      {},
      {
        mode: 'production',
        adminPassword: 'bench-admin',
        dataDir,
        logLevel: 'silent',
        asnap: { enabled: false },
        freeSpaceIntervalSeconds: 0,
        writeRateLimit: { perKey: 0, perAddress: 0 },
      },
    );
    const { app } = await buildApp({ config, database, logger: false });
    await app.ready();

    log(`loading ${rows} audit entries`);
    const loadStart = performance.now();
    const start = Date.now() - rows * 1000;
    const batch = 2000;
    for (let i = 0; i < rows; i += batch) {
      const values = [];
      for (let j = i; j < Math.min(rows, i + batch); j++) {
        const id = (0x5f000000 + j).toString(16).padStart(24, '0');
        const event = {
          id,
          ts: new Date(start + j * 1000).toISOString(),
          event_value: 'FISH',
          event_free_text: `n${j}`,
        };
        values.push({
          at: start + j * 1000,
          user_id: null,
          key_id: null,
          actor_kind: 'user',
          actor_name: j % 10 === 0 ? 'pi' : 'admin',
          route: 'PATCH /sealog-server/api/v1/events/:id',
          action: 'update',
          record_type: 'event',
          record_id: id,
          old_value: JSON.stringify(event),
          new_value: JSON.stringify({ ...event, event_free_text: `m${j}` }),
          detail: null,
        });
      }
      await database.db.insertInto('audit_log').values(values).execute();
    }
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const login = await app.inject({
      method: 'POST',
      url: '/sealog-server/api/v1/auth/login',
      payload: { username: 'admin', password: 'bench-admin' },
    });
    const token = (login.json() as { token: string }).token;
    const get = (url: string) =>
      app.inject({ method: 'GET', url: `/sealog-server/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });

    const timed = async (url: string) => {
      const samples: number[] = [];
      for (let i = 0; i < repeat; i++) {
        const t0 = performance.now();
        const res = await get(url);
        samples.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      return stats(samples);
    };
    const loadAverage = os.loadavg()[0]!;
    const firstPage = await timed('/audit?limit=25');
    const byUser = await timed('/audit?actor=pi&limit=25');
    const deepPage = await timed(`/audit?limit=25&offset=${Math.floor(rows / 2)}`);

    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: '/sealog-server/api/v1/audit?format=csv',
      headers: { authorization: `Bearer ${token}` },
      payloadAsStream: true,
    });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.stream() as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    const csvSeconds = (performance.now() - t0) / 1000;
    clearInterval(timer);
    if (lines !== rows) throw new Error(`CSV had ${lines} data lines, expected ${rows}`);
    await app.close();

    const result = {
      date: new Date().toISOString(),
      rows,
      loadAverage,
      loadSeconds: Math.round(loadSeconds * 10) / 10,
      firstPage,
      byUser,
      deepPage,
      csv: {
        seconds: Math.round(csvSeconds * 100) / 100,
        rowsPerSecond: Math.round(rows / csvSeconds),
        megabytes: Math.round((bytes / 1e6) * 10) / 10,
        rssGrowthMb: Math.round(((peak - rssBefore) / 1e6) * 10) / 10,
      },
    };
    writeFileSync(path.join(resultsDir, 'audit.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = [
      '# Audit trail benchmark',
      '',
      `${result.date}, SQLite, ${rows.toLocaleString('en-US')} entries, 1-minute load average ${loadAverage.toFixed(1)} (2 cores).`,
      '',
      '| Request | p50 ms | p95 ms |',
      '|---|---|---|',
      `| Audit Trail page (25 newest + total) | ${firstPage.p50} | ${firstPage.p95} |`,
      `| Filtered by user (10 % of entries) | ${byUser.p50} | ${byUser.p95} |`,
      `| Page in the middle (offset ${Math.floor(rows / 2).toLocaleString('en-US')}) | ${deepPage.p50} | ${deepPage.p95} |`,
      '',
      `CSV export of the whole trail: ${result.csv.seconds} s, ${result.csv.rowsPerSecond.toLocaleString('en-US')} rows/s, ` +
        `${result.csv.megabytes} MB, resident memory growth while streaming ${result.csv.rssGrowthMb} MB.`,
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'audit.md'), md);
    log(md);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
