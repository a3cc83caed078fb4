import type { Page } from '@playwright/test';
import type { Cruise, Lowering } from '@bathylog/shared';
import { type ApiClient, apiLogin, createLowering, createUser } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';
import { sessionOn } from './support/session';

/**
 * The dive report (docs/review-and-gis.md#dive-report) of the demo dive S0492 and the cruise
 * report of FKt230303, opened as admin with every tile server unreachable (a ship offline), then
 * printed to PDF on A4 and Letter by Chromium. The checklists and completeness sections read
 * routes that may not exist on this server: they then say "Not recorded for this dive".
 */

const demoLoweringId = '6410e4e06594c9977675e47a';

/** Pages of a PDF file: its page objects (`/Type /Page`, not the `/Pages` tree nodes). */
function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}

async function cutTheInternet(page: Page, baseURL: string) {
  const own = new URL(baseURL).origin;
  await page.context().route(
    (url) => url.origin !== own,
    (route) => route.abort('internetdisconnected'),
  );
}

async function openReport(page: Page, baseURL: string) {
  await cutTheInternet(page, baseURL);
  await page.goto(`/report/lowering/${demoLoweringId}`);
  const report = page.getByTestId('dive-report');
  await expect(report.getByRole('heading', { level: 1 })).toHaveText('Dive Report: S0492', { timeout: 30_000 });
  // The map's track and the depth chart are drawn once the track is there.
  await expect(report.locator('.depth-chart-plot')).toHaveAttribute('data-points', /^\d+$/, { timeout: 30_000 });
  await expect(report.locator('.dive-map .leaflet-overlay-pane canvas').first()).toBeVisible();
  return report;
}

