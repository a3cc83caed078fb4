/**
 * Review screens benchmark (docs/review-and-gis.md): a dive of 20,000 events, every one with navigation and a
 * quarter (5,000) with frame grabs from two cameras (bench/synthetic-events.ts), reviewed in a
 * real headless Chromium against the real server.
 *
 * Figures (not a test: it asserts nothing), written to bench/results/review-screens.json and .md:
 *  - per screen (replay, map, gallery): time from navigation start to interactive (the selected
 *    event's line and header on screen; gallery: the first thumbnail decoded); for replay and map
 *    also until the whole filtered list is loaded (the slider enabled: the first page of events
 *    shows before it), and for the map until the whole trackline is drawn with the pin;
 *  - replay steps: time from a step (↓ key, the same selection change a play tick makes) to the
 *    next event's header, list line and data cards painted;
 *  - map slider steps: time from the slider's change being applied (after its 250 ms rest) to the
 *    header, list and pin painted;
 *  - gallery: bytes transferred for one page of 80 thumbnails, against the same 80 originals.
 *
 * Needs a built client: BENCH_WEB_DIR, else apps/web/dist. Env: BENCH_PORT (8961), BENCH_STEPS (30).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database.js';
import { loadSynthetic } from './synthetic-events.js';
import { repoRoot, resultsDir, log, sleep, stats, type Stats, launchChromium, startBenchServer } from './support';

const root = repoRoot;
const port = Number(process.env.BENCH_PORT ?? 8961);
const steps = Number(process.env.BENCH_STEPS ?? 30);
const diveEvents = 20_000;
const galleryPage = 80;

/** The synthetic dive in a fresh data folder, with full-HD originals for the first gallery page. */
async function prepareData(): Promise<{ dataDir: string; loweringId: string; imageBytes: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-review-'));
  const database = openDatabase({ url: null, sqlitePath: path.join(dataDir, 'bathylog.sqlite') });
  await migrateToLatest(database);
  log(`loading ${diveEvents.toLocaleString('en')} events with nav and frame grabs`);
  const plan = await loadSynthetic(database.db, {
    events: diveEvents,
    bigLoweringEvents: diveEvents,
    loweringEvents: 3600,
    loweringsPerCruise: 30,
  });
  const first = await database.db
    .selectFrom('event_aux_data')
    .innerJoin('events', 'events.id', 'event_aux_data.event_id')
    .select(['event_aux_data.data_array'])
    .where('event_aux_data.data_source', '=', 'framegrabber')
    .orderBy('events.ts')
    .limit(galleryPage + 10)
    .execute();
  await database.close();
  // Real frame grabs when a folder of them is at hand (BENCH_FRAME_GRABS; by default the folder of
  // camera pictures kept beside the repository on the benchmark machine), scaled to 1920x1080 as a
  // camera writes them; otherwise plain frames of that size.
  const images = path.join(dataDir, 'files', 'images');
  mkdirSync(images, { recursive: true });
  const frameGrabs = process.env.BENCH_FRAME_GRABS ?? path.join(root, '..', 'shared', 'reference', 'screens');
  const refs = [0, 1, 2, 3, 4].map((i) => path.join(frameGrabs, `vehicle-framecapture-${i}.jpg`));
  const sources = await Promise.all(
    refs.map((file) =>
      existsSync(file)
        ? sharp(file).resize(1920, 1080, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer()
        : sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#204060' } })
            .jpeg()
            .toBuffer(),
    ),
  );
  let imageBytes = 0;
  first.forEach((row, i) => {
    const items = JSON.parse(row.data_array) as Array<{ data_value: string }>;
    for (let k = 1; k < items.length; k += 2) {
      const body = sources[(i + k) % sources.length]!;
      writeFileSync(path.join(images, path.basename(items[k]!.data_value)), body);
      if (k === 1 && i < galleryPage) imageBytes += body.length;
    }
  });
  return { dataDir, loweringId: plan.bigLoweringId, imageBytes };
}

async function startServer(web: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const configFile = path.join(dataDir, 'bench-config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      client: { imagesAuxDataSources: ['framegrabber'], positionDataSources: ['vehicleRealtimeNavData'] },
    }),
  );
  const env = { BATHYLOG_MODE: 'production', BATHYLOG_ADMIN_PASSWORD: 'bench-admin', BATHYLOG_CONFIG: configFile };
  return startBenchServer({ port, web, dataDir, env });
}

/** Page-side: performance.now() after the next frame. */
const nextFrame = 'new Promise((r) => requestAnimationFrame(() => r(performance.now())))';

/** ms from navigation start until `selector` is on screen, plus one frame for the paint. */
async function timeToSelector(page: Page, url: string, selector: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForSelector(selector, { state: 'visible', timeout: 60_000 });
  return page.evaluate(nextFrame) as Promise<number>;
}

