/**
 * Thin-link benchmark (docs/lean-client.md#fewer-round-trips-on-the-first-screen): the console and
 * the login screen over an emulated ship's link, 2 Mbit/s each way with 600 ms round trips
 * (Chromium network emulation over CDP), cold cache (a new browser context per run), against the
 * real server with the demo data.
 *
 *  - console: a stored session (the token cookie, as after a login), navigation to `/`, until the
 *    first template button is on screen;
 *  - login: no session, navigation to `/login`, until the Login button is on screen.
 *
 * Times come from the page: a MutationObserver installed before any script records
 * performance.now() (navigation start = 0) when the element first has a box, plus one animation
 * frame for the paint. Bytes are what crossed the emulated link (CDP encodedDataLength: headers
 * and compressed bodies), counted up to that moment and again once the network is quiet.
 * Writes bench/results/thin-link.json and .md. Not a test: it asserts nothing.
 *
 * Needs a built client: BENCH_WEB_DIR, else apps/web/dist, else it builds one into a temp folder.
 * Env: BENCH_RUNS (5), BENCH_PORT (8961), BENCH_RTT_MS (600), BENCH_KBIT (2000).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession } from '@playwright/test';
import { resultsDir, log, sleep, stats, type Stats, webDir, launchChromium, startBenchServer } from './support';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 8961);
const rttMs = Number(process.env.BENCH_RTT_MS ?? 600);
const kbit = Number(process.env.BENCH_KBIT ?? 2000);
const targetMs = 4000;

function startServer(web: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  return startBenchServer({ port, web, dataDir });
}

/** Page-side: the time (ms since navigation start) the first element matching `selector` has a box, plus a frame. */
const watchScript = (selector: string) => `(() => {
  const seen = () => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el || el.getBoundingClientRect().height === 0) return false;
    requestAnimationFrame(() => { window.__benchVisibleAt = performance.now(); });
    return true;
  };
  const start = () => {
    if (seen()) return;
    const mo = new MutationObserver(() => { if (seen()) mo.disconnect(); });
    mo.observe(document.documentElement, { childList: true, subtree: true });
  };
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
})()`;

interface Transfer {
  requests: number;
  bytes: number;
  byType: Record<string, { requests: number; bytes: number }>;
}

/** Counts what crosses the link: requests started and encoded bytes received per resource type. */
function recordTransfers(cdp: CDPSession) {
  const types = new Map<string, string>();
  const done: Array<{ at: number; type: string; bytes: number }> = [];
  let started = 0;
  let inFlight = 0;
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    started++;
    inFlight++;
    lastActivity = Date.now();
    types.set(e.requestId, e.type ?? 'Other');
  });
  cdp.on('Network.loadingFinished', (e) => {
    inFlight--;
    lastActivity = Date.now();
    done.push({ at: Date.now(), type: types.get(e.requestId) ?? 'Other', bytes: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', () => {
    inFlight--;
    lastActivity = Date.now();
  });
  const summary = (until = Infinity): Transfer => {
    const byType: Transfer['byType'] = {};
    let bytes = 0;
    let requests = 0;
    for (const d of done.filter((x) => x.at <= until)) {
      byType[d.type] ??= { requests: 0, bytes: 0 };
      byType[d.type]!.requests++;
      byType[d.type]!.bytes += d.bytes;
      bytes += d.bytes;
      requests++;
    }
    return { requests, bytes, byType };
  };
  /** Resolves once nothing has been in flight for `quietMs` (the websocket stays open: not counted). */
  const quiet = async (quietMs: number, maxMs: number) => {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastActivity < quietMs)) await sleep(100);
  };
  return { summary, quiet, started: () => started };
}

interface Run {
  visibleMs: number;
  atVisible: Transfer;
  settled: Transfer;
}

async function measure(
  browser: Browser,
  url: string,
  selector: string,
  cookies: Array<{ name: string; value: string }>,
): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    if (cookies.length) await context.addCookies(cookies.map((c) => ({ ...c, url })));
    await context.addInitScript(watchScript(selector));
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const bytesPerSecond = (kbit * 1000) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: rttMs,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    const transfers = recordTransfers(cdp);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction('window.__benchVisibleAt', null, { timeout: 60_000, polling: 50 });
    const atVisibleWall = Date.now();
    const visibleMs = (await page.evaluate('window.__benchVisibleAt')) as number;
    const atVisible = transfers.summary(atVisibleWall);
    await transfers.quiet(2 * rttMs + 500, 30_000);
    return { visibleMs, atVisible, settled: transfers.summary() };
  } finally {
    await context.close();
  }
}

interface Scenario {
  name: string;
  what: string;
  visible: Stats;
  requestsAtVisible: number;
  kBAtVisible: number;
  requestsSettled: number;
  kBSettled: number;
  byTypeSettled: Transfer['byType'];
  runs: Run[];
}