test.describe('dive report', () => {
  test('S0492: header, map, depth profile, metrics, milestones, categories, thumbnails; prints to A4 and Letter', async ({
    page,
    baseURL,
    adminApi,
  }, testInfo) => {
    test.setTimeout(120_000);
    const lowering = await adminApi.get<Lowering>(`lowerings/${demoLoweringId}`);
    const report = await openReport(page, baseURL!);

    const header = report.getByTestId('report-header');
    await expect(header.getByRole('row', { name: /Lowering ID/ })).toContainText('S0492');
    await expect(header.getByRole('row', { name: /^Cruise/ })).toContainText('FKt230303');
    await expect(header.getByRole('row', { name: /Location/ })).toContainText(lowering.lowering_location);
    await expect(header.getByRole('row', { name: /Description/ })).toContainText('Launch target location');
    // The record's own max depth (its stats), named apart from the navigation's below.
    await expect(header.getByRole('row', { name: /^Max depth \(lowering record\)/ })).toContainText('2011.54 m');

    // The metrics, checked against the API's own figures.
    const metrics = await adminApi.get<{
      events_total: number;
      samples_total: number;
      events_by_category: Record<string, number>;
      max_depth: number;
      bottom_mean_depth: number;
      bottom_distance: number;
    }>(`lowerings/${demoLoweringId}/metrics`);
    const table = report.getByTestId('report-metrics');
    await expect(table.getByRole('row', { name: /^Events \d+$/ })).toHaveText(`Events${metrics.events_total}`);
    await expect(table.getByRole('row', { name: /^Samples \d+$/ })).toHaveText(`Samples${metrics.samples_total}`);
    expect(metrics.samples_total).toBeGreaterThan(0);
    await expect(table.getByRole('row', { name: /^Duration: On Bottom/ })).toContainText('hour');
    // Each depth names where it comes from; the distance names its method.
    await expect(table.getByRole('row', { name: /^Max depth/ })).toHaveText(
      `Max depth (navigation)${metrics.max_depth.toFixed(1)} m`,
    );
    await expect(table.getByRole('row', { name: /^Mean depth on bottom/ })).toHaveText(
      `Mean depth on bottom (navigation)${metrics.bottom_mean_depth.toFixed(1)} m`,
    );
    await expect(table.getByRole('row', { name: /^Distance on bottom/ })).toHaveText(
      `Distance on bottom (filtered track: 120 s median, 15 m steps)${(metrics.bottom_distance / 1000).toFixed(2)} km`,
    );

    // The milestones table: Off Deck, the four set milestones, On Deck.
    const milestones = report.getByTestId('report-milestones').locator('tbody tr');
    await expect(milestones).toHaveCount(6);
    await expect(milestones.nth(0)).toContainText(lowering.start_ts);
    await expect(milestones.nth(2)).toContainText('On Bottom');
    // Milestone markers on the map, labelled.
    await expect(report.locator('.dive-map .leaflet-tooltip')).toHaveCount(6);
    await expect(report.locator('.dive-map .leaflet-tooltip').nth(2)).toHaveText('On Bottom');

    // Events per category, from the same figures.
    const categories = report.getByTestId('report-categories').locator('tbody tr');
    await expect(categories).toHaveCount(Object.keys(metrics.events_by_category).length);
    await expect(categories.first()).toHaveText(`ASNAP${metrics.events_by_category.ASNAP}`);

    // Sections of other parts of the server: their data, or the quiet note when a dive has none.
    for (const id of ['checklists', 'completeness']) {
      const section = report.getByTestId(`report-${id}`);
      await expect(section.locator('table, p').first()).toBeVisible();
      if ((await section.locator('table').count()) === 0)
        await expect(section).toContainText('Not recorded for this dive');
    }

    // A frame grab belongs to a milestone only when taken within 2 min of it: S0492 has none near
    // Off Deck or On Deck (the first picture is an hour and a half later), one near Off Bottom.
    const strip = report.getByTestId('report-thumbnails');
    await expect(strip.getByRole('heading')).toHaveText('Frame grabs at milestones (within 2 min) and samples');
    const captions = strip.locator('figcaption');
    await expect(captions.first()).toHaveText('Off Deck — none within 2 min');
    await expect(captions.nth(3)).toHaveText('Off Bottom — 07:34:46');
    await expect(strip.getByRole('img', { name: 'Off Bottom — 07:34:46' })).toBeVisible();
    await expect(captions.nth(5)).toHaveText('On Deck — none within 2 min');

    // The thumbnails strip: server thumbnails only (w=), loaded lazily.
    const thumbs = report.getByTestId('report-thumbnails').locator('img');
    await expect(thumbs.first()).toBeVisible();
    // One per sample event and at most one per milestone (six set on S0492).
    expect(await thumbs.count()).toBeGreaterThanOrEqual(metrics.samples_total);
    expect(await thumbs.count()).toBeLessThanOrEqual(metrics.samples_total + 6);
    for (const src of await thumbs.evaluateAll((imgs) =>
      imgs.map((i) => (i as HTMLImageElement).getAttribute('src')!),
    )) {
      expect(src).toMatch(/\?w=320$/);
    }
    await expect(thumbs.first()).toHaveAttribute('loading', 'lazy');

    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('dive-report.png'), fullPage: true });

    // Print: every thumbnail loaded first (the strip is lazy), then A4 and Letter.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect
      .poll(() => thumbs.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)), {
        timeout: 30_000,
      })
      .toBe(true);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.app-navbar')).toBeHidden();
    await expect(page.locator('.app-footer')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await page.screenshot({ path: testInfo.outputPath('dive-report-print.png'), fullPage: true });
    for (const format of ['A4', 'Letter'] as const) {
      const pdf = await page.pdf({ format, printBackground: true });
      await testInfo.attach(`S0492-${format}.pdf`, { body: pdf, contentType: 'application/pdf' });
      const pages = pdfPageCount(pdf);
      expect(pages, `${format} pages`).toBeGreaterThan(1);
      expect(pages, `${format} pages`).toBeLessThan(30);
    }
  });

  test('the lowering card and the review breadcrumb lead to it; Print calls the browser', async ({ page, baseURL }) => {
    await cutTheInternet(page, baseURL!);
    await page.goto(`/review_map/${demoLoweringId}`);
    await page.getByRole('button', { name: 'Map' }).click();
    await page.getByRole('link', { name: 'Dive Report' }).click();
    await expect(page).toHaveURL(new RegExp(`/report/lowering/${demoLoweringId}$`));
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

    await page.getByRole('link', { name: /Back to/ }).click();
    const card = page.locator('section[aria-labelledby="lowering-card-title"]');
    await expect(card.getByRole('heading')).toHaveText('Lowering: S0492');
    const summary = card.getByTestId('lowering-metrics');
    // The record's max depth (its stats) and the depth measured from the nav data are told apart.
    await expect(card).toContainText('Max depth (lowering record): 2011.54');
    await expect(summary).toContainText('Max depth (navigation):');
    await expect(summary).toContainText('Distance on bottom (filtered track: 120 s median, 15 m steps):');
    await expect(summary).toContainText('Samples:');
    await summary.getByRole('button', { name: 'Dive metrics' }).click();
    await expect(summary.getByRole('table')).toContainText('Category: ASNAP');
    await summary.getByRole('link', { name: 'Dive Report' }).click();
    await expect(page).toHaveURL(new RegExp(`/report/lowering/${demoLoweringId}$`));
  });

  test('cruise report: one line per dive with their sums; prints', async ({ page, baseURL, adminApi }, testInfo) => {
    await cutTheInternet(page, baseURL!);
    const cruise = (await adminApi.get<Cruise[]>('cruises')).find((c) => c.cruise_id === 'FKt230303')!;
    await page.goto(`/report/cruise/${cruise.id}`);
    const report = page.getByTestId('cruise-report');
    await expect(report.getByRole('heading', { level: 1 })).toHaveText('Cruise Report: FKt230303');
    const rows = report.getByTestId('report-lowerings').locator('tbody tr');
    await expect(rows.first()).toContainText('S0492');
    await expect(rows.last()).toContainText('Total');
    await expect(report.getByTestId('report-metrics')).toContainText('Category: ASNAP');
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('cruise-report.png'), fullPage: true });
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdfPageCount(pdf)).toBeGreaterThanOrEqual(1);
    await rows.first().getByRole('link', { name: 'S0492' }).click();
    await expect(page).toHaveURL(new RegExp(`/report/lowering/${demoLoweringId}$`));
  });
});

