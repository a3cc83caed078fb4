import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createLowering, createUser } from './support/api';
import { repoRoot } from './support/server';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';
import type { LogEvent } from '@bathylog/shared';

/**
 * The review screens on the demo dive S0492 (docs/screens.md#review-screens):
 * replay, map and gallery, the shared store, GIS downloads and thumbnails. Runs as admin on the
 * shared demo server; the only write is a comment on a lowering this file creates.
 */

const demoDir = path.join(repoRoot, 'apps/server/demo');
const loweringRecord = (() => {
  const raw = JSON.parse(readFileSync(path.join(demoDir, 'FKt230303_S0492_loweringRecord.json'), 'utf8')) as unknown;
  return (Array.isArray(raw) ? raw[0] : raw) as { id: string; lowering_id: string };
})();
const diveEvents = (
  JSON.parse(readFileSync(path.join(demoDir, 'FKt230303_S0492_eventOnlyExport.json'), 'utf8')) as LogEvent[]
).sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
const S0492 = loweringRecord.id;
const withoutAsnap = diveEvents.filter((e) => !/asnap/i.test(e.event_value));

const header = (page: Page) => page.getByTestId('review-event-header');
const activeLine = (page: Page) => page.locator('[data-testid="event-line"].active');
const lines = (page: Page) => page.getByTestId('event-line');
const crumbMode = (page: Page, mode: string) =>
  page.getByRole('navigation', { name: 'breadcrumb' }).getByRole('button', { name: mode, exact: true });
const replayState = (page: Page) => page.getByTestId('replay-state');
const lastPageNumber = async (pager: Locator) =>
  Number(await pager.locator('.page-item:not(:has([aria-label])) >> nth=-1').innerText());

async function openReplay(page: Page) {
  await page.goto(`/review_replay/${S0492}`);
  // The whole dive (4,540 events) loads first: allow for a busy CI machine.
  await expect(header(page)).toContainText(diveEvents[0]!.event_value, { timeout: 30_000 });
  await expect(activeLine(page)).toContainText(diveEvents[0]!.ts);
  // The first page shows before the whole list; the slider is enabled once the whole list is there.
  await expect(page.getByRole('slider', { name: 'Event' })).toBeEnabled({ timeout: 30_000 });
}

