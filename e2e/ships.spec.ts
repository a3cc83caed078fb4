import type { Page } from '@playwright/test';
import { apiLogin, apiPrefix, createUser, uniqueName, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';
import { sessionOn, useSessionOf } from './support/session';

/**
 * Ship to shore (docs/screens.md#ship-to-shore): the admin screen of the ships a shore server
 * follows and of this server's own followers, and the marks of records copied from a ship (the
 * cruise menu, the management tables and the event lists are built from list answers, which carry
 * `origin`: docs/ship-to-shore.md#read-only-on-shore).
 */

const readOnly = (ship: string) =>
  `This record comes from the ship ${ship} and is read-only here; change it on the ship.`;

async function openShips(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'System Management' }).click();
  await page.getByRole('link', { name: 'Ship to Shore', exact: true }).click();
  await expect(page).toHaveURL(/\/ships$/);
  await expect(page.getByRole('heading', { name: 'Ships Followed' })).toBeVisible();
}

/** A shore follower key created on the ship by its admin, as the screen's help text says. */
async function followerKey(shipAdmin: ApiClient, name: string): Promise<string> {
  const created = await shipAdmin.post<{ key: string }>('device_keys', { name, roles: ['full_follower'] });
  return created.key;
}

test('an admin opens Ship to Shore: the form says what is missing, the followers are listed', async ({ page }) => {
  await openShips(page);
  await expect(page.getByRole('heading', { name: 'This Server as a Ship' })).toBeVisible();
  await expect(page.getByText('No shore server follows this server.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Adding a Ship' })).toBeVisible();
  await expect(page.getByText(/creates a key for this shore server with a shore follower right/)).toBeVisible();

  const form = page.getByRole('form', { name: 'Add Ship' });
  await expect(form.getByLabel('Device Key')).toHaveAttribute('type', 'password');
  await expect(form.getByLabel('Enabled')).toBeChecked();
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(form.locator('#ship-form-name-feedback')).toHaveText('Required');
  await expect(form.locator('#ship-form-url-feedback')).toHaveText('Required');
  await expect(form.locator('#ship-form-key-feedback')).toHaveText('Required');
  await form.getByLabel('Address').fill('ship.example.org');
  await form.getByLabel('Bandwidth Cap (kbit/s, blank: none)').fill('fast');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(form.locator('#ship-form-url-feedback')).toHaveText('Must be an http:// or https:// address');
  await expect(form.locator('#ship-form-bandwidth_kbps-feedback')).toHaveText(
    'Must be a whole number of kbit/s, 1 or more',
  );
  await expect(form.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');

  await expectAccessible(page);
  await page.setViewportSize({ width: 1024, height: 900 });
  await page.screenshot({ path: test.info().outputPath('ships-1024.png'), fullPage: true });
});

test('non-admins are sent away from /ships', async ({ page, context, adminApi }) => {
  const manager = await createUser(adminApi, { roles: ['cruise_manager'] });
  await useSessionOf(context, manager.username, manager.password);
  await page.goto('/ships');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Ships Followed' })).toHaveCount(0);
  await page.getByRole('button', { name: 'System Management' }).click();
  await expect(page.getByRole('link', { name: 'Ship to Shore' })).toHaveCount(0);
});

