import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { apiLogin, createUser, uniqueName, type ApiClient } from './support/api';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';
import type { LogEvent } from '@bathylog/shared';

/**
 * The audit trail under System Management (admins; docs/screens.md#audit): filter by user, record and time,
 * pages, CSV export of the filtered entries, and restoring a deleted event from its entry.
 */

test.use({ storageState: { cookies: [], origins: [] } });

/** A logger of its own who logs `count` events, comments on the first and deletes the last. */
async function busyLogger(adminApi: ApiClient, count: number) {
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  const logger = await apiLogin(user.username, user.password);
  const value = uniqueName('AUD').toUpperCase();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await logger.post<{ insertedId: string }>('events', { event_value: value, event_free_text: `n${i}` });
    ids.push(res.insertedId);
  }
  await logger.patch(`events/${ids[0]}`, {
    event_options: [{ event_option_name: 'event_comment', event_option_value: 'seen twice' }],
  });
  await logger.del(`events/${ids.at(-1)}`);
  await logger.dispose();
  return { user, value, ids };
}

async function openAudit(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'System Management' }).click();
  await page.getByRole('link', { name: 'Audit Trail', exact: true }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole('heading', { name: /^Audit Trail/ })).toBeVisible();
}

const rows = (page: Page) => page.getByTestId('audit-row');

test('an admin filters the trail by user and time, pages through it and exports the filtered entries as CSV', async ({
  page,
  context,
  adminApi,
}) => {
  const { user, value, ids } = await busyLogger(adminApi, 27);
  await useSessionOf(context, 'admin', 'demo');
  await openAudit(page);

  // By keyboard: type the user, Enter filters.
  const filter = page.getByRole('form', { name: 'Filter the audit trail' });
  await filter.getByLabel('User or device key').fill(user.username);
  await filter.getByLabel('User or device key').press('Enter');
  // The login, 27 creates, a comment and a delete, newest first: 25 on the first page.
  await expect(page.getByRole('heading', { name: 'Audit Trail (30)' })).toBeVisible();
  await expect(rows(page)).toHaveCount(25);
  await expect(rows(page).first()).toContainText('delete');
  await expect(rows(page).first()).toContainText(`was ${value}`);
  await expect(rows(page).first()).toContainText('DELETE /sealog-server/api/v1/events/:id');
  await expect(rows(page).nth(1)).toContainText('comment');
  await expect(rows(page).nth(1)).toContainText('seen twice');
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('audit.png'), fullPage: true });

  const pager = page.getByRole('navigation', { name: 'Audit trail pages' });
  await pager.getByRole('button', { name: '2' }).click();
  await expect(rows(page)).toHaveCount(5);
  // Oldest last: the login, then the first event's creation.
  await expect(rows(page).last()).toContainText('login');
  await expect(rows(page).nth(3)).toContainText(ids[0]!);

  // The record link narrows the list to one record's history.
  await rows(page)
    .nth(3)
    .getByRole('button', { name: `Show only record ${ids[0]}` })
    .click();
  await expect(page.getByRole('heading', { name: 'Audit Trail (2)' })).toBeVisible();
  await expect(filter.getByLabel('Record ID')).toHaveValue(ids[0]!);
  await expect(filter.getByLabel('Record type')).toHaveValue('event');

  // CSV of what the filter matches, streamed by the server.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export these entries as CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit_\d{8}T\d{4}Z\.csv$/);
  const csv = (await readFile((await download.path())!, 'utf8')).split('\n');
  expect(csv[0]).toBe(
    '"seq","at","actor_kind","actor_name","actor_id","route","action","record_type","record_id","old_value","new_value"',
  );
  expect(csv).toHaveLength(3);
  expect(csv[1]).toContain('"comment"');
  expect(csv[2]).toContain('"create"');
  expect(csv.slice(1).every((line) => line.includes(`"${user.username}"`) || line.includes(ids[0]!))).toBe(true);

  // A time range in the future: the empty state; a malformed record id is refused before sending.
  await filter.getByRole('button', { name: 'Reset' }).click();
  await filter.getByLabel('User or device key').fill(user.username);
  await filter.getByLabel('From (UTC)').fill('2099-01-01T00:00');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No audit entries found!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export these entries as CSV' })).toHaveCount(0);
  await filter.getByLabel('Record ID').fill('not-an-id');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(filter.getByRole('alert')).toHaveText('Record ID must be a 24-character hex id');
});

test('an admin restores a deleted event from its audit entry', async ({ page, context, adminApi }) => {
  const { user, value, ids } = await busyLogger(adminApi, 1);
  const deleted = ids[0]!;
  await useSessionOf(context, 'admin', 'demo');
  await openAudit(page);
  const filter = page.getByRole('form', { name: 'Filter the audit trail' });
  await filter.getByLabel('Record ID').fill(deleted);
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(rows(page)).toHaveCount(3);
  // Only the delete can be restored.
  await expect(page.getByRole('button', { name: /^Restore event/ })).toHaveCount(1);
  await rows(page)
    .first()
    .getByRole('button', { name: `Restore event ${value}`, exact: false })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Confirm Restore' })).toBeVisible();
  await expect(dialog).toContainText(`restore the event ${value} deleted`);
  await expect(dialog).toContainText(`by ${user.username}`);
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Success!' })).toContainText(`Event ${value} restored`);
  await expect(rows(page)).toHaveCount(4);
  await expect(rows(page).first()).toContainText('restore');
  await expect(rows(page).first()).toContainText('admin');

  const back = await adminApi.get<LogEvent>(`events/${deleted}`);
  expect(back).toMatchObject({ id: deleted, event_value: value, event_author: user.username });

  // A second restore of the same entry says why it cannot.
  await rows(page)
    .nth(1)
    .getByRole('button', { name: /^Restore event/ })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Oops!' })).toContainText(
    'The event exists: it was already restored',
  );
});

test('the audit trail is for admins only, and says when it cannot be read', async ({
  page,
  context,
  adminApi,
  consoleErrors,
}) => {
  consoleErrors.allow(/Could not read the audit trail/);
  const manager = await createUser(adminApi, { roles: ['event_manager', 'cruise_manager'] });
  await useSessionOf(context, manager.username, manager.password);
  await page.goto('/');
  await page.getByRole('button', { name: 'System Management' }).click();
  await expect(page.getByRole('link', { name: 'Audit Trail', exact: true })).toHaveCount(0);
  await page.goto('/audit');
  await expect(page.getByText('What are YOU doing here?')).toBeVisible();

  await useSessionOf(context, 'admin', 'demo');
  // The answer is held until the loading state has been seen, then it is an error.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/sealog-server/api/v1/audit?*', async (route) => {
    await held;
    await route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'The trail is unreadable' }),
    });
  });
  await page.goto('/audit');
  await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
  release();
  await expect(page.getByRole('alert')).toContainText('Oops! The trail is unreadable');
  await expectAccessible(page);
});
