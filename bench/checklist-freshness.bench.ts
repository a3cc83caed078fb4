/**
 * The checklist monitor's "aux data fresh" condition (docs/checklists.md#conditions) with a long
 * history: BENCH_AUX (500,000) events, each with a `nav` aux record, one per second up to a
 * minute ago, in an in-memory SQLite database with every migration. Times one evaluation of a
 * 60-second window: the former query (the newest event ts over every aux record of the source) and
 * the one the monitor runs now (`hasAuxSince`: the window's events by the ts index, each aux record
 * by (event, source)). Writes bench/results/checklist-freshness.json and .md. Asserts nothing.
 *
 * Env: BENCH_AUX (500000), BENCH_RUNS (20, after two warm-ups).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newObjectId } from '@bathylog/shared';
import { ChecklistsRepository } from '../apps/server/src/modules/checklists/checklists.repository.js';
import { createTestApp } from '../apps/server/test/test-app.js';
import { log, resultsDir, stats, type Stats } from './support';

const total = Number(process.env.BENCH_AUX ?? 500_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);

async function main() {
  const t = await createTestApp('sqlite');
  try {
    const db = t.ctx.database.db;
    const now = Date.now();
    const started = performance.now();
    for (let i = 0; i < total; i += 500) {
      const events = Array.from({ length: Math.min(500, total - i) }, (_, k) => ({
        id: newObjectId(),
        ts: now - 60_000 - (i + k) * 1000,
        event_author: 'bench',
        event_value: 'NAV',
        event_options: '[]',
        event_free_text: '',
      }));
      await db.insertInto('events').values(events).execute();
      await db
        .insertInto('event_aux_data')
        .values(events.map((e) => ({ id: newObjectId(), event_id: e.id, data_source: 'nav', data_array: '[]' })))
        .execute();
    }
    log(`loaded ${total} events with aux data in ${Math.round(performance.now() - started)} ms`);
    const repo = new ChecklistsRepository(db);
    const since = now - 60_000;
    const cases: Record<string, () => Promise<boolean>> = {
      'former: newest ts over every aux record of the source': async () => {
        const row = await db
          .selectFrom('event_aux_data')
          .innerJoin('events', 'events.id', 'event_aux_data.event_id')
          .select((eb) => eb.fn.max('events.ts').as('ts'))
          .where('event_aux_data.data_source', '=', 'nav')
          .executeTakeFirst();
        return row?.ts != null && Number(row.ts) >= since;
      },
      'now: the window by the ts index (hasAuxSince)': () => repo.hasAuxSince('nav', since),
    };
    const results: Record<string, Stats & { fresh: boolean }> = {};
    for (const [name, run] of Object.entries(cases)) {
      const samples: number[] = [];
      let fresh = false;
      for (let i = 0; i < runs + 2; i++) {
        const t0 = performance.now();
        fresh = await run();
        if (i >= 2) samples.push(performance.now() - t0);
      }
      results[name] = { ...stats(samples), fresh };
      log(`${name}: p50 ${results[name]!.p50} ms (fresh: ${fresh})`);
    }
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'checklist-freshness.json'), JSON.stringify({ total, runs, results }, null, 2));
    writeFileSync(
      path.join(resultsDir, 'checklist-freshness.md'),
      [
        `# Checklist "aux data fresh" (${total} aux records of one source, SQLite in memory, ${runs} runs)`,
        '',
        '| Query | p50 ms | p95 ms | max ms |',
        '|---|---|---|---|',
        ...Object.entries(results).map(([name, s]) => `| ${name} | ${s.p50} | ${s.p95} | ${s.max} |`),
        '',
      ].join('\n'),
    );
  } finally {
    await t.close();
  }
}

await main();
