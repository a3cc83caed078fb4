import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { createUser, uniqueName, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { useSessionOf } from './support/session';
import type { Cruise, Lowering } from '@bathylog/shared';

/** The cruise and lowering browser (/cruise_menu, docs/screens.md#cruise-menu) on the demo data. */

const cruiseCard = (page: Page) => page.getByRole('region', { name: /^Cruise: / });
const loweringCard = (page: Page) => page.getByRole('region', { name: /^Lowering: / });

async function demo(api: ApiClient) {
  const [cruise] = (await api.get<Cruise[]>('cruises')).filter((c) => c.cruise_id === 'FKt230303');
  const [lowering] = (await api.get<Lowering[]>('lowerings')).filter((l) => l.lowering_id === 'S0492');
  return { cruise: cruise!, lowering: lowering! };
}

/**
 * Shows FKt230303 in the years column once it has loaded. Other specs add cruises of other years
 * on the same server, so the column may be an accordion with another year open.
 */
async function showDemoCruise(page: Page) {
  const cruise = page.getByRole('button', { name: 'FKt230303', exact: true });
  const year = page.getByRole('button', { name: /Year: 2023/ });
  await expect(cruise.or(year).first()).toBeVisible();
  if ((await year.count()) > 0 && (await year.getAttribute('aria-expanded')) !== 'true') await year.click();
  await expect(cruise).toBeVisible();
  return cruise;
}

/** Opens FKt230303 and S0492 from the years column. */
async function openDemoDive(page: Page) {
  await page.goto('/cruise_menu');
  await (await showDemoCruise(page)).click();
  await cruiseCard(page).getByRole('button', { name: 'S0492', exact: true }).click();
  await expect(loweringCard(page)).toBeVisible();
}

async function exportFrom(page: Page, card: ReturnType<typeof cruiseCard>, toggle: string, item: string) {
  await card.getByRole('button', { name: toggle }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: item, exact: true }).click();
  return download;
}

async function text(download: Download): Promise<string> {
  return readFileSync((await download.path())!, 'utf8');
}

