import type { Locator, Page } from '@playwright/test';
import { uniqueName, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import type { Lowering } from '@bathylog/shared';

/**
 * Date and time fields (docs/screens.md#date-and-time-fields): one typing rule in UTC (a date alone,
 * `YYYY-MM-DD HH:mm`, ISO with or without milliseconds) and one keyboard calendar beside every
 * field; and one meaning for the Hide ASNAP switch on every screen (docs/screens.md#hide-asnap).
 * Runs as admin on the shared demo server (dive S0492: 2023-03-14 22:15 to 2023-03-15 08:32 UTC).
 */

const filterCard = (page: Page) => page.getByTestId('event-filter');
const lines = (page: Page) => page.getByTestId('filtered-events').getByTestId('event-line');

async function filterEvents(page: Page, start: string, stop: string) {
  const card = filterCard(page);
  await card.getByLabel('Start Date/Time (UTC)').fill(start);
  await card.getByLabel('Stop Date/Time (UTC)').fill(stop);
  await card.getByRole('button', { name: 'Filter' }).click();
}

async function s0492Id(api: ApiClient): Promise<string> {
  const list = await api.get<Lowering[]>('lowerings');
  const found = list.find((l) => l.lowering_id === 'S0492');
  if (!found) throw new Error('demo lowering S0492 not found');
  return found.id;
}

test.describe('typed times', () => {
  test('the event filter takes a date alone as the whole day, and HH:mm and ISO times', async ({ page }) => {
    await page.goto('/event_management');
    await page.getByLabel('Hide ASNAP').uncheck();
    await filterEvents(page, '2023-03-14', '2023-03-14');
    const card = filterCard(page);
    await expect(card.getByText('Invalid timestamp')).toHaveCount(0);
    await expect(card.getByLabel('Start Date/Time (UTC)')).toHaveValue('2023-03-14 00:00:00');
    await expect(card.getByLabel('Stop Date/Time (UTC)')).toHaveValue('2023-03-14 23:59:59.999');
    // Newest first: the last event of the 14th (the dive started at 22:15 that day).
    await expect(lines(page).first()).toContainText('2023-03-14T23:');

    await filterEvents(page, '2023-03-15 05:00', '2023-03-15T05:00:59Z');
    await expect(card.getByLabel('Start Date/Time (UTC)')).toHaveValue('2023-03-15 05:00:00');
    await expect(lines(page).first()).toContainText('2023-03-15T05:00:');
    await expect(card.getByText('Invalid timestamp')).toHaveCount(0);

    await filterEvents(page, '14/03/2023', '');
    await expect(card.getByText('Invalid timestamp')).toBeVisible();
  });

  test('the calendar: keyboard day moves, a time, Set; Now; Esc closes and returns focus', async ({ page }) => {
    await page.goto('/event_management');
    const card = filterCard(page);
    const start = card.getByLabel('Start Date/Time (UTC)');
    await start.fill('2023-03-14 05:00');
    const open = card.getByRole('button', { name: 'Choose date and time (UTC)' }).first();
    await open.focus();
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'Choose date and time (UTC)' });
    await expect(picker).toBeVisible();
    await expect(picker.getByRole('grid', { name: 'March 2023' })).toBeVisible();
    // The typed day has the focus; the arrows move it, Page Down a month.
    await expect(picker.getByRole('button', { name: '14 March 2023', exact: true })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect(picker.getByRole('button', { name: '22 March 2023', exact: true })).toBeFocused();
    await page.keyboard.press('PageDown');
    await expect(picker.getByRole('grid', { name: 'April 2023' })).toBeVisible();
    await expect(picker.getByRole('button', { name: '22 April 2023', exact: true })).toBeFocused();
    await page.keyboard.press('PageUp');
    await expectAccessible(page, '[role="dialog"]');
    await picker.getByLabel('Hours (UTC)').fill('6');
    await picker.getByLabel('Minutes (UTC)').fill('30');
    await picker.getByRole('button', { name: 'Set' }).click();
    await expect(picker).toBeHidden();
    await expect(start).toHaveValue('2023-03-22 06:30:00');
    await expect(open).toBeFocused();

    // Enter on a day picks it at once, with the time boxes' time.
    await page.keyboard.press('Enter');
    await expect(picker.getByRole('button', { name: '22 March 2023', exact: true })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await expect(start).toHaveValue('2023-03-21 06:30:00');

    // Esc closes without a change and gives the focus back to the button.
    await open.click();
    await expect(picker).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    await expect(open).toBeFocused();
    await expect(start).toHaveValue('2023-03-21 06:30:00');

    // Now writes the current UTC time; the empty Stop field's calendar starts at the end of today.
    await open.click();
    await picker.getByRole('button', { name: 'Now' }).click();
    const now = new Date().toISOString().slice(0, 10);
    await expect(start).toHaveValue(new RegExp(`^${now} \\d{2}:\\d{2}:\\d{2}$`));
    await card.getByRole('button', { name: 'Choose date and time (UTC)' }).last().click();
    await expect(picker.getByLabel('Hours (UTC)')).toHaveValue('23');
    await expect(picker.getByLabel('Seconds (UTC)')).toHaveValue('59');
    await picker.getByRole('button', { name: 'Set' }).click();
    await expect(card.getByLabel('Stop Date/Time (UTC)')).toHaveValue(`${now} 23:59:59.999`);
  });

  test("a review screen's calendar opens on the dive's month; a month and year jump by keyboard", async ({
    page,
    adminApi,
  }) => {
    await page.goto(`/review_replay/${await s0492Id(adminApi)}`);
    const card = filterCard(page);
    await card.getByRole('button', { name: 'Choose date and time (UTC)' }).first().click();
    const picker = page.getByRole('dialog', { name: 'Choose date and time (UTC)' });
    // The empty Start opens on the dive's first day (2023-03-14), whatever today is.
    await expect(picker.getByRole('grid', { name: 'March 2023' })).toBeVisible();
    await expect(picker.getByRole('button', { name: '14 March 2023', exact: true })).toBeFocused();
    await expectAccessible(page, '[role="dialog"]');
    // Any month and year by keyboard: the month list, then the year box.
    await picker.getByRole('combobox', { name: 'Month' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(picker.getByRole('grid', { name: 'April 2023' })).toBeVisible();
    await picker.getByRole('spinbutton', { name: 'Year' }).fill('2019');
    await expect(picker.getByRole('grid', { name: 'April 2019' })).toBeVisible();
    await picker.getByRole('button', { name: 'Set' }).click();
    await expect(card.getByLabel('Start Date/Time (UTC)')).toHaveValue('2019-04-14 00:00:00');
  });

  test('a lowering saved with a date alone spans the whole day; the calendar fills the form', async ({
    page,
    adminApi,
  }) => {
    await page.goto('/lowerings');
    const add = page.getByRole('form', { name: 'Add Lowering' });
    const loweringId = uniqueName('T').toUpperCase().slice(0, 12);
    await add.getByLabel('Lowering ID').fill(loweringId);
    await add.getByLabel('Start Date/Time (UTC)').fill('2031-01-02');
    // The Stop through the calendar: the typed day, Home (Monday), then Set.
    await add.getByLabel('Stop Date/Time (UTC)').fill('2031-01-02');
    await add.getByRole('button', { name: 'Choose date and time (UTC)' }).last().click();
    const picker = page.getByRole('dialog', { name: 'Choose date and time (UTC)' });
    await expect(picker.getByRole('button', { name: '2 January 2031', exact: true })).toBeFocused();
    await page.keyboard.press('End');
    await expect(picker.getByRole('button', { name: '5 January 2031', exact: true })).toBeFocused();
    await picker.getByRole('button', { name: 'Set' }).click();
    await expect(add.getByLabel('Stop Date/Time (UTC)')).toHaveValue('2031-01-05 23:59:59.999');
    await add.getByLabel('Stop Date/Time (UTC)').fill('2031-01-02');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lowering created' })).toContainText('Success!');
    const [saved] = (await adminApi.get<Lowering[]>(`lowerings?lowering_id=${loweringId}`)).filter(
      (l) => l.lowering_id === loweringId,
    );
    expect(saved).toMatchObject({ start_ts: '2031-01-02T00:00:00.000Z', stop_ts: '2031-01-02T23:59:59.999Z' });
    await adminApi.del(`lowerings/${saved!.id}`);
  });

  test('the audit filter and a device key expiry take the same forms', async ({ page }) => {
    await page.goto('/audit');
    const from = page.getByLabel('From (UTC)');
    await from.fill('2023-03-14');
    await page.getByLabel('To (UTC)').fill('2023-03-14T23:59:59.999Z');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await from.fill('yesterday');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('From (UTC): Invalid timestamp');

    await page.goto('/device_keys');
    const expires = page.getByLabel('Expires (UTC, optional)');
    await expires.fill('2099-13-01');
    await expect(page.getByText('Invalid timestamp')).toBeVisible();
    await expires.fill('2099-12-31');
    await expect(page.getByText('Invalid timestamp')).toHaveCount(0);
  });
});

test.describe('Hide ASNAP means the same on every screen', () => {
  const hideAsnap = (page: Page): Locator => page.getByLabel('Hide ASNAP', { exact: true });

  test('console and event management: on by default, hiding ASNAP events', async ({ page }) => {
    await page.goto('/');
    await expect(hideAsnap(page)).toBeChecked();

    await page.goto('/event_management');
    await expect(page.getByLabel('ASNAP', { exact: true })).toHaveCount(0);
    await expect(hideAsnap(page)).toBeChecked();
    const card = filterCard(page);
    await card.getByLabel('Full text').fill('ASNAP');
    await card.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByText('No events found')).toBeVisible();
    await hideAsnap(page).uncheck();
    await expect(lines(page)).toHaveCount(15);
    await expect(lines(page).first()).toContainText(': ASNAP');
  });

  test('review map and gallery: off by default, showing ASNAP events', async ({ page, adminApi }) => {
    const id = await s0492Id(adminApi);
    await page.goto(`/review_map/${id}`);
    await expect(hideAsnap(page)).not.toBeChecked({ timeout: 30_000 });
    await page.goto(`/review_gallery/${id}`);
    await expect(hideAsnap(page)).not.toBeChecked({ timeout: 30_000 });
  });
});
