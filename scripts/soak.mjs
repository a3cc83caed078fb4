#!/usr/bin/env node
// `npm run test:soak`: the long runs that `npm test` leaves out or runs short, at full count
// (docs/performance.md#how-long-the-tests-take):
// - the crash suite: 20 SIGKILL cycles per engine (PostgreSQL when TEST_DATABASE_URL is set);
//   `npm test` leaves it out (vitest.config.ts) and runs the disk-full test;
// - an online backup taken while clients log events, restored, on both engines (`npm test` backs up
//   and restores through the CLI tests only);
// - the several-hosts suite with 5 host kills (as root with TEST_DATABASE_URL; not in `npm test`);
// - the fuzz suite's 10,000 requests on SQLite, 2,000 on PostgreSQL (`npm test` sends a fifth);
// - the browser tests tagged @soak (a whole cruise imported through the screens), on a fresh build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightFailures, readVitestReport } from './test-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const results = [];
/** A line per failed test, repeated at the end: a CI log keeps only its tail. */
const failures = [];
const out = path.join(root, 'e2e/test-results');
mkdirSync(out, { recursive: true });
// Lifts vitest.config.ts's exclusion of the suites only this script runs.
process.env.BATHYLOG_SOAK = '1';

function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  results.push({ name, ok: r.status === 0, seconds: (Date.now() - t0) / 1000 });
}

/** One Vitest file as a step, its failures kept for the summary. */
function vitestStep(name, file, env) {
  const report = path.join(out, `soak-${path.basename(file, '.test.ts')}.json`);
  rmSync(report, { force: true });
  step(
    name,
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'server',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      file,
    ],
    env,
  );
  const r = readVitestReport(report, root);
  if (r) failures.push(...r.failures);
  else if (!results.at(-1).ok) failures.push(`vitest ${file}: no report (the run stopped before its end)`);
}

vitestStep('crash suite', 'apps/server/test/soak/crash.test.ts', {
  BATHYLOG_SOAK_CYCLES: process.env.BATHYLOG_SOAK_CYCLES ?? '20',
});
// Several hosts behind a balancer (PostgreSQL, as root): a host killed under load, 5 times over.
// Skips without TEST_DATABASE_URL or network namespaces.
vitestStep('several hosts', 'apps/server/test/hosts/hosts.test.ts', {
  BATHYLOG_HOSTS_KILL_CYCLES: process.env.BATHYLOG_HOSTS_KILL_CYCLES ?? '5',
});
// The fuzz suite at full count: 10,000 requests on SQLite, 2,000 on PostgreSQL (`npm test` sends a fifth).
vitestStep('backup while logging, restore', 'apps/server/test/soak/backup-restore.test.ts', {});
vitestStep('fuzz', 'apps/server/test/fuzz.test.ts', {
  BATHYLOG_FUZZ_FULL: '1',
});
step('client build', 'npm', ['run', 'build', '-w', 'apps/web']);
// E2E_SOAK=1: e2e/playwright.config.ts then runs only the tests tagged @soak.
if (results.at(-1).ok) {
  const report = path.join(out, 'playwright-soak.json');
  rmSync(report, { force: true });
  step('browser @soak', 'npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], {
    E2E_SOAK: '1',
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  if (existsSync(report)) failures.push(...playwrightFailures(JSON.parse(readFileSync(report, 'utf8')).suites ?? []));
}

if (failures.length) console.log(`\n== Failed or retried:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
for (const r of results) console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${r.seconds.toFixed(0)} s)`);
console.log(`\nsoak suites: ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(results.every((r) => r.ok) && results.length === 6 ? 0 : 1);