test.describe('following a ship', () => {
  let ship: StartedServer | undefined;
  let shipAdmin: ApiClient;

  test.beforeAll(async () => {
    ship = await startServer({ mode: 'production' });
    shipAdmin = await apiLogin('admin', 'demo', ship.url);
  });
  test.afterAll(async () => {
    await shipAdmin?.dispose();
    await ship?.stop();
  });

  test('an admin adds a ship, sees it followed, edits and deletes it; the ship lists its follower', async ({
    page,
    browser,
    consoleErrors,
  }) => {
    const name = uniqueName('Ship ');
    const keyName = uniqueName('shore');
    const key = await followerKey(shipAdmin, keyName);
    await openShips(page);

    const form = page.getByRole('form', { name: 'Add Ship' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Address').fill(ship!.url);
    await form.getByLabel('Device Key').fill(key);
    await form.getByLabel('Bandwidth Cap (kbit/s, blank: none)').fill('512');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ship added' })).toBeVisible();

    const row = page.getByTestId(`ship-row-${name}`);
    await expect(row).toContainText(ship!.url);
    await expect(row).toContainText('cap 512 kbit/s');
    // The key is never shown again.
    await expect(page.getByRole('table')).not.toContainText(key);
    // The follower reaches the ship; the row follows its state live, without a reload.
    await expect(row.getByTestId('ship-state')).toHaveText('Following', { timeout: 30_000 });
    await expect(row).not.toContainText('Never');

    // The ship's side: "This Server as a Ship" lists the shore by the key it uses.
    const status = await shipAdmin.get<{ role: string; followers: Array<{ key_name: string }> }>('sync/status');
    expect(status.role).toBe('ship');
    expect(status.followers.map((f) => f.key_name)).toContain(keyName);
    const onShip = await browser.newContext();
    consoleErrors.watch(onShip);
    await sessionOn(onShip, ship!.url, shipAdmin);
    const shipPage = await onShip.newPage();
    await shipPage.goto(`${ship!.url}/ships`);
    await expect(shipPage.getByTestId(`follower-row-${keyName}`)).toBeVisible();
    await onShip.close();

    await expectAccessible(page);

    await row.getByRole('button', { name: `Edit ship ${name}` }).click();
    const update = page.getByRole('form', { name: 'Update Ship' });
    await expect(update.getByLabel('Name')).toHaveValue(name);
    await expect(update.getByLabel('Device Key (blank: keep the current one)')).toHaveValue('');
    await update.getByLabel('Bandwidth Cap (kbit/s, blank: none)').fill('128');
    await update.getByLabel('Enabled').uncheck();
    await update.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Ship updated' })).toBeVisible();
    await expect(row).toContainText('cap 128 kbit/s');
    await expect(row.getByTestId('ship-state')).toHaveText('Paused', { timeout: 30_000 });

    await row.getByRole('button', { name: `Delete ship ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`delete the ship ${name}?`);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Yup!' }).click();
    await expect(row).toHaveCount(0);
  });

  test('a ship that refuses the key shows as Refused with its reason; what the server refuses, its message', async ({
    page,
  }) => {
    const name = uniqueName('Ship ');
    await openShips(page);
    const form = page.getByRole('form', { name: 'Add Ship' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Address').fill(ship!.url);
    await form.getByLabel('Device Key').fill('bk_not-a-key-this-ship-ever-made');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    const row = page.getByTestId(`ship-row-${name}`);
    await expect(row.getByTestId('ship-state')).toHaveText('Refused', { timeout: 30_000 });
    await expect(row.locator('.text-danger-emphasis')).not.toBeEmpty();

    // What only the server knows (a name too long for it) comes back as its message.
    await form.getByLabel('Name').fill('x'.repeat(101));
    await form.getByLabel('Address').fill(ship!.url);
    await form.getByLabel('Device Key').fill('bk_whatever');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(form.getByRole('alert')).toContainText('Oops!');
    await expect(page.getByTestId(`ship-row-${'x'.repeat(101)}`)).toHaveCount(0);

    await row.getByRole('button', { name: `Delete ship ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yup!' }).click();
    await expect(row).toHaveCount(0);
  });
});

test.describe('records copied from a ship', () => {
  let ship: StartedServer | undefined;
  let shore: StartedServer | undefined;
  let shipAdmin: ApiClient;
  let shoreAdmin: ApiClient;
  const shipName = 'Falkor (too)';

  test.beforeAll(async () => {
    // Two start-ups, each allowed startServer's own limit: the hook's default (the test timeout,
    // 60 s) ran out between them on a machine also running the unit suites (load about 20).
    test.setTimeout(360_000);
    // One after the other: two start-ups at once may outlast the start-up timeout on a busy machine.
    ship = await startServer({ mode: 'production' });
    shore = await startServer({ mode: 'production' });
    shipAdmin = await apiLogin('admin', 'demo', ship.url);
    shoreAdmin = await apiLogin('admin', 'demo', shore.url);
  });
  test.afterAll(async () => {
    await Promise.all([shipAdmin?.dispose(), shoreAdmin?.dispose()]);
    await Promise.all([ship?.stop(), shore?.stop()]);
  });

  test('show "From ship", refuse edits with the reason, and keep comments', async ({ page, context }) => {
    await shipAdmin.post('cruises', {
      cruise_id: 'SH2303',
      start_ts: '2023-03-01T00:00:00.000Z',
      stop_ts: '2023-03-31T00:00:00.000Z',
      cruise_location: 'Kane FZ',
      cruise_additional_meta: { cruise_vessel: 'R/V Falkor (too)', cruise_pi: 'Dr. Who' },
      cruise_tags: [],
    });
    await shipAdmin.post('events', { event_value: 'FISH', ts: '2023-03-14T12:00:00.000Z' });
    await shoreAdmin.post('ships', { name: shipName, url: ship!.url, key: await followerKey(shipAdmin, 'shore') });

    type Copied = { id: string; cruise_id: string; origin?: { ship_name: string } };
    let cruise: Copied | undefined;
    await expect
      .poll(
        async () => {
          const res = await shoreAdmin.context.get(`${apiPrefix}/cruises`);
          cruise = res.ok() ? ((await res.json()) as Copied[])[0] : undefined;
          return cruise?.cruise_id;
        },
        { timeout: 30_000 },
      )
      .toBe('SH2303');

    // The shore refuses a change with the reason.
    const refused = await shoreAdmin.context.patch(`${apiPrefix}/cruises/${cruise!.id}`, {
      data: { cruise_location: 'Elsewhere' },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(readOnly(shipName));
    const single = await shoreAdmin.get<Copied>(`cruises/${cruise!.id}`);
    expect(single.origin).toEqual({ ship_id: expect.any(String), ship_name: shipName });
    // The lists carry it too: the cruise menu and the management table are built from them.
    expect(cruise!.origin).toEqual({ ship_id: expect.any(String), ship_name: shipName });

    await sessionOn(context, shore!.url, shoreAdmin);
    await page.goto(`${shore!.url}/cruise_menu`);
    await page.getByRole('button', { name: 'SH2303', exact: true }).click();
    const card = page.getByRole('region', { name: /^Cruise: SH2303/ });
    await expect(card.getByTestId('from-ship')).toHaveText(`From ship ${shipName}`);

    await page.goto(`${shore!.url}/cruises`);
    const edit = page.getByRole('button', { name: 'Edit SH2303' });
    await expect(edit).toHaveAttribute('aria-disabled', 'true');
    await expect(edit).toHaveAttribute('title', readOnly(shipName));
    await expect(page.getByRole('button', { name: 'Delete SH2303' })).toHaveAttribute('title', readOnly(shipName));

    // Events: the trash is disabled with the reason; a comment may still be added.
    await page.goto(`${shore!.url}/event_management`);
    const line = page.getByTestId('event-line').filter({ hasText: 'FISH' });
    await expect(line.getByRole('button', { name: 'Delete this event' })).toHaveAttribute('aria-disabled', 'true');
    await line.getByRole('button', { name: 'Add Comment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox').fill('seen from shore');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(line.getByRole('button', { name: 'Edit/View Comment' })).toBeVisible();
    await line.getByRole('button', { name: /FISH/ }).click();
    await expect(page.getByRole('dialog').getByTestId('from-ship')).toHaveText(`From ship ${shipName}`);
    await expectAccessible(page, '[role="dialog"]');
  });
});