test.describe.serial('dive report with access control', () => {
  let server: StartedServer;
  let admin: ApiClient;
  let outsider: ApiClient;
  let lowering: string;

  test.beforeAll(async () => {
    server = await startServer({ mode: 'production', config: { useAccessControl: true } });
    admin = await apiLogin('admin', 'demo', server.url);
    const member = await createUser(admin, { roles: ['event_watcher'] });
    const o = await createUser(admin, { roles: ['event_watcher'] });
    outsider = await apiLogin(o.username, o.password, server.url);
    lowering = await createLowering(admin, {
      lowering_id: 'SECRET1',
      start_ts: '2023-03-14T00:00:00.000Z',
      stop_ts: '2023-03-15T00:00:00.000Z',
      lowering_location: 'Kane FZ',
    });
    await admin.patch(`lowerings/${lowering}/permissions`, { add: [member.id] });
  });

  test.afterAll(async () => {
    await Promise.all([admin?.dispose(), outsider?.dispose()]);
    await server?.stop();
  });

  test('an event_watcher off the access list is refused the report and its metrics', async ({ page, context }) => {
    await sessionOn(context, server.url, outsider);
    await page.goto(`${server.url}/report/lowering/${lowering}`);
    await expect(page.getByRole('alert')).toContainText('User not authorized to retrieve this lowering');
    await expect(page.getByTestId('dive-report')).toHaveCount(0);
    const res = await page.request.get(`${server.url}/sealog-server/api/v1/lowerings/${lowering}/metrics`, {
      headers: { Authorization: `Bearer ${outsider.token}` },
    });
    expect(res.status()).toBe(401);
  });
});