/**
 * Page-side: performs `act`, then resolves with the ms until the header shows another event and
 * a frame has painted. As source text (tsx helpers do not exist in the page).
 */
const stepTiming = `async ({ act, delay }) => {
  const header = document.querySelector('[data-testid="review-event-header"]');
  const before = header.textContent;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no step within 10 s')), 10000);
    const observer = new MutationObserver(async () => {
      if (header.textContent === before) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve((await frame()) - t0 - delay);
    });
    observer.observe(header, { childList: true, subtree: true, characterData: true });
    const t0 = performance.now();
    if (act === 'down') window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    else {
      const slider = document.querySelector('input[type="range"][aria-label="Event"]');
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      set.call(slider, String(Number(slider.value) + 1));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      slider.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
}`;

async function step(page: Page, act: 'down' | 'slider'): Promise<number> {
  return page.evaluate(
    `(${stepTiming})(${JSON.stringify({ act, delay: act === 'slider' ? 250 : 0 })})`,
  ) as Promise<number>;
}

/**
 * BENCH_PROFILE=1: where one navigation of each screen spends its time, logged (not written to
 * the results): each API request (start, end, bytes on the wire) and the main thread's long tasks.
 */
async function profile(page: Page, url: string, loweringId: string): Promise<void> {
  await page.addInitScript(`
    window.__longTasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
      .observe({ type: 'longtask', buffered: true });
  `);
  const screens: Array<[string, string]> = [
    ['replay', '[data-testid="event-line"].active'],
    ['map', 'img.leaflet-marker-icon'],
    ['gallery', '[data-testid="gallery-image"] img'],
  ];
  for (const [screen, selector] of screens) {
    const done = await timeToSelector(page, `${url}/review_${screen}/${loweringId}`, selector);
    const report = (await page.evaluate(`({
      requests: performance.getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/') || e.name.includes('.js'))
        .map((e) => [e.name.split('/').slice(-2).join('/').slice(0, 90), Math.round(e.startTime), Math.round(e.responseEnd), e.encodedBodySize]),
      longTasks: window.__longTasks,
    })`)) as { requests: unknown[]; longTasks: unknown[] };
    log(`profile ${screen}: done at ${Math.round(done)} ms`);
    for (const r of report.requests) log(`  request ${JSON.stringify(r)}`);
    log(`  long tasks [start, ms]: ${JSON.stringify(report.longTasks)}`);
  }
}