test.describe('cruise menu', () => {
  test('year, cruise and lowering selection with the card fields', async ({ page }, testInfo) => {
    // Two axe runs and four full-page screenshots: slow on a busy machine.
    test.setTimeout(150_000);
    await page.goto('/cruise_menu');
    await expect(page.getByRole('heading', { name: 'Welcome to Bathylog' })).toBeVisible();
    await openDemoDive(page);

    const cruise = cruiseCard(page);
    await expect(cruise.getByRole('heading')).toHaveText('Cruise: FKt230303');
    await expect(cruise).toContainText('Cruise Name: In Search of Hydrothermal Lost Cities');
    await expect(cruise).toContainText('Chief Scientist: Dr. David Butterfield');
    await expect(cruise).toContainText('Vessel: R/V Falkor (too)');
    await expect(cruise).toContainText('Location: Lost City, Mid-Atlantic Ridge');
    await expect(cruise).toContainText('Dates: 2023/03/03');
    await expect(cruise).toContainText('2023/04/11');
    await expect(cruise).toContainText('Ports: San Juan, PR');
    await expect(cruise).toContainText('Duration: 40 days 0 hours 0 minutes');
    // The selected lowering is orange text, not a button.
    await expect(cruise.getByRole('button', { name: 'S0492', exact: true })).toHaveCount(0);
    await expect(cruise.getByText('S0492', { exact: true })).toHaveClass(/text-warning/);

    const lowering = loweringCard(page);
    await expect(lowering.getByRole('heading')).toHaveText('Lowering: S0492');
    await expect(lowering).toContainText('Location: Kane FZ');
    await expect(lowering).toContainText('Started: 2023-03-14 22:15');
    await expect(lowering).toContainText('Deck-to-Deck: 10 hours 17 minutes');
    await expectAccessible(page);

    for (const width of [1400, 768]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: testInfo.outputPath(`cruise-menu-${width}.png`), fullPage: true });
    }
  });

  test('review links lead to the review screens of the lowering', async ({ page, adminApi }) => {
    const { lowering } = await demo(adminApi);
    await openDemoDive(page);
    const card = loweringCard(page);
    for (const [label, path] of [
      ['Replay View', 'review_replay'],
      ['Map View', 'review_map'],
      ['Gallery View', 'review_gallery'],
    ] as const) {
      await card.getByRole('button', { name: 'Review' }).click();
      await expect(page.getByRole('link', { name: label })).toHaveAttribute('href', `/${path}/${lowering.id}`);
      await page.keyboard.press('Escape');
    }
    await card.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('link', { name: 'Map View' }).click();
    await expect(page).toHaveURL(new RegExp(`/review_map/${lowering.id}$`));
    // Coming back restores the cruise and lowering that were open.
    await page.goBack();
    await expect(loweringCard(page).getByRole('heading')).toHaveText('Lowering: S0492');
    await expect(cruiseCard(page).getByRole('heading')).toHaveText('Cruise: FKt230303');
  });

  test("going back while the next screen's code is still loading shows the cruise menu again", async ({ page }) => {
    await openDemoDive(page);
    // The review map's code arrives only after the user went back (a slow link, a quick hand).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await loweringCard(page).getByRole('button', { name: 'Review' }).click();
    await page.getByRole('link', { name: 'Map View' }).click();
    await expect(page).toHaveURL(/\/review_map\//);
    await expect(page.getByText('Loading...')).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/cruise_menu/);
    release();
    await expect(loweringCard(page).getByRole('heading')).toHaveText('Lowering: S0492');
    await expect(cruiseCard(page).getByRole('heading')).toHaveText('Cruise: FKt230303');
  });

  test('each export of the cruise and of the lowering has the API count of events', async ({ page, adminApi }) => {
    const { cruise, lowering } = await demo(adminApi);
    const cruiseEvents = (await adminApi.get<unknown[]>(`events/bycruise/${cruise.id}`)).length;
    const loweringEvents = (await adminApi.get<unknown[]>(`events/bylowering/${lowering.id}`)).length;
    const cruiseAux = (await adminApi.get<unknown[]>(`event_aux_data/bycruise/${cruise.id}`)).length;
    const loweringAux = (await adminApi.get<unknown[]>(`event_aux_data/bylowering/${lowering.id}`)).length;
    expect(loweringEvents).toBeGreaterThan(0);
    await openDemoDive(page);

    const cases = [
      {
        card: cruiseCard(page),
        toggle: 'Export the events of FKt230303',
        prefix: 'FKt230303',
        events: cruiseEvents,
        aux: cruiseAux,
      },
      {
        card: loweringCard(page),
        toggle: 'Export the events of S0492',
        prefix: 'S0492',
        events: loweringEvents,
        aux: loweringAux,
      },
    ];
    for (const c of cases) {
      const withAux = await exportFrom(page, c.card, c.toggle, 'Events w/aux data (JSON)');
      expect(withAux.suggestedFilename()).toBe(`${c.prefix}_sealog_export.json`);
      const exported = JSON.parse(await text(withAux)) as Array<{ aux_data?: unknown[] }>;
      expect(exported).toHaveLength(c.events);
      expect(exported.some((e) => (e.aux_data ?? []).length > 0)).toBe(true);

      const only = await exportFrom(page, c.card, c.toggle, 'Events Only (JSON)');
      expect(only.suggestedFilename()).toBe(`${c.prefix}_sealog_eventExport.json`);
      expect(JSON.parse(await text(only))).toHaveLength(c.events);

      const aux = await exportFrom(page, c.card, c.toggle, 'Aux Data Only (JSON)');
      expect(aux.suggestedFilename()).toBe(`${c.prefix}_sealog_auxDataExport.json`);
      expect(JSON.parse(await text(aux))).toHaveLength(c.aux);

      for (const [item, suffix] of [
        ['Events w/aux data (CSV)', 'sealog_export.csv'],
        ['Events Only (CSV)', 'sealog_eventExport.csv'],
      ] as const) {
        const csv = await exportFrom(page, c.card, c.toggle, item);
        expect(csv.suggestedFilename()).toBe(`${c.prefix}_${suffix}`);
        const lines = (await text(csv)).split(/\r?\n/).filter((l) => l !== '');
        expect(lines[0]).toMatch(/^"id","ts","event_value","event_author","event_free_text"/);
        expect(lines.length - 1).toBe(c.events);
      }
    }
  });

  test('copies the cruise summary with its lowerings', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openDemoDive(page);
    await cruiseCard(page).getByRole('button', { name: 'Copy FKt230303 to clipboard' }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain('Cruise ID:       FKt230303\n');
    const textCopied = await page.evaluate(() => navigator.clipboard.readText());
    const lines = textCopied.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Cruise ID:       FKt230303',
      'Cruise Name:     In Search of Hydrothermal Lost Cities',
      'Chief Scientist: Dr. David Butterfield',
    ]);
    expect(lines).toContain('Vessel:   R/V Falkor (too)');
    expect(lines).toContain('Location: Lost City, Mid-Atlantic Ridge');
    expect(lines).toContain('Start of Cruise: 2023/03/03');
    expect(lines).toContain('Departure Port:  San Juan, PR');
    expect(lines).toContain('End of Cruise:   2023/04/11');
    expect(lines).toContain('Arrival Port:    San Juan, PR');
    expect(lines).toContain('Cruise Duration: 40 days 0 hours 0 minutes');
    expect(lines.at(-1)).toMatch(/^Lowerings: .*S0492/);

    await loweringCard(page).getByRole('button', { name: 'Copy S0492 to clipboard' }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toContain('Start of Lowering: 2023-03-14T22:15:39.479Z\n');
    const dive = await page.evaluate(() => navigator.clipboard.readText());
    expect(dive.split('\n')[0]).toBe('Lowering ID: S0492');
    expect(dive).toContain('\nLocation: Kane FZ\n');
    expect(dive).toContain('End of Lowering:   2023-03-15T08:32:32.654Z');
    expect(dive).toContain('Deck-to-Deck: 10 hours 17 minutes');
  });

  test('a cruise and a lowering added or changed by another user appear without a reload', async ({
    page,
    adminApi,
  }) => {
    await page.goto('/cruise_menu');
    await showDemoCruise(page);
    const cruiseId = uniqueName('RT').toUpperCase().slice(0, 12);
    const { insertedId: cruise } = await adminApi.post<{ insertedId: string }>('cruises', {
      cruise_id: cruiseId,
      start_ts: '2023-06-01T00:00:00.000Z',
      stop_ts: '2023-06-10T23:59:59.000Z',
      cruise_location: 'Live Basin',
      cruise_additional_meta: { cruise_vessel: 'R/V Live', cruise_pi: 'Dr. Live' },
      cruise_tags: [],
      cruise_hidden: false,
    });
    try {
      // In the 2023 list, next to FKt230303, without a reload.
      await page.getByRole('button', { name: cruiseId, exact: true }).click();
      await expect(cruiseCard(page).getByRole('heading')).toHaveText(`Cruise: ${cruiseId}`);

      const loweringId = uniqueName('RTL').toUpperCase().slice(0, 12);
      const { insertedId: lowering } = await adminApi.post<{ insertedId: string }>('lowerings', {
        lowering_id: loweringId,
        start_ts: '2023-06-02T10:00:00.000Z',
        stop_ts: '2023-06-02T18:00:00.000Z',
        lowering_location: 'Live Vent',
        lowering_tags: [],
        lowering_hidden: false,
        lowering_additional_meta: { lowering_description: 'live' },
      });
      try {
        await expect(cruiseCard(page).getByRole('button', { name: loweringId, exact: true })).toBeVisible();
        await cruiseCard(page).getByRole('button', { name: loweringId, exact: true }).click();
        await expect(loweringCard(page)).toContainText('Location: Live Vent');
        // Changed by someone else: the open cards follow.
        await adminApi.patch(`lowerings/${lowering}`, { lowering_location: 'Moved Vent' });
        await expect(loweringCard(page)).toContainText('Location: Moved Vent');
        await adminApi.patch(`cruises/${cruise}`, { cruise_location: 'Moved Basin' });
        await expect(cruiseCard(page)).toContainText('Location: Moved Basin');
      } finally {
        await adminApi.del(`lowerings/${lowering}`);
      }
    } finally {
      await adminApi.del(`cruises/${cruise}`);
    }
  });

  test('a guest does not see a hidden cruise', async ({ browser, adminApi }) => {
    const cruiseId = uniqueName('HID').toUpperCase().slice(0, 12);
    const { insertedId } = await adminApi.post<{ insertedId: string }>('cruises', {
      cruise_id: cruiseId,
      start_ts: '2019-06-01T00:00:00.000Z',
      stop_ts: '2019-06-20T23:59:59.000Z',
      cruise_location: 'Secret Basin',
      cruise_additional_meta: { cruise_vessel: 'R/V Quiet', cruise_pi: 'Dr. Hidden' },
      cruise_tags: [],
      cruise_hidden: true,
    });
    const watcher = await createUser(adminApi, { roles: ['event_watcher'] });
    for (const who of [
      { username: 'guest', password: '' },
      { username: watcher.username, password: watcher.password },
    ]) {
      const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      if (who.username === 'guest') {
        const page = await context.newPage();
        await page.goto('/login');
        await page.getByRole('button', { name: 'Login as Guest' }).click();
        await expect(page.getByTestId('user-menu-title')).toHaveText(/Guest/);
        await page.goto('/cruise_menu');
        await showDemoCruise(page);
        await expect(page.getByRole('button', { name: /Year: 2019/ })).toHaveCount(0);
        await expect(page.getByText(cruiseId)).toHaveCount(0);
      } else {
        await useSessionOf(context, who.username, who.password);
        const page = await context.newPage();
        await page.goto('/cruise_menu');
        await showDemoCruise(page);
        await expect(page.getByText(cruiseId)).toHaveCount(0);
      }
      await context.close();
    }
    // The admin sees it, in its own year.
    await adminApi.patch(`cruises/${insertedId}`, { cruise_hidden: false });
    await adminApi.del(`cruises/${insertedId}`);
  });
});
