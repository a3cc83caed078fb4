import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { LogEvent } from '@bathylog/shared';
import { type ApiClient, apiLogin, createLowering } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { repoRoot, startServer, type StartedServer } from './support/server';
import { sessionOn } from './support/session';

/**
 * Data completeness (docs/completeness.md): the footer's line for the newest event and its
 * warning, the "Incomplete only" switch of event management and the replay lane. On a demo server
 * of its own that requires the vehicle's navigation on every event, with a two-second grace period.
 */

const nav = 'vehicleRealtimeNavData';
const demoDir = path.join(repoRoot, 'apps/server/demo');
const S0492 = (() => {
  const raw = JSON.parse(readFileSync(path.join(demoDir, 'FKt230303_S0492_loweringRecord.json'), 'utf8')) as unknown;
  return ((Array.isArray(raw) ? raw[0] : raw) as { id: string }).id;
})();
const diveEvents = JSON.parse(
  readFileSync(path.join(demoDir, 'FKt230303_S0492_eventOnlyExport.json'), 'utf8'),
) as LogEvent[];

const footerLine = (page: Page) => page.getByTestId('footer-completeness');
const warning = (page: Page) => page.getByTestId('completeness-warning');

test.describe('data completeness on a server of its own', () => {
  test.describe.configure({ mode: 'serial' });
  let server: StartedServer;
  let admin: ApiClient;
  const logged: string[] = [];

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    server = await startServer({
      mode: 'demo',
      config: { asnap: { enabled: false }, completeness: { requiredAuxSources: [nav], graceSeconds: 2 } },
    });
    admin = await apiLogin('admin', 'demo', server.url);
    // Only events logged during a dive are judged: a dive under way now.
    const hour = 3600_000;
    await createLowering(admin, {
      lowering_id: 'LIVE1',
      start_ts: new Date(Date.now() - hour).toISOString(),
      stop_ts: new Date(Date.now() + 6 * hour).toISOString(),
      lowering_location: 'Completeness test',
    });
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
  });

  test('the footer says whether the newest event is complete, and warns once about missing data', async ({
    page,
    context,
  }) => {
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/event_management`);
    const navOf = (eventId: string) => ({
      event_id: eventId,
      data_source: nav,
      data_array: [{ data_name: 'depth', data_value: '1000', data_uom: 'm' }],
    });

    // An event logged with its navigation is complete.
    const withNav = await admin.post<{ insertedId: string }>('events', { event_value: 'WITH_NAV' });
    await admin.post('event_aux_data', navOf(withNav.insertedId));
    await expect(footerLine(page)).toHaveText('Newest event complete');

    // One without: waiting during the grace period, then missing, with a warning.
    const first = await admin.post<{ insertedId: string }>('events', { event_value: 'NO_NAV_1' });
    logged.push(first.insertedId);
    await expect(footerLine(page)).toHaveText(`Newest event waiting for aux data (missing: ${nav})`);
    await expect(footerLine(page)).toHaveText(`Newest event missing: ${nav}`);
    await expect(footerLine(page)).toHaveAttribute('aria-live', 'polite');
    await expect(warning(page)).toBeVisible();
    // The warning says which event: its value and time, as the list shows them.
    const { ts } = await admin.get<{ ts: string }>(`events/${first.insertedId}`);
    await expect(warning(page)).toContainText(
      `NO_NAV_1 at ${ts.slice(0, 10)} ${ts.slice(11, 19)} UTC was logged without ${nav}.`,
    );
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.screenshot({ path: 'test-results/completeness-footer.png' });
    await expectAccessible(page);
    // A click opens that event.
    await warning(page).getByRole('button', { name: 'Open event' }).click();
    await expect(warning(page)).toBeHidden();
    const details = page.getByRole('dialog', { name: 'Event Details:' });
    await expect(details.getByTestId('event-details-header')).toContainText('NO_NAV_1');
    await expect(details.getByTestId('event-details-header')).toContainText(ts);
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);

    // A second event without navigation: the line says so again, the warning does not come back.
    const second = await admin.post<{ insertedId: string }>('events', { event_value: 'NO_NAV_2' });
    logged.push(second.insertedId);
    await expect(footerLine(page)).toHaveText(`Newest event waiting for aux data (missing: ${nav})`);
    await expect(footerLine(page)).toHaveText(`Newest event missing: ${nav}`);
    await page.waitForTimeout(1000);
    await expect(warning(page)).toBeHidden();

    // Its navigation arrives late: complete.
    await admin.post('event_aux_data', navOf(second.insertedId));
    await expect(footerLine(page)).toHaveText('Newest event complete');
  });

  test('event management lists only the incomplete events when asked', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/event_management`);
    const list = page.getByTestId('filtered-events');
    await expect(list).toContainText('NO_NAV_2');
    const only = page.getByRole('checkbox', { name: 'Incomplete only' });
    await only.check();
    // The newest incomplete event first; the ones that got their navigation are left out.
    await expect(page.getByTestId('event-line').first()).toContainText('NO_NAV_1');
    await expect(list).not.toContainText('NO_NAV_2');
    await expect(list).not.toContainText('WITH_NAV');
    await expectAccessible(page);
    await only.uncheck();
    await expect(list).toContainText('NO_NAV_2');
  });

  test('the replay lane marks the incomplete events of the dive and says how many', async ({ page, context }) => {
    // One sample of the dive turns stale (its data_age is far above the maximum age).
    const stale = diveEvents[100]!;
    await admin.post('event_aux_data', {
      event_id: stale.id,
      data_source: nav,
      data_array: [
        { data_name: 'depth', data_value: '1000', data_uom: 'm' },
        { data_name: 'data_age', data_value: '999', data_uom: 's' },
      ],
    });
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/review_replay/${S0492}`);
    await expect(page.getByTestId('completeness-summary')).toHaveText(
      `1 of 4,540 events incomplete (missing or stale: ${nav})`,
      { timeout: 60_000 },
    );
    const lane = page.getByRole('img', { name: 'Incomplete events: 1 of 4,540 events incomplete' });
    await expect(lane).toBeVisible();
    await expect(lane.locator('.completeness-tick')).toHaveCount(1);
    await page.getByTestId('review-controls').screenshot({ path: 'test-results/completeness-lane.png' });
    await expectAccessible(page);
  });
});