async function main() {
  const web = process.env.BENCH_WEB_DIR ?? path.join(root, 'apps/web/dist');
  if (!existsSync(path.join(web, 'index.html')))
    throw new Error(`no built client in ${web}: npm run build -w apps/web`);
  const { dataDir, loweringId, imageBytes } = await prepareData();
  log('starting the server');
  const server = await startServer(web, dataDir);
  const browser = await launchChromium();
  try {
    const res = await fetch(`${server.url}/sealog-server/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'bench-admin' }),
    });
    const login = (await res.json()) as { token: string; id: string };
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([
      { name: 'token', value: login.token, url: server.url },
      { name: 'id', value: login.id, url: server.url },
    ]);
    const page = await context.newPage();
    // Warm the server's caches and the browser's code cache once, as a returning user has them.
    await timeToSelector(page, `${server.url}/review_replay/${loweringId}`, '[data-testid="event-line"].active');

    if (process.env.BENCH_PROFILE) await profile(page, server.url, loweringId);
    const interactive: Record<string, number[]> = {
      replay: [],
      replayComplete: [],
      map: [],
      mapComplete: [],
      mapTrack: [],
      gallery: [],
    };
    const sliderReady = 'input[type="range"][aria-label="Event"]:not([disabled])';
    for (let i = 0; i < 3; i++) {
      interactive.replay!.push(
        await timeToSelector(page, `${server.url}/review_replay/${loweringId}`, '[data-testid="event-line"].active'),
      );
      await page.waitForSelector(sliderReady, { timeout: 60_000 });
      interactive.replayComplete!.push((await page.evaluate(nextFrame)) as number);
      interactive.map!.push(
        await timeToSelector(page, `${server.url}/review_map/${loweringId}`, '[data-testid="event-line"].active'),
      );
      await page.waitForSelector(sliderReady, { timeout: 60_000 });
      interactive.mapComplete!.push((await page.evaluate(nextFrame)) as number);
      await page.waitForSelector('img.leaflet-marker-icon', { timeout: 60_000 });
      interactive.mapTrack!.push((await page.evaluate(nextFrame)) as number);
      interactive.gallery!.push(
        await timeToSelector(page, `${server.url}/review_gallery/${loweringId}`, '[data-testid="gallery-image"] img'),
      );
    }
    log(`interactive: ${JSON.stringify(interactive)}`);

    await page.goto(`${server.url}/review_replay/${loweringId}`);
    await page.waitForSelector(sliderReady);
    const replaySteps: number[] = [];
    for (let i = 0; i < steps; i++) replaySteps.push(await step(page, 'down'));
    log(`replay steps: ${JSON.stringify(stats(replaySteps))}`);

    await page.goto(`${server.url}/review_map/${loweringId}`);
    await page.waitForSelector('img.leaflet-marker-icon', { timeout: 60_000 });
    await page.waitForSelector(sliderReady);
    const sliderSteps: number[] = [];
    for (let i = 0; i < steps; i++) sliderSteps.push(await step(page, 'slider'));
    log(`slider steps: ${JSON.stringify(stats(sliderSteps))}`);

    // One gallery page of 80 thumbnails: every image byte the page receives.
    const gallery = await context.newPage();
    await gallery.goto(`${server.url}/review_gallery/${loweringId}`);
    await gallery.waitForSelector('[data-testid="gallery-image"] img');
    let thumbBytes = 0;
    let thumbCount = 0;
    gallery.on('response', (r) => {
      if (!r.url().includes('/files/images/')) return;
      void r.body().then((b) => {
        thumbBytes += b.length;
        thumbCount += 1;
      });
    });
    await gallery.getByLabel('Images/Page').selectOption(String(galleryPage));
    await gallery.waitForSelector(`.tab-pane.active [data-testid="gallery-image"]:nth-child(${galleryPage})`);
    // Thumbnails load lazily: scroll through the page as a user looking at all 80 would.
    for (let i = 0; i < 12; i++) {
      await gallery.evaluate('window.scrollBy(0, 600)');
      await sleep(250);
    }
    await gallery.waitForFunction(
      `Array.from(document.querySelectorAll('.tab-pane.active [data-testid="gallery-image"] img')).filter((img) => img.complete).length >= ${galleryPage}`,
      undefined,
      { timeout: 60_000 },
    );
    await sleep(500);
    const thumbnailsOnPage = await gallery.locator('.tab-pane.active [data-testid="gallery-image"] img').count();

    const result = {
      date: new Date().toISOString(),
      dive: { events: diveEvents, frameGrabEvents: diveEvents / 4, images: diveEvents / 2 },
      interactiveMs: Object.fromEntries(Object.entries(interactive).map(([k, v]) => [k, stats(v)])),
      replayStepMs: stats(replaySteps),
      sliderStepMs: stats(sliderSteps),
      gallery: {
        thumbnailsOnPage,
        responses: thumbCount,
        // The first 16 thumbnails were already there (default page size); the page holds 80.
        bytesPerThumbnail: Math.round(thumbBytes / Math.max(1, thumbCount)),
        pageOf80Bytes: Math.round((thumbBytes / Math.max(1, thumbCount)) * galleryPage),
        originalsOf80Bytes: imageBytes,
      },
      machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => Math.round(l * 10) / 10) },
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'review-screens.json'), `${JSON.stringify(result, null, 2)}\n`);
    const row = (name: string, s: Stats) => `| ${name} | ${s.p50} | ${s.p95} | ${s.max} | ${s.n} |`;
    const md = [
      '# Review screens benchmark',
      '',
      `${result.date}, dive of ${diveEvents.toLocaleString('en')} events (all with nav, ${(diveEvents / 4).toLocaleString('en')} frame grabs × 2 cameras), headless Chromium, ${result.machine.cpus} cores, load ${result.machine.load.join(' ')}.`,
      '',
      '| Measure (ms) | p50 | p95 | max | n |',
      '|---|---|---|---|---|',
      row('Replay interactive (from navigation)', result.interactiveMs.replay!),
      row('Replay whole list loaded: slider and play enabled (from navigation)', result.interactiveMs.replayComplete!),
      row('Map interactive (from navigation)', result.interactiveMs.map!),
      row('Map whole list loaded: slider enabled (from navigation)', result.interactiveMs.mapComplete!),
      row('Map trackline of every point drawn (from navigation)', result.interactiveMs.mapTrack!),
      row('Gallery interactive (first thumbnail)', result.interactiveMs.gallery!),
      row('Replay step (next event painted)', result.replayStepMs),
      row('Map slider step (after the 250 ms rest)', result.sliderStepMs),
      '',
      `Gallery page of ${galleryPage} thumbnails: ${(result.gallery.pageOf80Bytes / 1e6).toFixed(2)} MB (${result.gallery.bytesPerThumbnail.toLocaleString('en')} B each); the same ${galleryPage} originals (1920×1080 JPEG): ${(imageBytes / 1e6).toFixed(1)} MB.`,
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'review-screens.md'), md);
    process.stdout.write(`\n${md}\n`);
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await sleep(500);
    if (!process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
