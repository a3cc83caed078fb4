/**
 * Data completeness benchmark (docs/completeness.md#the-summary): dive S0492 (4,540 events, each
 * with vehicle navigation, 5 % of them without and 1 % stale) in an in-memory SQLite server, as the
 * test fixtures load it. Times, through the real routes (app.inject, no network): the lowering's
 * summary, the summary with every event's state (the replay lane), and the event list and count
 * with `completeness=incomplete`. Writes bench/results/completeness.json and .md. Asserts nothing.
 *
 * Env: BENCH_RUNS (30, after three warm-ups).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createTestApp } from '../apps/server/test/test-app.js';
import { loadDemoLowering } from '../apps/server/test/table-fixtures.js';
import { log, resultsDir, stats, type Stats } from './support';

const runs = Number(process.env.BENCH_RUNS ?? 30);
const nav = 'vehicleRealtimeNavData';

async function main() {
  const t = await createTestApp('sqlite', {
    completeness: { requiredAuxSources: [nav], graceSeconds: 10, maxAgeSeconds: 30 },
  });
  try {
    const db = t.ctx.database.db;
    const demo = await loadDemoLowering(db);
    // Every 20th event loses its navigation; every 100th gets a stale sample.
    const dropped = demo.events.filter((_, i) => i % 20 === 0).map((e) => e.id);
    await db.deleteFrom('event_aux_data').where('data_source', '=', nav).where('event_id', 'in', dropped).execute();
    for (const e of demo.events.filter((_, i) => i % 100 === 50)) {
      await db
        .updateTable('event_aux_data')
        .set({ data_array: JSON.stringify([{ data_name: 'data_age', data_value: '99', data_uom: 's' }]) })
        .where('event_id', '=', e.id)
        .where('data_source', '=', nav)
        .execute();
    }
    const token = await t.login('admin', 'demo');
    const id = demo.loweringId;
    const cases: Array<[string, string]> = [
      ['summary', `/lowerings/${id}/completeness`],
      ['summary with every event (lane)', `/lowerings/${id}/completeness?events=true`],
      ['incomplete events, first page', `/events/bylowering/${id}?completeness=incomplete&limit=15&sort=newest`],
      ['incomplete events, count', `/events/bylowering/${id}/count?completeness=incomplete`],
    ];
    const results: Record<string, Stats & { answer: string }> = {};
    for (const [name, url] of cases) {
      const samples: number[] = [];
      let answer = '';
      for (let i = 0; i < runs + 3; i++) {
        const started = performance.now();
        const res = await t.api('GET', url, { token });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
        if (i >= 3) samples.push(ms);
        answer = res.body.length > 200 ? `${res.body.length} bytes` : res.body;
      }
      results[name] = { ...stats(samples), answer };
      log(`${name}: p50 ${results[name]!.p50} ms, p95 ${results[name]!.p95} ms`);
    }
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'completeness.json'),
      JSON.stringify({ events: demo.events.length, runs, results }, null, 2),
    );
    const rows = Object.entries(results).map(([name, s]) => `| ${name} | ${s.p50} | ${s.p95} | ${s.max} |`);
    writeFileSync(
      path.join(resultsDir, 'completeness.md'),
      [
        `# Data completeness (dive S0492, ${demo.events.length} events, SQLite in memory, ${runs} runs)`,
        '',
        '| Request | p50 ms | p95 ms | max ms |',
        '|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await t.close();
  }
}

await main();