test.describe('review replay', () => {
  test('loads S0492 with breadcrumb, event header, data cards, controls, list and filter', async ({ page }) => {
    await openReplay(page);
    const crumb = page.getByRole('navigation', { name: 'breadcrumb' });
    await expect(crumb.getByRole('link', { name: 'FKt230303' })).toBeVisible();
    await expect(crumb.getByTestId('breadcrumb-lowering')).toHaveText('S0492');
    // The mode menu speaks the lowering card's words (docs/screens.md#breadcrumb).
    await expect(crumb.getByRole('button', { name: 'Replay View', exact: true })).toBeVisible();
    await crumb.getByRole('button', { name: 'Replay View' }).click();
    await expect(crumb.locator('.dropdown-menu').getByRole('link')).toHaveText([
      'Map View',
      'Gallery View',
      'Dive Report',
    ]);
    await page.keyboard.press('Escape');
    await expect(header(page)).toContainText(`${diveEvents[0]!.ts}`);
    await expect(page.getByTestId('aux-data-card').first()).toContainText('Latitude');
    await expect(page.getByTestId('replay-start-label')).toHaveText('00:00:00');
    await expect(page.getByTestId('replay-duration-label')).toHaveText('10:16:53');
    for (const name of ['To first event', 'Fast reverse', 'Play', 'Fast forward', 'To last event'])
      await expect(page.getByRole('button', { name, exact: true })).toBeEnabled();
    await expect(page.getByTestId('filtered-events')).toContainText('Filtered Events');
    await expect(lines(page)).toHaveCount(10);
    await expect(page.getByText('Event Filter')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Filtered events pages' })).toBeVisible();
    await expect(page.getByTestId('replay-map-card').getByRole('button', { name: 'Map View' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await expectAccessible(page);
  });

  test('state machine: play advances, ff/fr step, the end pauses, the slider pauses', async ({ page }) => {
    await openReplay(page);
    await expect(replayState(page)).toHaveText('Paused');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(replayState(page)).toHaveText('Playing');
    await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await expect(activeLine(page)).toContainText(diveEvents[1]!.ts, { timeout: 10_000 });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(replayState(page)).toHaveText('Paused');

    await page.getByRole('button', { name: 'Fast forward' }).click();
    await expect(replayState(page)).toHaveText('Fast forward');
    await expect(activeLine(page)).toContainText(diveEvents[2]!.ts, { timeout: 10_000 });
    await page.getByRole('button', { name: 'Fast reverse' }).click();
    await expect(replayState(page)).toHaveText('Fast reverse');
    // Back to the first event: reaching that end pauses.
    await expect(activeLine(page)).toContainText(diveEvents[0]!.ts, { timeout: 10_000 });
    await expect(replayState(page)).toHaveText('Paused');

    // Second-to-last, then fast-forward: one step reaches the last event and pauses.
    await page.getByRole('button', { name: 'To last event' }).click();
    await expect(header(page)).toContainText(diveEvents.at(-1)!.ts);
    await page.keyboard.press('ArrowUp');
    await expect(header(page)).toContainText(diveEvents.at(-2)!.ts);
    await page.getByRole('button', { name: 'Fast forward' }).click();
    await expect(header(page)).toContainText(diveEvents.at(-1)!.ts, { timeout: 10_000 });
    await expect(replayState(page)).toHaveText('Paused');

    // Any slider use pauses.
    await page.getByRole('button', { name: 'To first event' }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(replayState(page)).toHaveText('Playing');
    const slider = page.getByRole('slider', { name: 'Event' });
    await slider.focus();
    await page.keyboard.press('End');
    await expect(replayState(page)).toHaveText('Paused');
    await expect(header(page)).toContainText(diveEvents.at(-1)!.ts);
  });

  test('keyboard: ↓/↑ change the event, →/← the page; ignored in inputs', async ({ page }) => {
    await openReplay(page);
    await page.keyboard.press('ArrowDown');
    await expect(activeLine(page)).toContainText(diveEvents[1]!.ts);
    await page.keyboard.press('ArrowRight');
    await expect(activeLine(page)).toContainText(diveEvents[10]!.ts);
    await expect(header(page)).toContainText(diveEvents[10]!.event_value);
    await page.keyboard.press('ArrowLeft');
    await expect(activeLine(page)).toContainText(diveEvents[0]!.ts);
    await page.getByLabel('Author').focus();
    await page.keyboard.press('ArrowDown');
    await expect(activeLine(page)).toContainText(diveEvents[0]!.ts);
  });

  test('Hide ASNAP and the filter change the list; the filter stays when switching mode', async ({ page }) => {
    await openReplay(page);
    const pager = page.getByRole('navigation', { name: 'Filtered events pages' });
    expect(await lastPageNumber(pager)).toBe(Math.ceil(diveEvents.length / 10));
    await page.getByLabel('Hide ASNAP').check();
    await expect(activeLine(page)).toContainText(withoutAsnap[0]!.ts);
    await expect.poll(() => lastPageNumber(pager)).toBe(Math.ceil(withoutAsnap.length / 10));
    await expect(lines(page).filter({ hasText: 'ASNAP' })).toHaveCount(0);

    await page.getByLabel('Full text').fill('SAMPLE');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(lines(page).first()).toContainText(/sample/i);
    const count = await lines(page).count();
    for (let i = 0; i < count; i++) await expect(lines(page).nth(i)).toContainText(/sample/i);

    // A start before the lowering is clamped to its start.
    await page.getByLabel('Start Date/Time (UTC)').fill('2020-01-01 00:00:00');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByLabel('Start Date/Time (UTC)')).toHaveValue('2023-03-14 22:15:39.479');

    await crumbMode(page, 'Replay View').click();
    await page.getByRole('link', { name: 'Map View' }).click();
    await expect(page).toHaveURL(new RegExp(`/review_map/${S0492}$`));
    await expect(page.getByLabel('Full text')).toHaveValue('SAMPLE');
    await expect(page.getByLabel('Hide ASNAP')).toBeChecked();
    await expect(lines(page).first()).toContainText(/sample/i);
  });

  test("a filter wider than the dive is clamped to it to the millisecond: the dive's last event stays", async ({
    page,
  }) => {
    await openReplay(page);
    await page.getByLabel('Start Date/Time (UTC)').fill('2020-01-01 00:00:00');
    await page.getByLabel('Stop Date/Time (UTC)').fill('2030-01-01 00:00:00');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByLabel('Stop Date/Time (UTC)')).toHaveValue('2023-03-15 08:32:32.654');
    await expect(page.getByLabel('Start Date/Time (UTC)')).toHaveValue('2023-03-14 22:15:39.479');
    const last = diveEvents.at(-1)!;
    expect(last.ts).toBe('2023-03-15T08:32:32.654Z');
    await page.getByRole('button', { name: 'To last event', exact: true }).click();
    await expect(header(page)).toContainText(last.ts);
    await expect(activeLine(page)).toContainText(last.ts);
  });

  test('switching mode keeps the selected event', async ({ page }) => {
    await openReplay(page);
    await lines(page).nth(3).locator('.event-line-text').click();
    await expect(header(page)).toContainText(diveEvents[3]!.ts);
    await crumbMode(page, 'Replay View').click();
    await page.getByRole('link', { name: 'Map View' }).click();
    await expect(page.getByTestId('review-map')).toBeVisible();
    await expect(header(page)).toContainText(diveEvents[3]!.ts);
    await expect(activeLine(page)).toContainText(diveEvents[3]!.ts);
    await crumbMode(page, 'Map View').click();
    await page.getByRole('link', { name: 'Replay View' }).click();
    await expect(header(page)).toContainText(diveEvents[3]!.ts);
  });
});

test.describe('review breadcrumb', () => {
  test("the cruise's link opens the cruise menu on that cruise and lowering", async ({ page }) => {
    await page.goto(`/review_gallery/${S0492}`);
    await page.getByTestId('breadcrumb-cruise').click();
    await expect(page).toHaveURL(/\/cruise_menu\?cruise=/);
    await expect(page.getByRole('region', { name: /^Cruise: / }).getByRole('heading')).toHaveText('Cruise: FKt230303');
    await expect(page.getByRole('region', { name: /^Lowering: / }).getByRole('heading')).toHaveText(
      `Lowering: ${loweringRecord.lowering_id}`,
    );
  });
});

test.describe('review map', () => {
  test('loads with the 480 px map, track, pin, slider and list with View Details; no console error without tiles', async ({
    page,
  }) => {
    // An axe run and the milestones editor's 4,540-point chart and map: slow on a busy machine.
    test.setTimeout(150_000);
    await page.goto(`/review_map/${S0492}`);
    await expect(header(page)).toContainText(diveEvents[0]!.event_value);
    const map = page.getByTestId('review-map-card').locator('.leaflet-container');
    await expect(map).toBeVisible();
    expect(Math.round((await map.boundingBox())!.height)).toBe(480);
    await expect(page.locator('.leaflet-control-layers')).toBeVisible();
    // Two raster base layers and one WMS base layer (docs/screens.md#map-layers).
    await page.locator('.leaflet-control-layers').hover();
    await expect(page.locator('.leaflet-control-layers-base label')).toHaveText([
      /Esri Ocean/,
      /Esri World Imagery/,
      /GMRT Basemap/,
    ]);
    await page.mouse.move(0, 0);
    await expect(page.locator('.leaflet-control-scale')).toBeVisible();
    await expect(page.locator('img.leaflet-marker-icon')).toHaveCount(1);
    await expect(page.getByRole('slider', { name: 'Event' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'View Details' })).toHaveCount(10);
    await page.getByRole('button', { name: 'View Details' }).nth(2).click();
    await expect(page.getByRole('dialog', { name: 'Event Details:' })).toContainText(diveEvents[2]!.ts);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expectAccessible(page);
    // Admins edit the milestones from the map (docs/screens.md#review-map): the editor loads when opened.
    await page.getByRole('button', { name: 'Milestones' }).click();
    const editor = page.getByRole('dialog', { name: `${loweringRecord.lowering_id} - Milestones / Stats` });
    await expect(editor.locator('.dive-map')).toHaveAttribute('data-track-points', /^[1-9]\d*$/, { timeout: 30_000 });
    await editor.getByRole('button', { name: 'Close' }).first().click();
    await expect(editor).toHaveCount(0);
  });
});

test.describe('review map for other roles', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a cruise manager gets the Milestones link and its editor; an event logger does not', async ({
    page,
    context,
    adminApi,
  }) => {
    test.slow();
    const manager = await createUser(adminApi, { roles: ['cruise_manager'] });
    await useSessionOf(context, manager.username, manager.password);
    await page.goto(`/review_map/${S0492}`);
    await expect(page.getByTestId('review-map-card').locator('.leaflet-container')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Milestones' }).click();
    const editor = page.getByRole('dialog', { name: `${loweringRecord.lowering_id} - Milestones / Stats` });
    await expect(editor.locator('.dive-map')).toHaveAttribute('data-track-points', /^[1-9]\d*$/, { timeout: 30_000 });
    await editor.getByRole('button', { name: 'Close' }).first().click();
    await expect(editor).toHaveCount(0);

    const logger = await createUser(adminApi, { roles: ['event_logger'] });
    await useSessionOf(context, logger.username, logger.password);
    await page.goto(`/review_map/${S0492}`);
    await expect(page.getByTestId('review-map-card').locator('.leaflet-container')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Milestones' })).toHaveCount(0);
  });
});

test.describe('review gallery', () => {
  test('tabs per camera, page size, paging with the keyboard, details on click, thumbnails', async ({ page }) => {
    await page.goto(`/review_gallery/${S0492}`);
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveText(['Main Cam', 'Science Cam']);
    const images = page.locator('.tab-pane.active [data-testid="gallery-image"]');
    await expect(images).toHaveCount(16);
    const pager = page.getByRole('navigation', { name: 'Main Cam pages' });
    const firstOnPage1 = await images.first().locator('img').getAttribute('src');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(pager.locator('.page-item.active')).toHaveText(/^3/);
    // The pictures follow 500 ms after the last key.
    await expect(images.first().locator('img')).not.toHaveAttribute('src', firstOnPage1!);
    const firstOnPage3 = await images.first().locator('img').getAttribute('src');
    await page.getByLabel('Images/Page').selectOption('32');
    await expect(images).toHaveCount(32);
    await expect(pager.locator('.page-item.active')).toHaveText(/^2/);
    await expect(images.nth(0).locator('img')).toHaveAttribute('src', firstOnPage3!);
    await page.keyboard.press('ArrowLeft');
    await expect(pager.locator('.page-item.active')).toHaveText(/^1/);

    // A thumbnail is smaller than its original.
    const src = (await images.first().locator('img').getAttribute('src'))!;
    expect(src).toMatch(/\?w=320$/);
    const thumb = await page.request.get(src);
    const original = await page.request.get(src.replace(/\?w=320$/, ''));
    expect(thumb.ok() && original.ok()).toBe(true);
    expect((await thumb.body()).length).toBeLessThan((await original.body()).length);

    await tabs.nth(1).click();
    await expect(page.locator('.tab-pane.active [data-testid="gallery-image"]')).toHaveCount(32);
    await images.first().locator('button').click();
    await expect(page.getByRole('dialog', { name: 'Event Details:' })).toBeVisible();
    await expect(page.getByRole('dialog').getByTestId('event-details-header')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expectAccessible(page);
  });
});

test.describe('review gallery page size', () => {
  test('a page-size change is applied 500 ms after the choice, not before', async ({ page }) => {
    await page.clock.install();
    await page.goto(`/review_gallery/${S0492}`);
    const images = page.locator('.tab-pane.active [data-testid="gallery-image"]');
    await expect(images).toHaveCount(16);
    // Time stands still from here: only runFor moves it.
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await page.getByLabel('Images/Page').selectOption('48');
    await page.clock.runFor(450);
    await expect(images).toHaveCount(16);
    await page.getByLabel('Images/Page').selectOption('64');
    await page.clock.runFor(450);
    // The second choice started the wait again.
    await expect(images).toHaveCount(16);
    await page.clock.runFor(100);
    await expect(images).toHaveCount(64);
  });
});

test.describe('review gallery pager', () => {
  test('a page click is applied 500 ms after the last one, not before', async ({ page }) => {
    await page.clock.install();
    await page.goto(`/review_gallery/${S0492}`);
    const images = page.locator('.tab-pane.active [data-testid="gallery-image"] img');
    await expect(images).toHaveCount(16);
    const firstOnPage1 = await images.first().getAttribute('src');
    const pager = page.getByRole('navigation', { name: 'Main Cam pages' });
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await pager.getByText('2', { exact: true }).click();
    // The pager shows the choice at once; the pictures follow after the rest.
    await expect(pager.locator('.page-item.active')).toHaveText(/^2/);
    await page.clock.runFor(450);
    await expect(images.first()).toHaveAttribute('src', firstOnPage1!);
    await pager.getByText('3', { exact: true }).click();
    await page.clock.runFor(450);
    // The second click started the wait again.
    await expect(images.first()).toHaveAttribute('src', firstOnPage1!);
    await page.clock.runFor(100);
    await expect(images.first()).not.toHaveAttribute('src', firstOnPage1!);
    await expect(pager.locator('.page-item.active')).toHaveText(/^3/);
  });
});

test.describe('review exports and comments', () => {
  test('GeoJSON and KML downloads parse and hold the dive track and every event', async ({ page, adminApi }) => {
    const navCount = diveEvents.length; // every S0492 event has a nav record in the demo
    await openReplay(page);
    const download = async (label: string) => {
      await page.getByRole('button', { name: 'Export these events' }).click();
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: label }).click(),
      ]);
      return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
    };
    const geo = await download('Track & events (GeoJSON)');
    expect(geo.name).toBe('S0492_sealog_gisExport.geojson');
    const fc = JSON.parse(geo.text) as {
      type: string;
      features: Array<{
        geometry: { type: string; coordinates: number[] | number[][] } | null;
        properties: Record<string, unknown>;
      }>;
    };
    expect(fc.type).toBe('FeatureCollection');
    const track = fc.features[0]!;
    expect(track.geometry!.type).toBe('LineString');
    const coords = track.geometry!.coordinates as number[][];
    expect(coords.length).toBeGreaterThan(navCount * 0.9);
    // lon, lat: the dive is in the North Atlantic west of Greenwich.
    expect(coords.every(([lon, lat]) => lon! < 0 && lat! > 0 && Math.abs(lat!) <= 90)).toBe(true);
    const events = fc.features.slice(1);
    expect(events.map((f) => f.properties.id)).toEqual(diveEvents.map((e) => e.id));
    const exported = (
      await adminApi.get<Array<{ id: string }>>(`event_aux_data/bylowering/${S0492}?datasource=vehicleRealtimeNavData`)
    ).length;
    expect(events.filter((f) => f.geometry?.type === 'Point').length).toBeGreaterThan(exported * 0.9);

    const kml = await download('Track & events (KML)');
    expect(kml.name).toBe('S0492_sealog_gisExport.kml');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const marks = Array.from(doc.getElementsByTagName('Placemark'));
      return {
        error: doc.getElementsByTagName('parsererror').length,
        root: doc.documentElement.nodeName,
        lines: marks.filter((m) => m.getElementsByTagName('LineString').length > 0).length,
        ids: marks.map((m) => m.getAttribute('id')).filter((id) => id !== null),
        firstPoint: marks[0]?.getElementsByTagName('coordinates')[0]?.textContent?.split(' ')[0] ?? '',
      };
    }, kml.text);
    expect(parsed).toMatchObject({ error: 0, root: 'kml', lines: 1 });
    expect(parsed.ids).toEqual(diveEvents.map((e) => e.id));
    expect(parsed.firstPoint).toBe(`${coords[0]![0]},${coords[0]![1]}`);
  });

  test('a comment added from a review list shows up in the console history', async ({ page, adminApi }) => {
    // A lowering around this one event only: other specs log events on the same server meanwhile.
    const now = Date.now();
    const lowering = await createLowering(adminApi, {
      lowering_id: `RV${(now % 1e6).toString(36)}`,
      start_ts: new Date(now - 1).toISOString(),
      stop_ts: new Date(now + 1).toISOString(),
    });
    const value = `REVIEWED_${now.toString(36).toUpperCase()}`;
    await adminApi.post('events', {
      event_value: value,
      event_options: [],
      event_free_text: '',
      ts: new Date(now).toISOString(),
    });
    await page.goto(`/review_replay/${lowering}`);
    await expect(header(page)).toContainText(value);
    await activeLine(page).getByRole('button', { name: 'Add Comment' }).click();
    await page.getByRole('dialog', { name: 'Add/Update Comment' }).getByRole('textbox').fill('Seen in review');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(activeLine(page).getByRole('button', { name: 'Edit/View Comment' })).toBeVisible();
    await expect(page.getByTestId('comment-card')).toContainText('Seen in review');

    await page.goto('/');
    const history = page.getByTestId('event-history');
    const line = history.getByTestId('event-line').filter({ hasText: value });
    await expect(line.getByRole('button', { name: 'Edit/View Comment' })).toBeVisible();
  });
});
