/**
 * `npm run bench`: runs every `*.bench.ts` in this folder, one after another, each in its own
 * process (so one benchmark's memory and timers do not colour the next). Each writes its figures
 * to bench/results/. Pass names to run only some: `npm run bench -- search-export`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], {
    stdio: 'inherit',
    env: process.env,
  });
  if (run.status !== 0) {
    failed++;
    process.stdout.write(`!! ${file} failed (exit ${run.status})\n`);
  }
}
process.stdout.write(`\n${files.length - failed}/${files.length} benchmarks completed\n`);
process.exit(failed === 0 ? 0 : 1);
