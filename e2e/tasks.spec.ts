import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiLogin, createUser, type ApiClient } from './support/api';
import { test, expect } from './support/fixtures';
import path from 'node:path';
import { repoRoot, startServer, type StartedServer } from './support/server';
import { sessionOn, useSessionOf } from './support/session';

/**
 * Admin tasks (/tasks, docs/screens.md#tasks): imports of event and aux-data records and the wipe. They
 * change every event, so they run on a server of their own.
 */

const ids = {
  first: '64025492c476e18a7cfc0001',
  second: '64025492c476e18a7cfc0002',
  existing: '64025492c476e18a7cfc0003',
  aux: '64025492c476e18a7cfc00a1',
};

async function openTask(page: Page, name: string, dialog: string) {
  await page.getByRole('button', { name }).click();
  return page.getByRole('dialog', { name: dialog });
}

/** GET on a list: Sealog answers an empty list with 404. */
async function count(api: ApiClient, path: string): Promise<number> {
  const res = await api.context.get(`/sealog-server/api/v1/${path}`);
  if (res.status() === 404) return 0;
  expect(res.status()).toBe(200);
  return ((await res.json()) as unknown[]).length;
}

test.describe('tasks on a server of their own', () => {
  test.describe.configure({ mode: 'serial' });
  let server: StartedServer;
  let admin: ApiClient;

  test.beforeAll(async () => {
    server = await startServer({ mode: 'production' });
    admin = await apiLogin('admin', 'demo', server.url);
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
  });

  test('admins see when the last backup was made', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);
    await expect(page.getByTestId('last-backup')).toHaveText('Last backup: none yet (no scheduled backups)');
    await page.screenshot({ path: 'test-results/tasks-last-backup.png' });
  });

  test('hovering or focusing an entry describes it', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);
    await page.getByRole('button', { name: 'Import Event Records' }).hover();
    await expect(page.getByTestId('task-description')).toHaveText(
      'Import Event RecordsAdd new event data records from a JSON-formatted file.',
    );
    await page.getByRole('button', { name: 'Wipe Local Database' }).hover();
    await expect(page.getByTestId('task-description')).toContainText(
      'Delete all existing events and their aux data from the local database.',
    );
    // Keyboard users get the same text.
    await page.getByRole('button', { name: 'Import Aux Data Records' }).focus();
    await expect(page.getByTestId('task-description')).toContainText(
      'Add new aux data records from a JSON-formatted file.',
    );
    await expect(page.getByRole('button', { name: 'Import Aux Data Records' })).toHaveAccessibleDescription(
      /Add new aux data records/,
    );
  });

  test('event import: new records imported, an existing id skipped, a bad record logged', async ({
    page,
    context,
  }, testInfo) => {
    await admin.post('events', { id: ids.existing, event_value: 'ALREADY', ts: '2023-03-03T16:00:00.000Z' });
    const records = [
      {
        id: ids.first,
        ts: '2023-03-03T17:00:00.000Z',
        event_author: 'mt',
        event_value: 'CRUISE',
        event_free_text: '',
        event_options: [{ event_option_name: 'status', event_option_value: 'Start of Cruise' }],
        // Export files with aux data carry more fields: they are left out.
        aux_data: [],
      },
      {
        id: ids.existing,
        ts: '2023-03-03T16:00:00.000Z',
        event_author: 'mt',
        event_value: 'ALREADY',
        event_free_text: '',
        event_options: [],
      },
      {
        id: ids.second,
        ts: '2023-03-03T18:00:00.000Z',
        event_author: 'mt',
        event_value: 'SONAR',
        event_free_text: 'ping',
        event_options: [],
      },
      { id: '64025492c476e18a7cfc0bad', ts: 'yesterday', event_author: 'mt', event_value: 'BAD', event_options: [] },
    ];
    const file = testInfo.outputPath('events.json');
    writeFileSync(file, JSON.stringify(records));

    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);
    const dialog = await openTask(page, 'Import Event Records', 'Import Event Records');
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByTestId('import-pending')).toHaveText('Complete');
    await expect(dialog.getByTestId('import-imported')).toHaveText('2');
    await expect(dialog.getByTestId('import-skipped')).toHaveText('1');
    await expect(dialog.getByTestId('import-errors')).toHaveText('1');
    await expect(dialog.getByTestId('import-log')).toContainText('64025492c476e18a7cfc0bad:');
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    const first = await admin.get<{ event_author: string; ts: string; event_options: unknown[] }>(
      `events/${ids.first}`,
    );
    expect(first).toMatchObject({
      event_author: 'mt',
      ts: '2023-03-03T17:00:00.000Z',
      event_options: [{ event_option_name: 'status', event_option_value: 'Start of Cruise' }],
    });
    expect(await count(admin, 'events')).toBe(3);
  });

  test('aux-data import: created, replaced (updated) and refused records are counted apart', async ({
    page,
    context,
  }, testInfo) => {
    const nav = (lat: string) => ({
      event_id: ids.first,
      data_source: 'vesselRealtimeNavData',
      data_array: [{ data_name: 'latitude', data_value: lat, data_uom: 'ddeg' }],
    });
    const records = [
      { ...nav('18.5'), id: ids.aux },
      nav('18.6'), // same event and source: the server replaces the data
      { event_id: '64025492c476e18a7cfc0fff', data_source: 'vesselRealtimeNavData', data_array: [] },
    ];
    const file = testInfo.outputPath('aux.json');
    writeFileSync(file, JSON.stringify(records));

    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);
    const dialog = await openTask(page, 'Import Aux Data Records', 'Import Aux Data Records');
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByTestId('import-pending')).toHaveText('Complete');
    await expect(dialog.getByTestId('import-imported')).toHaveText('1');
    await expect(dialog.getByTestId('import-updated')).toHaveText('1');
    await expect(dialog.getByTestId('import-skipped')).toHaveText('0');
    await expect(dialog.getByTestId('import-errors')).toHaveText('1');
    await expect(dialog.getByTestId('import-log')).toContainText('unknown:');
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    const aux = await admin.get<{ data_array: Array<{ data_value: string }> }>(`event_aux_data/${ids.aux}`);
    expect(aux.data_array[0]!.data_value).toBe('18.6');
  });

  test('an import file that is not JSON, or holds no records, says what is wrong', async ({
    page,
    context,
    consoleErrors,
  }, testInfo) => {
    // The unreadable file is also logged to the console, on purpose.
    consoleErrors.allow(/broken\.json is not valid JSON/);
    const logged: string[] = [];
    page.on('console', (msg) => logged.push(msg.text()));
    const broken = testInfo.outputPath('broken.json');
    writeFileSync(broken, '[{"id": "64025492c476e18a7cfc0001", "event_value": "CUT OFF"');
    const empty = testInfo.outputPath('empty.json');
    writeFileSync(empty, '[]');
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);
    const dialog = await openTask(page, 'Import Event Records', 'Import Event Records');
    await dialog.getByTestId('import-file-input').setInputFiles(broken);
    await expect(dialog.getByRole('alert')).toContainText('broken.json is not valid JSON:');
    expect(logged.filter((line) => line.startsWith('broken.json is not valid JSON:'))).toHaveLength(1);
    await expect(dialog.getByTestId('import-imported')).toHaveText('0');
    await dialog.getByTestId('import-file-input').setInputFiles(empty);
    await expect(dialog.getByRole('alert')).toHaveText('empty.json holds no records to import.');
  });

  test('a destructive confirmation opens on its safe button: Enter twice wipes nothing', async ({ page, context }) => {
    const before = await count(admin, 'events');
    expect(before).toBeGreaterThan(0);
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);
    const wipe = page.getByRole('button', { name: 'Wipe Local Database' });
    await wipe.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Confirm Wipe' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    expect(await count(admin, 'events')).toBe(before);
  });

  test('wipe asks first; Cancel keeps everything, Yup! deletes every event and aux-data record', async ({
    page,
    context,
  }) => {
    expect(await count(admin, 'events')).toBeGreaterThan(0);
    expect(await count(admin, 'event_aux_data')).toBeGreaterThan(0);
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/tasks`);

    await page.getByRole('button', { name: 'Wipe Local Database' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Wipe' });
    await expect(confirm).toContainText('Are you sure you want to wipe the local database?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect(await count(admin, 'events')).toBe(3);

    await page.getByRole('button', { name: 'Wipe Local Database' }).click();
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'deleted' })).toBeVisible();
    expect(await count(admin, 'events')).toBe(0);
    expect(await count(admin, 'event_aux_data')).toBe(0);
  });

  // 9,080 requests, one per record as the dialog sends them: minutes on a two-core machine, so it
  // runs in `npm run test:soak` (docs/performance.md#how-long-the-tests-take).
  test(
    "dive S0492's own export (4,540 events) imports whole, and a second import skips every record",
    { tag: '@soak' },
    async ({ page, context }) => {
      // Each import took 4-6 min on a loaded two-core machine.
      test.setTimeout(1_500_000);
      const file = path.join(repoRoot, 'apps/server/demo/FKt230303_S0492_eventOnlyExport.json');
      await sessionOn(context, server.url, admin);
      await page.goto(`${server.url}/tasks`);
      for (const run of [
        { imported: '4540', skipped: '0' },
        { imported: '0', skipped: '4540' },
      ]) {
        const dialog = await openTask(page, 'Import Event Records', 'Import Event Records');
        await dialog.getByTestId('import-file-input').setInputFiles(file);
        await expect(dialog.getByTestId('import-pending')).toHaveText('Complete', { timeout: 700_000 });
        await expect(dialog.getByTestId('import-imported')).toHaveText(run.imported);
        await expect(dialog.getByTestId('import-skipped')).toHaveText(run.skipped);
        await expect(dialog.getByTestId('import-errors')).toHaveText('0');
        await dialog.getByRole('button', { name: 'Close' }).last().click();
        await expect(dialog).toBeHidden();
      }
      const total = await admin.get<{ events: number }>('events/count');
      expect(total.events).toBe(4540);
    },
  );
});

test('tasks: anyone but an admin is sent home', async ({ page, context, adminApi }) => {
  const manager = await createUser(adminApi, { roles: ['cruise_manager'], password: 'password1' });
  await useSessionOf(context, manager.username, 'password1');
  await page.goto('/tasks');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Wipe Local Database' })).toHaveCount(0);
});
