/**
 * Taxon search as the console's picker types into it (docs/taxa.md#search-speed): BENCH_TAXA
 * (100,000) generated taxa with a vernacular name for one in three, on SQLite (in memory, every
 * migration) and on PostgreSQL when TEST_DATABASE_URL is set. Times `TaxonomyRepository.search`
 * (what GET /taxa runs) for three-letter prefixes, a longer prefix, a substring, a vernacular name
 * and a text that matches nothing (the worst case: every kind of search runs to the end). The
 * target is 50 ms. Writes bench/results/taxa-search.json and .md. Asserts nothing.
 *
 * Env: BENCH_TAXA (100000), BENCH_RUNS (30, after three warm-ups).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest } from '../apps/server/src/db/database.js';
import { TaxonomyRepository, type TaxonInput } from '../apps/server/src/taxonomy/taxonomy.repository.js';
import { openTestDatabase } from '../apps/server/test/test-app.js';
import { log, resultsDir, stats, type Stats } from './support';

const total = Number(process.env.BENCH_TAXA ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 30);

const syllables = [
  'ophi',
  'aster',
  'para',
  'gorg',
  'bris',
  'lyra',
  'hexa',
  'cten',
  'spong',
  'ura',
  'octo',
  'phyl',
  'coral',
  'mela',
  'nema',
  'poly',
  'cidar',
  'echi',
  'holo',
  'thur',
];
const endings = ['idae', 'inae', 'ia', 'us', 'a', 'ella', 'opsis', 'ites', 'oidea'];
const words = [
  'sea',
  'star',
  'brittle',
  'coral',
  'sponge',
  'glass',
  'bamboo',
  'black',
  'cucumber',
  'urchin',
  'lily',
  'fan',
];

/** A deterministic name per index: a genus-like word, and a species epithet for most. */
function nameOf(i: number): string {
  const a = syllables[i % syllables.length]!;
  const b = syllables[Math.floor(i / 20) % syllables.length]!;
  const e = endings[Math.floor(i / 400) % endings.length]!;
  const genus = `${a[0]!.toUpperCase()}${a.slice(1)}${b}${e}`;
  return i % 5 === 0 ? genus : `${genus} ${syllables[Math.floor(i / 7) % syllables.length]}${i.toString(36)}`;
}

async function load(repo: TaxonomyRepository): Promise<void> {
  for (let start = 0; start < total; start += 2000) {
    const batch: TaxonInput[] = [];
    for (let i = start; i < Math.min(total, start + 2000); i++) {
      batch.push({
        aphia_id: 1_000_000 + i,
        scientific_name: nameOf(i),
        authority: 'Bench, 2026',
        rank: i % 5 === 0 ? 'Genus' : 'Species',
        status: i % 11 === 0 ? 'unaccepted' : 'accepted',
        parent_aphia_id: i > 0 ? 1_000_000 + Math.floor(i / 5) * 5 : null,
        ...(i % 3 === 0
          ? {
              vernaculars: [
                { name: `${words[i % words.length]} ${words[(i >> 3) % words.length]} ${i}`, language: 'eng' },
              ],
            }
          : {}),
      });
    }
    await repo.upsertTaxa(batch, 'bench', Date.now());
  }
}

const queries: Record<string, string> = {
  'three letters, common prefix (oph)': 'oph',
  'three letters (bri)': 'bri',
  'longer prefix (asterhexa)': 'asterhexa',
  'substring (gorgbris)': 'gorgbris',
  'vernacular (brittle)': 'brittle',
  'nothing matches (zzq)': 'zzq',
  'an AphiaID (1012345)': '1012345',
};

type Result = Stats & { hits: number; cpuP50: number };

async function measure(engine: 'sqlite' | 'postgres'): Promise<Record<string, Result>> {
  const { database, drop } = await openTestDatabase(engine);
  try {
    await migrateToLatest(database);
    const repo = new TaxonomyRepository(database.db);
    const started = performance.now();
    await load(repo);
    log(`${engine}: loaded ${total} taxa in ${Math.round(performance.now() - started)} ms`);
    if (engine === 'postgres') await sql`ANALYZE`.execute(database.db);
    const out: Record<string, Result> = {};
    for (const [name, q] of Object.entries(queries)) {
      const samples: number[] = [];
      const cpu: number[] = [];
      let hits = 0;
      for (let i = 0; i < runs + 3; i++) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        hits = (await repo.search(q, { limit: 20 })).length;
        const c = process.cpuUsage(c0);
        if (i >= 3) {
          samples.push(performance.now() - t0);
          cpu.push((c.user + c.system) / 1000);
        }
      }
      out[name] = { ...stats(samples), hits, cpuP50: stats(cpu).p50 };
      log(
        `${engine} ${name}: p50 ${out[name]!.p50} ms, p95 ${out[name]!.p95} ms, cpu p50 ${out[name]!.cpuP50} ms (${hits} hits)`,
      );
    }
    return out;
  } finally {
    await drop();
  }
}

async function main() {
  const engines: Array<'sqlite' | 'postgres'> = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const results: Record<string, Record<string, Result>> = {};
  const load = loadavg()[0]!.toFixed(1);
  for (const engine of engines) results[engine] = await measure(engine);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, 'taxa-search.json'),
    JSON.stringify({ total, runs, loadAverage: Number(load), results }, null, 2),
  );
  const lines = [
    `# Taxon search (${total} taxa, a vernacular name for one in three, ${runs} runs, limit 20)`,
    '',
    `Load average when measured: ${load} on this machine's cores (wall times grow with it; the server process's CPU time per search does not).`,
    '',
  ];
  for (const [engine, byQuery] of Object.entries(results)) {
    lines.push(
      `## ${engine}`,
      '',
      '| Query | hits | p50 ms | p95 ms | max ms | CPU p50 ms |',
      '|---|---|---|---|---|---|',
    );
    for (const [name, s] of Object.entries(byQuery))
      lines.push(`| ${name} | ${s.hits} | ${s.p50} | ${s.p95} | ${s.max} | ${s.cpuP50} |`);
    lines.push('');
  }
  lines.push('Target: under 50 ms for every query (the console searches as the logger types).', '');
  writeFileSync(path.join(resultsDir, 'taxa-search.md'), lines.join('\n'));
}

await main();
