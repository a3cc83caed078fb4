import { request } from '@playwright/test';
import { serverUrl, uniqueName } from './support/api';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';

/** Device keys under System Management (docs/screens.md#device-keys): create (shown once), use, list, revoke. */

const apiPrefix = '/sealog-server/api/v1';

test('an admin creates a key shown once, sees it used, and revokes it', async ({ page }) => {
  const name = uniqueName('deck');
  await page.goto('/');
  await page.getByRole('button', { name: 'System Management' }).click();
  await page.getByRole('link', { name: 'Device Keys', exact: true }).click();
  await expect(page).toHaveURL(/\/device_keys$/);
  await expect(page.getByRole('heading', { name: 'Device Keys' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Create Device Key' });
  await expect(form.getByRole('button', { name: 'Create Key' })).toBeDisabled();
  await form.getByLabel('Name').fill(name);
  await expect(form.getByLabel('Event Logger', { exact: true })).toBeChecked();
  await form.getByRole('button', { name: 'Create Key' }).click();
  const shown = page.getByRole('textbox', { name: `New device key for ${name}` });
  await expect(shown).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Copy it now: it will not be shown again.');
  const key = await shown.inputValue();
  expect(key).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);

  const row = page.getByTestId(`device-key-row-${name}`);
  // Roles read as on the user form, not as their ids.
  await expect(row).toContainText('Event Logger');
  await expect(row).not.toContainText('event_logger');
  await expect(row).toContainText('by admin');
  await expect(row).toContainText('Never');
  await expect(row).toContainText('Active');
  // The list never shows the key, only its first characters.
  await expect(page.getByRole('table')).not.toContainText(key);
  await expect(row).toContainText(key.slice(0, 8));

  // The key works as a Bearer token, limited to its roles.
  const api = await request.newContext({ baseURL: serverUrl() });
  const headers = { authorization: `Bearer ${key}` };
  expect((await api.get(`${apiPrefix}/events/count`, { headers })).status()).toBe(200);
  expect((await api.get(`${apiPrefix}/users`, { headers })).status()).toBe(403);
  // Without a follow right it does not follow this server.
  expect((await api.get(`${apiPrefix}/sync/changes`, { headers })).status()).toBe(403);

  await page.reload();
  await expect(row).not.toContainText('Never used');
  await expect(row.getByRole('cell').nth(3)).toContainText('from ');

  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('device-keys.png'), fullPage: true });

  await row.getByRole('button', { name: `Revoke device key ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`revoke the device key ${name}`);
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: `Revoke device key ${name}` })).toHaveCount(0);
  const refused = await api.get(`${apiPrefix}/events/count`, { headers });
  expect(refused.status()).toBe(401);
  expect((await refused.json()) as { message: string }).toMatchObject({ message: 'This device key has been revoked' });
  await api.dispose();
});

test('an admin gives a key the shore follower right on purpose, and the list says so', async ({ page }) => {
  const name = uniqueName('shore');
  await page.goto('/device_keys');
  const form = page.getByRole('form', { name: 'Create Device Key' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Event Logger', { exact: true }).uncheck();
  await expect(form.getByText('Must select at least one role or a follow right')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Create Key' })).toBeDisabled();
  const follow = form.getByRole('group', { name: 'Ship to Shore' });
  await expect(follow.getByLabel('Does not follow this server')).toBeChecked();
  await follow.getByLabel('Shore follower: copies everything, restricted records too').check();
  await form.getByRole('button', { name: 'Create Key' }).click();
  const key = await page.getByRole('textbox', { name: `New device key for ${name}` }).inputValue();

  const row = page.getByTestId(`device-key-row-${name}`);
  await expect(row).toContainText('Shore follower: copies everything, restricted records too');
  await expectAccessible(page);

  // It may follow (asked for a file by a checksum nothing has: 404, not 403), and reads nothing else.
  // Not the feed itself: this server would list the key as a follower in other specs' screens.
  const api = await request.newContext({ baseURL: serverUrl() });
  const headers = { authorization: `Bearer ${key}` };
  expect((await api.get(`${apiPrefix}/sync/files/${'0'.repeat(64)}`, { headers })).status()).toBe(404);
  expect((await api.get(`${apiPrefix}/events/count`, { headers })).status()).toBe(403);
  await api.dispose();
});
