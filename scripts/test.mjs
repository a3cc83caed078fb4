#!/usr/bin/env node
// `npm test`: unit and API tests (vitest; both engines when TEST_DATABASE_URL is set), then the
// browser tests (Playwright + Debian's Chromium) against a freshly built client and a real server.
// Ends with one summary line: "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { debianPeers, ensurePeers } from './peers.mjs';

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

/** The opening lines of a failure's messages, indented under its name: a CI log keeps only its tail. */
function firstLines(messages, max = 12) {
  const lines = (messages ?? [])
    .join('\n')
    .replace(/\u001b\[[0-9;]*m/g, '') // eslint-disable-line no-control-regex -- colour codes in a log
    .split('\n')
    .filter((l) => l.trim());
  return lines.length
    ? `\n${lines
        .slice(0, max)
        .map((l) => `      ${l.slice(0, 400)}`)
        .join('\n')}`
    : '';
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

/**
 * Starts a command beside the rest, its output written to `logFile` (a file, not a pipe: the
 * tests' spawnSync holds this process meanwhile) and printed when `done()` is awaited, so it does
 * not interleave with the tests' output. `done()` resolves to whether it succeeded.
 */
function runBeside(cmd, args, logFile) {
  const fd = openSync(logFile, 'w');
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
  return {
    async done() {
      const succeeded = await exited;
      process.stdout.write(readFileSync(logFile));
      return succeeded;
    },
  };
}

// The real peers the suites start (InfluxDB, gpsd, ffmpeg, nginx, …): installed here as root, else named.
ensurePeers(Object.keys(debianPeers).filter((c) => c !== 'chromium'));

// The client build (about 8 s of CPU, 11 s on a quiet machine) runs while Vitest starts rather than
// between the two phases. The unit and API suites do not depend on apps/web/dist: a test app gets
// a client folder of its own or none (apps/server/test/test-app.ts), and the server processes some
// suites start are spoken to over the API only.
const clientBuild =
  !only || only === 'e2e'
    ? runBeside('npm', ['run', 'build', '-w', 'apps/web'], path.join(out, 'client-build.log'))
    : null;

if (!only || only === 'unit') {
  const report = path.join(out, 'vitest.json');
  rmSync(report, { force: true });
  ok = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]) && ok;
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults)
      for (const t of file.assertionResults)
        if (t.status === 'failed')
          failures.push(`vitest ${path.relative(root, file.name)} › ${t.fullName}${firstLines(t.failureMessages)}`);
  } else ok = false;
}

if (!only || only === 'e2e') {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
    console.error(
      `Browser tests need Chromium at ${chromium}: run \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH), then npm test again.`,
    );
    ok = false;
    failed += 1;
  } else {
    console.log('\n== Client build (run beside the unit suites)');
    ok = (await clientBuild.done()) && ok;
    // The client's size budgets (docs/lean-client.md#budgets-checked-on-every-npm-test): a check on
    // the build output, one test.
    console.log('\n== Bundle budgets (gzip JS + CSS)');
    if (run('node', ['scripts/check-bundle-budget.mjs'])) passed += 1;
    else {
      failed += 1;
      ok = false;
    }
    const report = path.join(out, 'playwright.json');
    rmSync(report, { force: true });
    ok =
      run('npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
      }) && ok;
    if (existsSync(report)) {
      const json = JSON.parse(readFileSync(report, 'utf8'));
      const s = json.stats;
      passed += s.expected + (s.flaky ?? 0);
      collectPlaywright(json.suites ?? []);
      failed += s.unexpected;
      skipped += s.skipped;
    } else ok = false;
  }
}

function collectPlaywright(suites, trail = []) {
  for (const suite of suites) {
    const names = suite.title && !suite.title.endsWith('.ts') ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      const failedAll = (spec.tests ?? []).some((t) => t.status === 'unexpected');
      const errors = (spec.tests ?? []).flatMap((t) =>
        (t.results ?? []).flatMap((r) => (r.errors ?? []).map((e) => e.message ?? '')),
      );
      const retried = (spec.tests ?? []).some((t) => t.status === 'flaky');
      if (failedAll || retried)
        failures.push(
          `playwright ${spec.file}:${spec.line} › ${[...names, spec.title].join(' › ')}${retried ? ' (passed on retry)' : ''}${firstLines(errors.slice(0, 1))}`,
        );
    }
    collectPlaywright(suite.suites ?? [], names);
  }
}

if (failures.length) console.log(`\n== Failed or retried:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok && failed === 0 ? 0 : 1);
