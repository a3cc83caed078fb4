import type { Page } from '@playwright/test';
import { apiLogin, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';

/**
 * The public archive (docs/public-archive.md) on a demo server of its own with the archive on: an
 * anonymous visitor (no session) reaches it from the login screen, browses the public dive S0492
 * in replay, map and gallery, sees an embargoed dive as a stub, and opens a dive by its permalink.
 */

test.use({ storageState: { cookies: [], origins: [] } });

test.describe.serial('the public archive as an anonymous visitor', () => {
  let server: StartedServer;
  let admin: ApiClient;
  let s0492 = '';

  test.beforeAll(async () => {
    server = await startServer({ mode: 'demo', config: { publicArchive: true } });
    admin = await apiLogin('admin', 'demo', server.url);
    // The demo publishes its cruise when the archive is on; S0492 inherits it.
    const [cruise] = await admin.get<Array<{ cruise_public?: boolean }>>('cruises?cruise_id=FKt230303');
    expect(cruise!.cruise_public).toBe(true);
    const [dive] = await admin.get<Array<{ id: string }>>('lowerings?lowering_id=S0492');
    s0492 = dive!.id;
    await admin.post('cruises', {
      cruise_id: 'EMB2099',
      start_ts: '2024-01-01T00:00:00.000Z',
      stop_ts: '2024-01-31T00:00:00.000Z',
      cruise_location: 'Secret trench',
      cruise_additional_meta: { cruise_name: 'Embargoed cruise', cruise_vessel: 'R/V Secret', cruise_pi: 'Dr. X' },
      cruise_tags: [],
      cruise_public: true,
      cruise_embargo_until: '2099-01-01T00:00:00.000Z',
    });
    await admin.post('lowerings', {
      lowering_id: 'S0600',
      start_ts: '2024-01-10T00:00:00.000Z',
      stop_ts: '2024-01-11T00:00:00.000Z',
      lowering_location: 'Secret vent',
      lowering_additional_meta: { lowering_name: 'Embargoed dive' },
      lowering_tags: [],
    });
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
  });

  const open = (page: Page, path: string) => page.goto(`${server.url}${path}`);
  const archiveHeader = (page: Page) => page.getByRole('heading', { name: 'Public archive' });

  test('the login screen offers the archive; its cruise menu is read-only under the archive header', async ({
    page,
  }) => {
    await open(page, '/login');
    await page.getByRole('link', { name: 'Browse the public archive' }).click();
    await expect(archiveHeader(page)).toBeVisible();
    await page.getByRole('button', { name: 'Year: 2023' }).click();
    await page.getByRole('button', { name: 'FKt230303' }).click();
    await expect(page.getByRole('heading', { name: 'Cruise: FKt230303' })).toBeVisible();
    await page.getByRole('button', { name: 'S0492' }).click();
    await expect(page.getByRole('heading', { name: 'Lowering: S0492' })).toBeVisible();
    // No menus of a signed-in user, no event logging.
    await expect(page.getByRole('link', { name: 'Event Logging' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('the embargoed cruise and dive are stubs with the date they open', async ({ page }) => {
    await open(page, '/cruise_menu');
    await page.getByRole('button', { name: 'Year: 2024' }).click();
    await page.getByRole('button', { name: 'EMB2099' }).click();
    const cruise = page.getByRole('region', { name: 'Cruise: EMB2099' });
    await expect(cruise.getByText('Embargoed until 2099-01-01 00:00 UTC')).toBeVisible();
    await expect(cruise.getByText('Secret trench')).toHaveCount(0);
    await page.getByRole('button', { name: 'S0600' }).click();
    const dive = page.getByRole('region', { name: 'Lowering: S0600' });
    await expect(dive.getByText('Embargoed until 2099-01-01 00:00 UTC')).toBeVisible();
    await expect(dive.getByRole('button', { name: 'Review' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('replay, map and gallery of the public dive', async ({ page }) => {
    await open(page, `/review_replay/${s0492}`);
    await expect(archiveHeader(page)).toBeVisible();
    await expect(page.getByRole('slider', { name: 'Event' })).toBeEnabled({ timeout: 30_000 });
    await expect(page.getByTestId('event-line').first()).toBeVisible();
    await expectAccessible(page);
    await open(page, `/review_map/${s0492}`);
    await expect(page.getByTestId('review-map')).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page);
    await open(page, `/review_gallery/${s0492}`);
    await expect(archiveHeader(page)).toBeVisible();
    // The frame grabs load for the visitor (the image route admits it for open dives).
    const picture = page.getByTestId('gallery-image').first().locator('img');
    await expect(picture).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expectAccessible(page);
  });

  test('/dive/S0492 opens its review; an unknown dive says so with a way back', async ({ page }) => {
    await open(page, '/dive/S0492');
    await expect(page).toHaveURL(new RegExp(`/review_replay/${s0492}$`));
    await expect(page.getByRole('slider', { name: 'Event' })).toBeEnabled({ timeout: 30_000 });
    await open(page, '/dive/S0999');
    await expect(page.getByRole('heading', { name: 'No dive S0999' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to the cruise menu' }).click();
    await expect(archiveHeader(page)).toBeVisible();
    await open(page, '/cruise/FKt230303');
    await expect(page.getByRole('heading', { name: 'Cruise: FKt230303' })).toBeVisible();
  });
});
