#!/usr/bin/env node
// `npm run test:soak`: the crash suite at full count: 20 SIGKILL cycles per engine
// (PostgreSQL when TEST_DATABASE_URL is set); `npm test` runs it with 3 cycles (BATHYLOG_SOAK_CYCLES),
// beside the disk-full and backup/restore tests. Then the several-hosts suite with 5 host kills
// (`npm test` kills one host once).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const r = spawnSync('npx', ['vitest', 'run', '--project', 'server', 'apps/server/test/soak/crash.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { BATHYLOG_SOAK_CYCLES: '20', ...process.env },
});
// Several hosts behind a balancer (PostgreSQL, as root): a host killed under load, 5 times over
// (`npm test` kills one once). Skips without TEST_DATABASE_URL or network namespaces.
const hosts = spawnSync('npx', ['vitest', 'run', '--project', 'server', 'apps/server/test/hosts/hosts.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { BATHYLOG_HOSTS_KILL_CYCLES: '5', ...process.env },
});
console.log(`\nsoak suites: ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(r.status === 0 && hosts.status === 0 ? 0 : 1);