function summarise(name: string, what: string, samples: Run[]): Scenario {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const last = samples[samples.length - 1]!;
  return {
    name,
    what,
    visible: stats(samples.map((r) => r.visibleMs)),
    requestsAtVisible: median(samples.map((r) => r.atVisible.requests)),
    kBAtVisible: Math.round(median(samples.map((r) => r.atVisible.bytes)) / 100) / 10,
    requestsSettled: median(samples.map((r) => r.settled.requests)),
    kBSettled: Math.round(median(samples.map((r) => r.settled.bytes)) / 100) / 10,
    byTypeSettled: last.settled.byType,
    runs: samples,
  };
}

async function main() {
  const web = webDir();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-thin-'));
  log('starting the demo server');
  const server = await startServer(web.dir, dataDir);
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    // The demo cruise may still be loading when the server first answers: retry for a while.
    let login: { token: string; id: string } | null = null;
    for (let i = 0; i < 120 && !login; i++) {
      const res = await fetch(`${server.url}/sealog-server/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'demo' }),
      });
      if (res.ok) login = (await res.json()) as { token: string; id: string };
      else await sleep(1000);
    }
    if (!login) throw new Error('could not log in as admin');
    const session = [
      { name: 'token', value: login.token },
      { name: 'id', value: login.id },
    ];
    const consoleRuns: Run[] = [];
    const loginRuns: Run[] = [];
    // One unmeasured pass each: the server's first answers (JIT, SQLite page cache).
    await measure(browser, `${server.url}/`, '.template-button', session);
    await measure(browser, `${server.url}/login`, 'form[aria-label="Login"] button[type="submit"]', []);
    for (let i = 0; i < runs; i++) {
      consoleRuns.push(await measure(browser, `${server.url}/`, '.template-button', session));
      loginRuns.push(
        await measure(browser, `${server.url}/login`, 'form[aria-label="Login"] button[type="submit"]', []),
      );
      log(
        `run ${i + 1}: console ${Math.round(consoleRuns[i]!.visibleMs)} ms, login ${Math.round(loginRuns[i]!.visibleMs)} ms`,
      );
    }
    const scenarios = [
      summarise('console', 'template buttons visible (stored session, `/`)', consoleRuns),
      summarise('login', 'Login button visible (`/login`)', loginRuns),
    ];
    const load = os.loadavg().map((x) => x.toFixed(1));
    const result = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`,
      node: process.version,
      chromium: browser.version(),
      link: { kbitPerSecond: kbit, rttMs },
      targetMs,
      loadAverage: load,
      scenarios,
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'thin-link.json'), `${JSON.stringify(result, null, 2)}\n`);
    const rows = scenarios.map(
      (s) =>
        `| ${s.name}: ${s.what} | ${s.visible.n} | ${s.visible.p50} | ${s.visible.max} | ${s.requestsAtVisible} / ${s.kBAtVisible} kB | ${s.requestsSettled} / ${s.kBSettled} kB |`,
    );
    const types = scenarios.map(
      (s) =>
        `- ${s.name}, once quiet: ${Object.entries(s.byTypeSettled)
          .map(([t, v]) => `${t} ${v.requests} req / ${(v.bytes / 1000).toFixed(1)} kB`)
          .join(', ')}`,
    );
    writeFileSync(
      path.join(resultsDir, 'thin-link.md'),
      [
        '# Thin-link benchmark',
        '',
        `${result.date} · ${result.machine} · Node ${result.node} · Chromium ${result.chromium} · demo data, SQLite · load average at the end ${load.join(' / ')}`,
        '',
        `Chromium network emulation (CDP): ${kbit / 1000} Mbit/s each way, ${rttMs} ms latency per request, cache disabled, a new browser context per run. Milliseconds from navigation start to the element on screen (MutationObserver + one frame), measured in the page. Bytes are what crossed the emulated link (headers and compressed bodies). Target: the console's template buttons within ${targetMs} ms.`,
        '',
        '| screen | runs | p50 ms | max ms | requests / bytes until visible | requests / bytes once quiet |',
        '|---|---|---|---|---|---|',
        ...rows,
        '',
        ...types,
        '',
        'Run: `npx tsx bench/thin-link.bench.ts` (BENCH_RUNS, BENCH_PORT, BENCH_RTT_MS, BENCH_KBIT, BENCH_WEB_DIR).',
        '',
      ].join('\n'),
    );
    log(rows.join('\n'));
  } finally {
    await browser?.close();
    server.child.kill('SIGTERM');
    await sleep(500);
    rmSync(dataDir, { recursive: true, force: true });
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
  }
}

await main();
