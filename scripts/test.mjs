#!/usr/bin/env node
// `npm test`: unit and API tests (vitest; both engines when TEST_DATABASE_URL is set) and, beside
// them, the browser tests (Playwright + Debian's Chromium) against a freshly built client and a real server.
// Ends with one summary line: "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild } from './build-server.mjs';
import { chromiumPath as chromium } from './chromium-args.mjs';
import { debianPeers, ensurePeers } from './peers.mjs';
import { playwrightFailures, readVitestReport } from './test-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'e2e/test-results');
mkdirSync(out, { recursive: true });
const only = process.argv[2]; // optional: "unit" or "e2e"
let passed = 0;
let failed = 0;
let skipped = 0;
let ok = true;
/** Names of failed tests, repeated beside the summary so the tail of a long log says what failed. */
const failures = [];

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

/**
 * Starts a command beside the rest, its output written to `logFile` (a file, not a pipe: nothing
 * reads it until the end) and printed by `print()`, so it does not interleave with the unit suites'
 * output. `exited` resolves to whether it succeeded.
 */
function runBeside(cmd, args, logFile, env = {}) {
  const fd = openSync(logFile, 'w');
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
  closeSync(fd);
  const exited = new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
  return { exited, print: () => process.stdout.write(readFileSync(logFile)) };
}

// The real peers the suites start (InfluxDB, gpsd, ffmpeg, nginx, …): installed here as root, else named.
ensurePeers(Object.keys(debianPeers).filter((c) => c !== 'chromium'));

const started = Date.now();
const minutes = () => `${((Date.now() - started) / 60_000).toFixed(1)} min`;

/**
 * The browser phase runs BESIDE the Vitest phase, not after it (docs/performance.md#how-long-the-tests-take):
 * the client build starts with Vitest, then the budgets are checked and Playwright starts as soon as the
 * build is done. Playwright waits on its browser and server much of the time (under a core of CPU), and
 * the two phases share nothing: the browser suite's servers use SQLite in fresh temporary folders on
 * ports 8300-8399, the unit suites use ports the system picks and their own PostgreSQL schemas.
 * Their output goes to log files printed after Vitest's, so the two do not interleave.
 */
async function browserPhase() {
  // The README's two commands are all a new user runs: as root on Debian, fetch the browser here
  // (Debian's chromium package; never a downloaded browser build). Otherwise say the one command.
  if (
    !existsSync(chromium) &&
    !process.env.CHROMIUM_PATH &&
    process.getuid?.() === 0 &&
    existsSync('/usr/bin/apt-get')
  ) {
    console.log("== Browser tests need Chromium: installing Debian's chromium package (apt-get)");
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (run('apt-get', ['update', '-qq'], env)) run('apt-get', ['install', '-y', '-qq', 'chromium'], env);
  }
  if (!existsSync(chromium)) {
    const message = `Browser tests need Chromium at ${chromium}: run \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH), then npm test again.`;
    return { print: () => console.error(message), ok: false, failed: 1 };
  }
  const build = runBeside('npm', ['run', 'build', '-w', 'apps/web'], path.join(out, 'client-build.log'));
  const buildOk = await build.exited;
  // The client's size budgets (docs/lean-client.md#budgets-checked-on-every-npm-test): a check on
  // the build output, one test.
  const budget = runBeside('node', ['scripts/check-bundle-budget.mjs'], path.join(out, 'bundle-budget.log'));
  const budgetOk = await budget.exited;
  const report = path.join(out, 'playwright.json');
  rmSync(report, { force: true });
  let browser = null;
  if (buildOk) {
    const t0 = Date.now();
    browser = runBeside(
      'npx',
      ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
      path.join(out, 'playwright.log'),
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      },
    );
    await browser.exited;
    browser.minutes = ((Date.now() - t0) / 60_000).toFixed(1);
  }
  return {
    ok: buildOk && (browser ? await browser.exited : false),
    budgetOk,
    report,
    print() {
      console.log('\n== Client build (run beside the unit suites)');
      build.print();
      console.log('\n== Bundle budgets (gzip JS + CSS)');
      budget.print();
      if (browser) {
        console.log(`\n== Browser tests (run beside the unit suites; ${browser.minutes} min)`);
        browser.print();
      }
    },
  };
}

// The compiled server (scripts/build-server.mjs), built once before both phases: the browser suite's
// servers, the server processes of the unit suites and the CLI's tests all run it, as `npm start` does,
// rather than each loading the TypeScript sources through tsx (seconds of CPU per process).
await ensureServerBuild();

const browser = !only || only === 'e2e' ? browserPhase() : null;

if (!only || only === 'unit') {
  const report = path.join(out, 'vitest.json');
  rmSync(report, { force: true });
  const vitest = spawn(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const vitestOk = await new Promise((resolve) => {
    vitest.once('error', () => resolve(false));
    vitest.once('close', (code) => resolve(code === 0));
  });
  console.log(`\n== Unit and API suites done (${minutes()})`);
  ok = vitestOk && ok;
  const r = readVitestReport(report, root);
  if (r) {
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    failures.push(...r.failures);
  } else ok = false;
}

if (browser) {
  const b = await browser;
  b.print();
  console.log(`\n== Browser phase done (${minutes()})`);
  if (b.failed) {
    failed += b.failed;
    ok = false;
  } else {
    if (b.budgetOk) passed += 1;
    else {
      failed += 1;
      ok = false;
    }
    ok = b.ok && ok;
    if (existsSync(b.report)) {
      const json = JSON.parse(readFileSync(b.report, 'utf8'));
      const s = json.stats;
      passed += s.expected + (s.flaky ?? 0);
      failures.push(...playwrightFailures(json.suites ?? []));
      failed += s.unexpected;
      skipped += s.skipped;
    } else ok = false;
  }
}

if (failures.length) console.log(`\n== Failed or retried:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok && failed === 0 ? 0 : 1);
