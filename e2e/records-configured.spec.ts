import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiLogin, createUser, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';
import { sessionOn } from './support/session';
import type { Cruise, Lowering } from '@bathylog/shared';

/**
 * Cruises, lowerings and the cruise menu on a server of their own: production data (no cruises at
 * first), access control on, event logging disabled, a 10 kB upload limit, an export command and
 * ID patterns (docs/screens.md#cruise-and-lowering-management, docs/screens.md#cruise-menu).
 */

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

test.describe.serial('records on a configured server', () => {
  let server: StartedServer;
  let admin: ApiClient;
  let activeCruise: { id: string; cruise_id: string };
  let early: { id: string; lowering_id: string };
  let latest: { id: string; lowering_id: string };

  test.beforeAll(async () => {
    server = await startServer({
      mode: 'production',
      config: {
        useAccessControl: true,
        uploadLimitMb: 0.01,
        externalCalls: { exportLowering: 'echo 2024-01-01 - INFO - exporting {id}' },
        client: { disableEventLogging: true, loweringIdRegex: '^S\\d{4}$', cruiseIdRegex: '^[A-Z]{2}\\d{4}$' },
      },
    });
    admin = await apiLogin('admin', 'demo', server.url);
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
  });

  const open = async (page: Page, path: string) => page.goto(`${server.url}${path}`);

  test('with event logging disabled, / is the cruise menu; no cruises yet', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await open(page, '/');
    await expect(page.getByRole('heading', { name: 'Welcome to Bathylog' })).toBeVisible();
    await expect(page.getByText('No cruises found!')).toBeVisible();
    await expectAccessible(page);
  });

  test('the cruise menu selects the cruise covering now and its latest lowering', async ({ page, context }) => {
    const now = Date.now();
    const cruise = async (cruise_id: string, start: number, stop: number) => {
      const { insertedId } = await admin.post<{ insertedId: string }>('cruises', {
        cruise_id,
        start_ts: iso(start),
        stop_ts: iso(stop),
        cruise_location: `${cruise_id} area`,
        cruise_additional_meta: { cruise_vessel: 'R/V Now', cruise_pi: 'Dr. Now' },
        cruise_tags: [],
      });
      return { id: insertedId, cruise_id };
    };
    const lowering = async (lowering_id: string, start: number) => {
      const { insertedId } = await admin.post<{ insertedId: string }>('lowerings', {
        lowering_id,
        start_ts: iso(start),
        stop_ts: iso(start + 3_600_000),
        lowering_location: `${lowering_id} site`,
        lowering_additional_meta: {},
        lowering_tags: [],
      });
      return { id: insertedId, lowering_id };
    };
    activeCruise = await cruise('NW0001', now - 3 * day, now + 5 * day);
    await cruise('OL1999', Date.UTC(1999, 4, 1), Date.UTC(1999, 4, 20));
    early = await lowering('S0001', now - 2 * day);
    latest = await lowering('S0002', now - day);

    await sessionOn(context, server.url, admin);
    await open(page, '/cruise_menu');
    const year = new Date(now - 3 * day).getUTCFullYear();
    await expect(page.getByRole('button', { name: `Year: ${year}` })).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('button', { name: 'Year: 1999' })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('region', { name: 'Cruise: NW0001' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Lowering: S0002' })).toBeVisible();
    // The cruise's lowerings in time order; the selected one is not a button.
    await expect(page.getByRole('list', { name: 'Lowerings' }).getByRole('listitem')).toHaveText(['S0001', 'S0002']);
    await expectAccessible(page);

    // Another year clears the selection.
    await page.getByRole('button', { name: 'Year: 1999' }).click();
    await expect(page.getByRole('region', { name: /^Cruise: / })).toHaveCount(0);
    await page.getByRole('button', { name: 'OL1999', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Cruise: OL1999' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Cruise: OL1999' })).toContainText('No lowerings found!');
  });

  test('permission switches are saved and honoured for a cruise manager', async ({ page, context, browser }) => {
    test.setTimeout(180_000);
    const manager = await createUser(admin, { fullname: 'Manny Manager', roles: ['cruise_manager'] });
    // A record with an empty access list is open to everyone: name someone else on them first.
    const other = await createUser(admin, { fullname: 'Olga Other', roles: ['event_watcher'] });
    await admin.patch(`cruises/${activeCruise.id}/permissions`, { add: [other.id] });
    for (const l of [early, latest]) await admin.patch(`lowerings/${l.id}/permissions`, { add: [other.id] });
    const managerApi = await apiLogin(manager.username, manager.password, server.url);
    const managerContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    await sessionOn(managerContext, server.url, managerApi);
    const managerPage = await managerContext.newPage();
    await managerPage.goto(`${server.url}/cruises`);
    await expect(
      managerPage.getByText('Sorry... there are no currently active cruises for you to edit.'),
    ).toBeVisible();

    await sessionOn(context, server.url, admin);
    await open(page, '/cruises');
    await page.getByRole('button', { name: 'Permissions of NW0001' }).click();
    const modal = page.getByRole('dialog', { name: 'Cruise Permissions' });
    await expect(modal.getByLabel('Olga Other')).toBeChecked();
    await expect(modal.getByLabel('Manny Manager')).not.toBeChecked();
    await expectAccessible(page, '.modal');
    await modal.getByLabel('Manny Manager').check();
    await expect(modal.getByLabel('Manny Manager')).toBeChecked();
    await expect
      .poll(async () => (await admin.get<Cruise>(`cruises/${activeCruise.id}`)).cruise_access_list)
      .toContain(manager.id);
    await modal.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();

    // The lowering modal: take S0001 away again (the cruise grant gave the manager both).
    await open(page, '/lowerings');
    await page.getByRole('button', { name: 'Permissions of S0001' }).click();
    const lmodal = page.getByRole('dialog', { name: 'Lowering Permissions' });
    const sw = lmodal.getByLabel('Manny Manager');
    if (await sw.isChecked()) await sw.uncheck();
    await expect(sw).not.toBeChecked();
    await expect
      .poll(async () => (await admin.get<Lowering>(`lowerings/${early.id}`)).lowering_access_list ?? [])
      .not.toContain(manager.id);
    if (!((await admin.get<Lowering>(`lowerings/${latest.id}`)).lowering_access_list ?? []).includes(manager.id)) {
      await admin.patch(`lowerings/${latest.id}/permissions`, { add: [manager.id] });
    }

    // Honoured: the manager now edits the active cruise, with the admin-only fields disabled.
    await managerPage.reload();
    const form = managerPage.getByRole('form', { name: 'Update Cruise' });
    await expect(form.getByLabel('Cruise ID')).toHaveValue('NW0001');
    for (const label of [
      'Cruise ID',
      'Vessel Name',
      'Primary Investigator',
      'Start Date (UTC)',
      'Stop Date (UTC)',
      'Departure Port',
      'Arrival Port',
    ]) {
      await expect(form.getByLabel(label, { exact: true })).toBeDisabled();
    }
    await expect(managerPage.getByRole('region', { name: 'Cruises' })).toHaveCount(0);
    await form.getByLabel('Cruise Name').fill('Managed Name');
    await form.getByRole('button', { name: 'Update' }).click();
    await expect(managerPage.getByRole('status').filter({ hasText: 'Cruise updated' })).toBeVisible();
    expect((await admin.get<Cruise>(`cruises/${activeCruise.id}`)).cruise_additional_meta).toMatchObject({
      cruise_name: 'Managed Name',
      cruise_vessel: 'R/V Now',
      cruise_pi: 'Dr. Now',
    });

    // Lowerings: only those of the active cruise the manager may see; no admin actions.
    await managerPage.goto(`${server.url}/lowerings`);
    const row = managerPage.getByTestId('lowering-row-S0002');
    await expect(row).toBeVisible();
    await expect(managerPage.getByTestId('lowering-row-S0001')).toHaveCount(0);
    expect(await row.getByRole('button').evaluateAll((b) => b.map((e) => e.getAttribute('aria-label')))).toEqual([
      'Edit S0002',
      'Copy S0002 to clipboard',
    ]);
    await expect(managerPage.getByRole('button', { name: 'Import From File' })).toHaveCount(0);
    await expect(managerPage.getByRole('form', { name: 'Add Lowering' })).toHaveCount(0);
    await row.getByRole('button', { name: 'Edit S0002' }).click();
    const lform = managerPage.getByRole('form', { name: 'Update Lowering' });
    await expect(lform.getByLabel('Lowering ID')).toBeDisabled();
    await expect(lform.getByLabel('Start Date/Time (UTC)')).toBeDisabled();
    await expect(lform.getByLabel('Stop Date/Time (UTC)')).toBeDisabled();
    await expect(lform.getByRole('button', { name: 'Milestones' })).toBeVisible();
    await lform.getByLabel('Lowering Location').fill('Managed site');
    await lform.getByRole('button', { name: 'Update' }).click();
    await expect(managerPage.getByRole('status').filter({ hasText: 'Lowering updated' })).toBeVisible();
    expect((await admin.get<Lowering>(`lowerings/${latest.id}`)).lowering_location).toBe('Managed site');
    await managerContext.close();
    await managerApi.dispose();
  });

  test('an upload over the limit shows the server message and keeps the form', async ({ page, context }, testInfo) => {
    await sessionOn(context, server.url, admin);
    await open(page, '/lowerings');
    await page.getByRole('button', { name: 'Edit S0001' }).click();
    const form = page.getByRole('form', { name: 'Update Lowering' });
    await form.getByLabel('Lowering Location').fill('Typed but not saved');
    const big = testInfo.outputPath('big.bin');
    writeFileSync(big, Buffer.alloc(40_000, 7));
    await form.getByLabel('Upload Lowering Files').setInputFiles(big);
    await expect(form.getByTestId('upload-item').getByRole('alert')).toHaveText(
      'File too large: the upload limit is 0.01 MB per file',
    );
    await expect(form.getByLabel('Lowering Location')).toHaveValue('Typed but not saved');
    await expect(form.getByRole('button', { name: 'Update' })).toBeEnabled();
  });

  test('the non-standard ID warning follows the configured pattern', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await open(page, '/lowerings');
    const id = page.getByRole('form', { name: 'Add Lowering' }).getByLabel('Lowering ID');
    await id.fill('DIVE-1');
    await expect(id).toHaveAccessibleDescription('Non-standard ID');
    await id.fill('S1234');
    await expect(page.getByText('Non-standard ID')).toHaveCount(0);
    await open(page, '/cruises');
    const cid = page.getByRole('form', { name: 'Add Cruise' }).getByLabel('Cruise ID');
    await cid.fill('cruise-x');
    await expect(cid).toHaveAccessibleDescription('Non-standard ID');
  });

  test('the export of a lowering streams the command output, then Close', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await open(page, '/lowerings');
    await page.getByRole('button', { name: 'Export S0002' }).click();
    const modal = page.getByRole('dialog', { name: 'Export Lowering: S0002' });
    await expect(modal).toContainText('Export data related to this lowering to files.');
    await expect(modal.locator('.modal-footer').getByRole('button', { name: 'Close' })).toHaveCount(0);
    await modal.getByRole('button', { name: 'Proceed?' }).click();
    await expect(modal.getByTestId('execute-output')).toContainText('INFO - exporting S0002');
    await expect(modal.getByTestId('execute-output')).toContainText('Process exited with code: 0');
    await modal.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    await expect(modal).toHaveCount(0);
  });
});
