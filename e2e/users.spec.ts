import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiLogin, createUser, uniqueName, type ApiClient } from './support/api';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';
import { sessionOn, useSessionOf } from './support/session';
import type { Cruise, Lowering, User } from '@bathylog/shared';

/** User administration (/users, docs/screens.md#users) against the real server. */

const systemIds = {
  admin: '5981f167212b348aed7fa9f5',
  guest: '5981f167212b348aed7fb9f5',
  pi: '5981f167212b348aed7fc9f5',
};

const table = (page: Page, title: 'System Users' | 'Users') => page.getByRole('region', { name: title, exact: true });
const row = (page: Page, username: string) => page.getByTestId(`user-row-${username}`);
/** The row's action buttons, named without the username. */
async function rowButtons(page: Page, username: string): Promise<string[]> {
  await expect(row(page, username)).toBeVisible();
  const labels = await row(page, username)
    .getByRole('button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  return labels.map((l) => l.replace(` ${username}`, '').replace(` (${username})`, ''));
}

/** Searches a table so that a row is on the first page, whatever else the shared server holds. */
async function find(page: Page, title: 'System Users' | 'Users', text: string) {
  await table(page, title).getByRole('searchbox').fill(text);
}

/** A 24-hex id no record has yet. */
const freshObjectId = () =>
  (Date.now().toString(16) + Math.random().toString(16).slice(2) + '000000000000').slice(0, 24);

test.describe('users as admin', () => {
  test('shows both tables with the row actions each user gets', async ({ page, adminApi }) => {
    const user = await createUser(adminApi, { fullname: 'Row Actions Person' });
    await page.goto('/users');
    await expect(table(page, 'System Users')).toBeVisible();
    await expect(table(page, 'System Users').getByRole('columnheader')).toHaveText([
      'User Name',
      'Full Name',
      'Actions',
    ]);

    // Own row, guest and pi: edit and token, never delete; no access permissions without access control.
    for (const name of ['admin', 'guest', 'pi']) {
      await find(page, 'System Users', name);
      expect(await rowButtons(page, name), name).toEqual(['Edit user', "Show user's JWT token"]);
    }

    await find(page, 'Users', user.username);
    await expect(row(page, user.username)).toContainText('Row Actions Person');
    expect(await rowButtons(page, user.username)).toEqual(['Edit user', "Show user's JWT token", 'Delete user']);
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeVisible();

    // Export saves the table's whole list as the file the import reads.
    await find(page, 'System Users', '');
    const download = page.waitForEvent('download');
    await table(page, 'System Users').getByRole('button', { name: 'Export System Users as JSON' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('sealog_systemUserExport.json');
    const exported = JSON.parse(readFileSync(await file.path(), 'utf8')) as Array<{
      username: string;
      system_user: boolean;
    }>;
    expect(exported.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'guest', 'pi']));
    expect(exported.every((u) => u.system_user)).toBe(true);
    // The form is already blank: nothing to clear.
    await expect(page.getByRole('button', { name: 'Create User' })).toBeDisabled();
  });

  test('the system table shows 4 users per page and search narrows both tables', async ({ page, adminApi }) => {
    // Two more system users (admin, guest and pi are the first three) make a second page.
    const extras = [await createUser(adminApi), await createUser(adminApi)];
    for (const extra of extras) await adminApi.patch(`users/${extra.id}`, { system_user: true });
    await page.goto('/users');
    const system = table(page, 'System Users');
    await expect(system.locator('tbody tr')).toHaveCount(4);
    await expect(system.getByRole('navigation', { name: 'System Users pages' })).toBeVisible();

    // Search matches username, full name and email, ignoring case.
    await find(page, 'System Users', 'PRIMARY');
    await expect(system.locator('tbody tr')).toHaveCount(1);
    await expect(row(page, 'pi')).toBeVisible();
    await find(page, 'System Users', 'admin@notarealserver');
    await expect(system.locator('tbody tr')).toHaveCount(1);
    await expect(row(page, 'admin')).toBeVisible();
    await find(page, 'System Users', 'no such person');
    await expect(system.getByText('No users found!')).toBeVisible();
    for (const extra of extras) await adminApi.del(`users/${extra.id}`);
  });

  test('create shows every validation message, then creates; edit, disable, token and delete', async ({
    page,
    adminApi,
  }) => {
    await page.goto('/users');
    const form = page.getByRole('form', { name: 'Add User' });
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByText('Required')).toHaveCount(3);
    await expect(form.getByText('Must select at least one role')).toBeVisible();

    const username = uniqueName('ui');
    const field = (label: string) => form.getByLabel(label);
    await field('Username').fill('x'.repeat(16));
    await field('Full Name').fill('Form Person');
    await field('Email').fill('not-an-address');
    await form.getByLabel('Password', { exact: true }).fill('secret123');
    await field('Confirm Password').fill('secret124');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByText('Must be 15 characters or less')).toBeVisible();
    await expect(form.getByText('Invalid email address')).toBeVisible();
    await expect(form.getByText('Passwords must match')).toBeVisible();
    await field('Username').fill('Upper');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByText('Username must be all lowercase')).toBeVisible();
    await field('Username').fill('has space');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByText('Username can not include whitespace')).toBeVisible();

    // The form is not blank any more: Create User clears it.
    await expect(page.getByRole('button', { name: 'Create User' })).toBeEnabled();

    // The server's refusal shows as Oops! with its message; the form keeps what was typed.
    await field('Username').fill('admin');
    await field('Email').fill(`${username}@example.org`);
    await field('Confirm Password').fill('secret123');
    await form.getByLabel('Event Logger').check();
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByRole('alert')).toHaveText('Oops! Username already exists');
    await expect(field('Full Name')).toHaveValue('Form Person');

    await field('Username').fill(username);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'User created' })).toHaveText('Success! User created');
    await expect(field('Username')).toHaveValue('');

    // The new user logs in with the chosen password.
    const created = await apiLogin(username, 'secret123');
    await created.dispose();

    // Edit: the email is read-only, the full name changes.
    await find(page, 'Users', username);
    await row(page, username)
      .getByRole('button', { name: `Edit user ${username}` })
      .click();
    const edit = page.getByRole('form', { name: 'Update User' });
    await expect(edit.getByLabel('Email')).toHaveAttribute('readonly', '');
    await expect(edit.getByLabel('Event Logger')).toBeChecked();
    await expect(row(page, username).locator('td').first()).toHaveClass(/text-selected/);
    await edit.getByLabel('Full Name').fill('Form Person Renamed');
    await edit.getByLabel('User Disabled').check();
    await edit.getByRole('button', { name: 'Update' }).click();
    await expect(edit.getByRole('status')).toHaveText('Success! User updated');
    await expect(row(page, username)).toContainText('Form Person Renamed');
    // Disabled users are struck through.
    await expect(row(page, username).locator('td').first()).toHaveClass(/text-strike/);
    const stored = (await adminApi.get<User[]>('users')).find((u) => u.username === username);
    expect(stored?.disabled).toBe(true);

    // Token modal.
    await row(page, username)
      .getByRole('button', { name: `Show user's JWT token (${username})` })
      .click();
    const tokenModal = page.getByRole('dialog', { name: "User's Java Web Token" });
    await expect(tokenModal.getByRole('textbox', { name: 'User token' })).toHaveValue(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await tokenModal.getByRole('button', { name: 'Close' }).last().click();
    await expect(tokenModal).toBeHidden();

    // Delete the selected user: the form goes back to Add User.
    await row(page, username)
      .getByRole('button', { name: `Delete user ${username}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete this user?');
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(row(page, username)).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Add User' })).toBeVisible();
  });

  test('keyboard: Tab reaches the row actions and Enter opens them', async ({ page, adminApi }) => {
    const user = await createUser(adminApi);
    await page.goto('/users');
    await find(page, 'Users', user.username);
    // The search has narrowed the table to this user before the keys walk it: until then the
    // first row's Edit button is another user's.
    await expect(table(page, 'Users').locator('[data-testid^="user-row-"]')).toHaveCount(1);
    await expect(row(page, user.username)).toBeVisible();
    await table(page, 'Users').getByRole('searchbox').press('Tab'); // delete all
    await page.keyboard.press('Tab'); // export
    await page.keyboard.press('Tab'); // first row: edit
    await expect(page.getByRole('button', { name: `Edit user ${user.username}` })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('form', { name: 'Update User' }).getByLabel('Username')).toHaveValue(user.username);
    await page.getByRole('form', { name: 'Update User' }).getByLabel('Full Name').fill('Typed Name');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('form', { name: 'Update User' }).getByRole('status')).toHaveText(
      'Success! User updated',
    );
  });

  test('import: a duplicate id counts as skipped, a missing password is made up, errors are logged', async ({
    page,
    adminApi,
  }, testInfo) => {
    const existing = await createUser(adminApi);
    const fresh = uniqueName('imp');
    const records = [
      {
        id: existing.id,
        username: existing.username,
        fullname: existing.fullname,
        email: existing.email,
        roles: existing.roles,
        system_user: false,
        disabled: false,
      },
      {
        id: freshObjectId(),
        username: fresh,
        fullname: 'Imported Person',
        email: `${fresh}@example.org`,
        roles: ['event_watcher'],
        system_user: false,
        disabled: false,
      },
      {
        id: '0123456789abcdef01234567',
        username: uniqueName('bad'),
        fullname: 'Bad Email',
        email: 'nope',
        roles: ['event_watcher'],
      },
    ];
    const file = testInfo.outputPath('users.json');
    writeFileSync(file, JSON.stringify(records, null, 2));

    await page.goto('/users');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Users' });
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByTestId('import-pending')).toHaveText('Complete');
    await expect(dialog.getByTestId('import-imported')).toHaveText('1');
    await expect(dialog.getByTestId('import-skipped')).toHaveText('1');
    await expect(dialog.getByTestId('import-errors')).toHaveText('1');
    await expect(dialog.getByTestId('import-log')).toContainText('0123456789abcdef01234567:');
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await find(page, 'Users', fresh);
    await expect(row(page, fresh)).toContainText('Imported Person');
    const users = await adminApi.get<Array<{ username: string }>>('users');
    expect(users.filter((u) => u.username === existing.username)).toHaveLength(1);
  });

  test('import accepts .json files only', async ({ page }, testInfo) => {
    const file = testInfo.outputPath('users.csv');
    writeFileSync(file, 'username\nx\n');
    await page.goto('/users');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Users' });
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByText('Import files must be .json')).toBeVisible();
    await expect(dialog.getByTestId('import-imported')).toHaveText('0');
  });
});

test.describe('users as cruise_manager', () => {
  test('sees only regular users, grants only non-admin roles, no admin-only controls', async ({
    page,
    context,
    adminApi,
  }) => {
    const password = 'password1';
    const manager = await createUser(adminApi, { roles: ['cruise_manager'], password, fullname: 'Manager Person' });
    const adminish = await createUser(adminApi, { roles: ['admin'], fullname: 'Regular Admin' });
    const plain = await createUser(adminApi, { roles: ['event_watcher'], fullname: 'Plain Person' });
    await useSessionOf(context, manager.username, password);

    await page.goto('/users');
    await expect(table(page, 'Users')).toBeVisible();
    await expect(table(page, 'System Users')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
    // Bulk deletes are admin-only.
    await expect(page.getByRole('button', { name: 'Delete all non-system users' })).toHaveCount(0);

    await find(page, 'Users', plain.username);
    expect(await rowButtons(page, plain.username)).toEqual(['Edit user', 'Delete user']);
    // Own row: edit only. A user holding the admin role: nothing to do.
    await find(page, 'Users', manager.username);
    expect(await rowButtons(page, manager.username)).toEqual(['Edit user']);
    await find(page, 'Users', adminish.username);
    expect(await rowButtons(page, adminish.username)).toEqual([]);

    const form = page.getByRole('form', { name: 'Add User' });
    const roleBoxes = await form
      .getByRole('checkbox')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    // Sealog 2.4's power_logger and the WHOI client's guest role are offered too.
    expect(roleBoxes).toEqual([
      'cruise_manager',
      'template_manager',
      'event_manager',
      'event_logger',
      'power_logger',
      'aux_data_inserter',
      'event_watcher',
      'guest',
    ]);
    await expect(form.getByLabel('System User')).toHaveCount(0);
    await expect(form.getByLabel('User Disabled')).toHaveCount(0);

    const username = uniqueName('cm');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Full Name').fill('Made By Manager');
    await form.getByLabel('Email').fill(`${username}@example.org`);
    await form.getByLabel('Event Watcher').check();
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(form.getByRole('status')).toHaveText('Success! User created');

    // Edit a regular user's roles and delete one.
    await find(page, 'Users', plain.username);
    await row(page, plain.username)
      .getByRole('button', { name: `Edit user ${plain.username}` })
      .click();
    const edit = page.getByRole('form', { name: 'Update User' });
    await edit.getByLabel('Event Logger').check();
    await edit.getByRole('button', { name: 'Update' }).click();
    await expect(edit.getByRole('status')).toHaveText('Success! User updated');
    const stored = (await adminApi.get<Array<{ id: string; roles: string[] }>>('users')).find((u) => u.id === plain.id);
    expect(stored?.roles.sort()).toEqual(['event_logger', 'event_watcher']);

    await row(page, plain.username)
      .getByRole('button', { name: `Delete user ${plain.username}` })
      .click();
    await page.getByRole('dialog', { name: 'Confirm Deletion' }).getByRole('button', { name: 'Yup!' }).click();
    await expect(row(page, plain.username)).toHaveCount(0);
  });

  test('other roles are told off', async ({ page, context, adminApi }) => {
    const logger = await createUser(adminApi, { roles: ['event_logger'], password: 'password1' });
    await useSessionOf(context, logger.username, 'password1');
    await page.goto('/users');
    await expect(page.getByText('What are YOU doing here?')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Add User' })).toHaveCount(0);
  });
});

test.describe('users on a server of their own', () => {
  let server: StartedServer;
  let admin: ApiClient;

  test.beforeAll(async () => {
    server = await startServer({ mode: 'production', config: { useAccessControl: true } });
    admin = await apiLogin('admin', 'demo', server.url);
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
  });

  test('delete all non-system users keeps admin, guest, pi and system users', async ({ page, context }) => {
    const a = await createUser(admin, { fullname: 'Doomed A' });
    const b = await createUser(admin, { fullname: 'Doomed B' });
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/users`);
    await expect(row(page, a.username)).toBeVisible();
    await table(page, 'Users').getByRole('button', { name: 'Delete all non-system users' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete all non-system users?');
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(table(page, 'Users').getByText('No users found!')).toBeVisible();
    await expect(row(page, b.username)).toHaveCount(0);
    await expect(table(page, 'System Users').locator('tbody tr')).toHaveCount(3);
    const left = await admin.get<Array<{ id: string }>>('users');
    expect(left.map((u) => u.id).sort()).toEqual([systemIds.admin, systemIds.guest, systemIds.pi].sort());
  });

  test('access permissions: a cruise switch grants its lowerings; lowering switches need the cruise', async ({
    page,
    context,
  }) => {
    const user = await createUser(admin, { fullname: 'Access Person' });
    const cruise = await admin.post<{ insertedId: string }>('cruises', {
      cruise_id: 'AC2401',
      start_ts: '2024-01-01T00:00:00.000Z',
      stop_ts: '2024-01-31T00:00:00.000Z',
      cruise_location: 'Test Ridge',
      cruise_additional_meta: { cruise_name: 'Access Cruise', cruise_vessel: 'R/V Test', cruise_pi: 'Dr. Test' },
      cruise_tags: [],
    });
    const lowering = async (id: string, day: string) =>
      (
        await admin.post<{ insertedId: string }>('lowerings', {
          lowering_id: id,
          start_ts: `2024-01-${day}T00:00:00.000Z`,
          stop_ts: `2024-01-${day}T06:00:00.000Z`,
          lowering_location: `${id} site`,
          lowering_additional_meta: {},
          lowering_tags: [],
        })
      ).insertedId;
    const l1 = await lowering('AC-01', '05');
    const l2 = await lowering('AC-02', '06');

    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/users`);
    expect(await rowButtons(page, user.username)).toEqual([
      'Edit user',
      'Access permissions of',
      "Show user's JWT token",
      'Delete user',
    ]);
    await row(page, user.username)
      .getByRole('button', { name: `Access permissions of ${user.username}` })
      .click();
    const modal = page.getByRole('dialog', { name: 'User Permissions' });
    const cruiseSwitch = modal.getByLabel('AC2401: Access Cruise');
    const s1 = modal.getByLabel('AC-01: AC-01 site');
    const s2 = modal.getByLabel('AC-02: AC-02 site');
    await expect(s1).toBeDisabled();
    await expect(s2).toBeDisabled();

    await cruiseSwitch.check();
    await expect(s1).toBeChecked();
    await expect(s2).toBeChecked();
    await expect(s1).toBeEnabled();
    const cruiseList = async () => (await admin.get<Cruise>(`cruises/${cruise.insertedId}`)).cruise_access_list;
    const loweringList = async (id: string) => (await admin.get<Lowering>(`lowerings/${id}`)).lowering_access_list;
    expect(await cruiseList()).toEqual([user.id]);
    expect(await loweringList(l1)).toEqual([user.id]);
    expect(await loweringList(l2)).toEqual([user.id]);

    // One lowering off; then the cruise off, which locks the lowering switches.
    await s2.uncheck();
    await expect(s2).not.toBeChecked();
    expect(await loweringList(l2)).toEqual([]);
    expect(await loweringList(l1)).toEqual([user.id]);
    await cruiseSwitch.uncheck();
    await expect(cruiseSwitch).not.toBeChecked();
    await expect(s1).toBeDisabled();
    await expect(s2).toBeDisabled();
    expect(await cruiseList()).toEqual([]);

    // Close: the modal fades out with its list still drawn, and the screen stays usable.
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await expect(modal).toHaveCount(0);
    await expect(table(page, 'Users')).toBeVisible();
  });
});
