#!/usr/bin/env node
// `npm run test:soak`: the long durability suites at full count (issue 12): the crash suite with
// 20 SIGKILL cycles per engine (PostgreSQL when TEST_DATABASE_URL is set), the disk-full test and
// backup/restore while writing. `npm test` runs the same files with fewer cycles.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const r = spawnSync('npx', ['vitest', 'run', '--project', 'server', 'apps/server/test/soak/'], {
  cwd: root,
  stdio: 'inherit',
  env: { BATHYLOG_SOAK_CYCLES: '20', ...process.env },
});
console.log(`\nsoak suites: ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(r.status ?? 1);
