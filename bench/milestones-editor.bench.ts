/**
 * Milestones editor benchmark (docs/maps-and-charts.md#the-milestones-editors-data): a lowering of
 * 20,000 events, each with vehicle navigation (bench/synthetic-events.ts), in a real headless
 * Chromium against the real server. Measures, in the page, the time from the click on the lowering
 * form's Milestones button to the depth chart and the map's trackline both drawn (the chart's
 * canvas holds every depth point, the map's trackline every track point, plus one animation frame
 * for the paint). Also the track request alone (the browser's resource timing). Tile servers are
 * unreachable, as at sea. Writes bench/results/milestones-editor.json and .md. Not a test: it
 * asserts nothing.
 *
 * Needs a built client: BENCH_WEB_DIR, else apps/web/dist, else it builds one into a temp folder.
 * Env: BENCH_EVENTS (20000), BENCH_RUNS (5, after one warm-up), BENCH_PORT (8961).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database.js';
import { analyze, defaultPlan, loadSynthetic } from './synthetic-events.js';
import { resultsDir, log, webDir, launchChromium, startBenchServer } from './support';

const eventsWanted = Number(process.env.BENCH_EVENTS ?? 20_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 8961);
const adminPassword = 'bench-admin';
const loweringName = 'SYN-20K';

/** A fresh SQLite data folder with one lowering of `eventsWanted` events with navigation. */
async function makeData(): Promise<{ dataDir: string; loweringId: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-milestones-'));
  const database = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'bathylog.sqlite') });
  try {
    await migrateToLatest(database);
    const plan = await loadSynthetic(database.db, {
      ...defaultPlan,
      events: eventsWanted,
      bigLoweringEvents: eventsWanted,
    });
    await analyze(database.db, database.dialect);
    return { dataDir, loweringId: plan.bigLoweringId };
  } finally {
    await database.close();
  }
}

async function startServer(web: string, dataDir: string): Promise<ChildProcess> {
  const env = { BATHYLOG_MODE: 'production', BATHYLOG_ADMIN_PASSWORD: adminPassword, BATHYLOG_ASNAP_ENABLED: 'false' };
  return (await startBenchServer({ port, web, dataDir, env })).child;
}

async function api(token: string | null, method: string, p: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/sealog-server/api/v1/${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
}

/**
 * Page-side timing, as source text (tsx adds helpers to compiled functions that the page lacks):
 * clicks Milestones and resolves with the ms until the chart holds `depths` points and the map's
 * trackline `points` points, plus a frame; and the track request's own duration.
 */
const pageTiming = `async ({ points, depths }) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent.trim() === 'Milestones');
  performance.clearResourceTimings();
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('editor not drawn within 30 s')), 30000);
    const ready = () =>
      document.querySelector('.depth-chart canvas') &&
      document.querySelector('.depth-chart-plot[data-points="' + depths + '"]') &&
      document.querySelector('.dive-map[data-track-points="' + points + '"] .leaflet-overlay-pane canvas');
    let done = false;
    const check = async () => {
      if (done || !ready()) return;
      done = true;
      observer.disconnect();
      clearTimeout(timer);
      const drawn = (await frame()) - t0;
      const exp = performance.getEntriesByType('resource').find((e) => e.name.includes('tracks/bylowering'));
      resolve({ drawn, exportRequest: exp ? exp.duration : -1, exportBytes: exp ? exp.encodedBodySize : -1 });
    };
    const observer = new MutationObserver(() => void check());
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    const t0 = performance.now();
    button.click();
  });
}`;

interface Sample {
  drawn: number;
  exportRequest: number;
  exportBytes: number;
}

/** /lowerings as admin → Edit {lowering} → the Milestones button is on screen. */
async function openLoweringForm(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/lowerings`);
  await page.getByRole('button', { name: `Edit ${loweringName}` }).click();
  await page.getByRole('button', { name: 'Milestones', exact: true }).waitFor();
}

async function main() {
  const web = webDir();
  log(`loading ${eventsWanted.toLocaleString('en')} synthetic events with navigation`);
  const { dataDir, loweringId } = await makeData();
  log('starting the server');
  const server = await startServer(web.dir, dataDir);
  const url = `http://127.0.0.1:${port}`;
  const browser = await launchChromium();
  try {
    const login = (await api(null, 'POST', 'auth/login', { username: 'admin', password: adminPassword })) as {
      token: string;
      id: string;
    };
    await api(login.token, 'PATCH', `lowerings/${loweringId}`, { lowering_id: loweringName });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // At sea: no tile server answers.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort());
    await context.addCookies([
      { name: 'token', value: login.token, url },
      { name: 'id', value: login.id, url },
    ]);
    const page = await context.newPage();
    const samples: Sample[] = [];
    for (let i = 0; i <= runs; i++) {
      await openLoweringForm(page, url);
      const s = (await page.evaluate(
        `(${pageTiming})(${JSON.stringify({ points: eventsWanted, depths: eventsWanted })})`,
      )) as Sample;
      log(
        `${i === 0 ? 'warm-up' : `run ${i}`}: drawn ${Math.round(s.drawn)} ms (track request ${Math.round(s.exportRequest)} ms)`,
      );
      if (i > 0) samples.push(s);
    }
    await context.close();

    const sorted = samples.map((s) => s.drawn).sort((a, b) => a - b);
    const median = (xs: number[]) => {
      const v = [...xs].sort((a, b) => a - b);
      return v.length ? v[Math.floor((v.length - 1) / 2)]! : 0;
    };
    const r = (x: number) => Math.round(x);
    const result = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`,
      node: process.version,
      chromium: browser.version(),
      loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
      events: eventsWanted,
      runs: samples.length,
      drawnMs: { median: r(median(sorted)), min: r(sorted[0] ?? 0), max: r(sorted[sorted.length - 1] ?? 0) },
      exportRequestMs: { median: r(median(samples.map((s) => s.exportRequest))) },
      exportBytes: samples[0]?.exportBytes ?? -1,
      samples: samples.map((s) => ({ drawn: r(s.drawn), exportRequest: r(s.exportRequest) })),
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'milestones-editor.json'), `${JSON.stringify(result, null, 2)}\n`);
    const md = [
      '# Milestones editor benchmark',
      '',
      `${result.date} · ${result.machine} · Node ${result.node} · Chromium ${result.chromium} · SQLite · load average at the end ${result.loadAverage.join(' / ')}`,
      '',
      `A lowering of ${eventsWanted.toLocaleString('en')} synthetic events, each with vehicle navigation (a quarter with frame grabs, some CTD), opened in headless Chromium from the lowering form's Milestones button; tile servers unreachable. Time from the click to the depth chart holding every depth point and the map's trackline every track point, plus one animation frame; ${samples.length} runs after one warm-up. The machine's 2 cores are shared with other work: a load average above 2 means the figures are pessimistic.`,
      '',
      '| measure | median | min | max |',
      '|---|---|---|---|',
      `| click → chart and map drawn (ms) | ${result.drawnMs.median} | ${result.drawnMs.min} | ${result.drawnMs.max} |`,
      `| of which the track request, GET tracks/bylowering (ms) | ${result.exportRequestMs.median} | | |`,
      '',
      `Track response: ${(result.exportBytes / 1e6).toFixed(2)} MB on the wire (the events without aux data load beside it for the chart's tooltips and are not waited for).`,
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'milestones-editor.md'), md);
    log(`median ${result.drawnMs.median} ms; results in bench/results/milestones-editor.{json,md}`);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((res) => server.once('exit', res));
    if (!process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
