import type { Locator, Page } from '@playwright/test';
import { createUser, uniqueName } from './support/api';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';

/** Admins see an event's history (who changed what, with the old values) in Event Details. */

test.use({ storageState: { cookies: [], origins: [] } });

function filterCard(page: Page): Locator {
  return page.getByTestId('event-filter');
}

test('Event Details shows an admin the history of an edited event with the old values', async ({
  page,
  context,
  adminApi,
}) => {
  const value = uniqueName('HIST').toUpperCase();
  const created = await adminApi.post<{ insertedId: string }>('/events', {
    event_value: value,
    event_free_text: 'first words',
    ts: new Date(Date.now() - 60_000).toISOString(),
  });
  await adminApi.patch(`/events/${created.insertedId}`, { event_free_text: 'second words' });

  await useSessionOf(context, 'admin', 'demo');
  await page.goto('/event_management');
  await expect(page.getByText('Filtered Events')).toBeVisible();
  const filter = filterCard(page);
  await filter.getByLabel('Value', { exact: true }).fill(value);
  await filter.getByRole('button', { name: 'Filter' }).click();
  const line = page.getByTestId('filtered-events').getByTestId('event-line').filter({ hasText: value }).first();
  await expect(line).toBeVisible();
  await line.getByRole('button').first().click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Event Details:' })).toBeVisible();
  const history = dialog.getByTestId('event-history');
  const rows = history.getByRole('table', { name: 'Event history' }).getByRole('row');
  // Header + update + create, newest first.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('admin');
  await expect(rows.nth(1)).toContainText('update');
  await expect(rows.nth(1)).toContainText('event_free_text: first words → second words');
  await expect(rows.nth(1).locator('del')).toHaveText('first words');
  await expect(rows.nth(2)).toContainText('create');

  await expectAccessible(page, '[role="dialog"]');
  await page.screenshot({ path: test.info().outputPath('event-history.png') });
});

test('Event Details shows no history to a non-admin', async ({ page, context, adminApi }) => {
  const value = uniqueName('NOHIST').toUpperCase();
  await adminApi.post('/events', { event_value: value, ts: new Date(Date.now() - 60_000).toISOString() });
  const manager = await createUser(adminApi, { roles: ['event_manager'] });
  await useSessionOf(context, manager.username, manager.password);
  await page.goto('/event_management');
  await expect(page.getByText('Filtered Events')).toBeVisible();
  const filter = filterCard(page);
  await filter.getByLabel('Value', { exact: true }).fill(value);
  await filter.getByRole('button', { name: 'Filter' }).click();
  const line = page.getByTestId('filtered-events').getByTestId('event-line').filter({ hasText: value }).first();
  await line.getByRole('button').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('event-details-header')).toContainText(value);
  await expect(dialog.getByTestId('event-history')).toHaveCount(0);
});
