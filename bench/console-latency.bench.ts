/**
 * Console latency benchmark: from the click on a template button to the event in the
 * history, in a real Chromium against the real server with the demo data (5,065 events).
 *
 * Two times per click, measured inside the page with a MutationObserver on the history list and
 * one animation frame added for the paint:
 *  - visible: the new line is on screen (at first as "pending": stored in IndexedDB, not yet sent);
 *  - confirmed: the same line comes from the server (sent, refetched, pending mark gone).
 * Also the same two times for a free-text event submitted with Enter.
 * Writes bench/results/console-latency.json and .md. Not a test: it asserts nothing.
 *
 * Needs a built client: BENCH_WEB_DIR, else apps/web/dist, else it builds one into a temp folder.
 * Env: BENCH_CLICKS (100), BENCH_GAP_MS (250, pause between clicks), BENCH_PORT (8960).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { resultsDir, log, sleep, stats, type Stats, webDir, launchChromium, startBenchServer } from './support';

const clicks = Number(process.env.BENCH_CLICKS ?? 100);
const gapMs = Number(process.env.BENCH_GAP_MS ?? 250);
const port = Number(process.env.BENCH_PORT ?? 8960);

async function startServer(web: string): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-console-'));
  return { ...(await startBenchServer({ port, web, dataDir })), dataDir };
}

async function api(url: string, token: string | null, method: string, p: string, body?: unknown) {
  const res = await fetch(`${url}/sealog-server/api/v1/${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : ((await res.json()) as Record<string, unknown>);
}

/**
 * Page-side timing, as source text: tsx adds helpers to compiled functions that do not exist in
 * the page, so this runs from a string. Clicks (or submits) and resolves with the times, from just
 * before the action, to the first new history line plus a frame, and to that line no longer being
 * pending plus a frame.
 */
const pageTiming = `async ({ act, arg }) => {
  const body = document.querySelector('[data-testid="event-history-body"]');
  const ids = () => Array.from(body.querySelectorAll('[data-testid="event-line"]')).map((el) => el.getAttribute('data-event-id'));
  const before = new Set(ids());
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  return await new Promise((resolve, reject) => {
    let newId = null;
    let visible = -1;
    let done = false;
    const timer = setTimeout(() => reject(new Error('no line within 10 s')), 10000);
    const check = async () => {
      if (done) return;
      if (!newId) newId = ids().find((id) => id && !before.has(id)) || null;
      if (!newId) return;
      const el = body.querySelector('[data-event-id="' + newId + '"]');
      if (!el) return;
      if (visible < 0) visible = (await frame()) - t0;
      if (!el.querySelector('[data-testid="event-pending"]') && !done) {
        done = true;
        observer.disconnect();
        clearTimeout(timer);
        resolve({ visible, confirmed: (await frame()) - t0 });
      }
    };
    const observer = new MutationObserver(() => void check());
    observer.observe(body, { childList: true, subtree: true, attributes: true });
    const t0 = performance.now();
    if (act === 'template') {
      Array.from(document.querySelectorAll('.template-button')).find((b) => b.textContent === arg).click();
    } else {
      const input = document.querySelector('input[placeholder="Type new event"]');
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, arg);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // React has the value after the input event; submit in the next task.
      setTimeout(() => input.form.requestSubmit(), 0);
    }
  });
}`;

async function measure(
  page: Page,
  act: 'template' | 'freeText',
  arg: string,
): Promise<{ visible: number; confirmed: number }> {
  return page.evaluate(`(${pageTiming})(${JSON.stringify({ act, arg })})`) as Promise<{
    visible: number;
    confirmed: number;
  }>;
}

async function main() {
  const web = webDir();
  log('starting the demo server');
  const server = await startServer(web.dir);
  const browser = await launchChromium();
  try {
    const login = (await api(server.url, null, 'POST', 'auth/login', { username: 'admin', password: 'demo' })) as {
      token: string;
      id: string;
    };
    const category = `bench${Date.now().toString(36)}`;
    const name = 'Bench Click';
    await api(server.url, login.token, 'POST', 'event_templates', {
      event_name: name,
      event_value: 'BENCH',
      event_free_text_required: false,
      system_template: false,
      template_categories: [category],
      event_options: [
        {
          event_option_name: 'Milestone',
          event_option_type: 'static text',
          event_option_values: [],
          event_option_default_value: 'Bench',
          event_option_allow_freeform: false,
          event_option_required: false,
        },
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([
      { name: 'token', value: login.token, url: server.url },
      { name: 'id', value: login.id, url: server.url },
    ]);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByTestId('event-history-body').getByTestId('event-line').first().waitFor();
    await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
    await page.getByRole('button', { name, exact: true }).waitFor();

    // Warm-up: first renders, first websocket push, JIT.
    for (let i = 0; i < 5; i++) {
      await measure(page, 'template', name);
      await sleep(gapMs);
    }
    const template = { visible: [] as number[], confirmed: [] as number[] };
    log(`${clicks} template clicks`);
    for (let i = 0; i < clicks; i++) {
      const r = await measure(page, 'template', name);
      template.visible.push(r.visible);
      template.confirmed.push(r.confirmed);
      await sleep(gapMs);
    }
    const text = { visible: [] as number[], confirmed: [] as number[] };
    const texts = Math.max(10, Math.floor(clicks / 4));
    log(`${texts} free-text events`);
    for (let i = 0; i < texts; i++) {
      const r = await measure(page, 'freeText', `bench note ${i} ${Date.now()}`);
      text.visible.push(r.visible);
      text.confirmed.push(r.confirmed);
      await sleep(gapMs);
    }
    await context.close();

    const result = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`,
      node: process.version,
      chromium: browser.version(),
      loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
      clicks,
      gapMs,
      template: { visible: stats(template.visible), confirmed: stats(template.confirmed) },
      freeText: { visible: stats(text.visible), confirmed: stats(text.confirmed) },
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'console-latency.json'), `${JSON.stringify(result, null, 2)}\n`);
    const row = (what: string, s: Stats) => `| ${what} | ${s.n} | ${s.p50} | ${s.p95} | ${s.max} | ${s.mean} |`;
    const md = [
      '# Console latency benchmark',
      '',
      `${result.date} · ${result.machine} · Node ${result.node} · Chromium ${result.chromium} · demo data (5,065 events), SQLite · load average at the end ${result.loadAverage.join(' / ')}`,
      '',
      'Milliseconds from the click (or Enter) to the event in the console history, measured in the page (MutationObserver on the history, plus one animation frame for the paint). *visible*: the line is on screen, first as pending (stored in IndexedDB, not yet sent); *confirmed*: the server has stored it (POST answered, pending mark gone). New events are written to IndexedDB with strict durability before they show. Browser and server share the 2-core machine.',
      '',
      '| action | n | p50 | p95 | max | mean |',
      '|---|---|---|---|---|---|',
      row('template click → visible', result.template.visible),
      row('template click → confirmed by the server', result.template.confirmed),
      row('free text Enter → visible', result.freeText.visible),
      row('free text Enter → confirmed by the server', result.freeText.confirmed),
      '',
      'Run: `npx tsx bench/console-latency.bench.ts` (BENCH_CLICKS, BENCH_GAP_MS, BENCH_PORT, BENCH_WEB_DIR).',
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'console-latency.md'), md);
    log(md);
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(server.dataDir, { recursive: true, force: true });
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
