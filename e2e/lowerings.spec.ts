import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { createUser, uniqueName, type ApiClient } from './support/api';
import { useSessionOf } from './support/session';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import type { Lowering } from '@bathylog/shared';

/** Lowering management (/lowerings, docs/screens.md#lowerings) as admin on the shared demo server. */

const table = (page: Page) => page.getByRole('region', { name: 'Lowerings', exact: true });
const row = (page: Page, id: string) => page.getByTestId(`lowering-row-${id}`);
const form = (page: Page, mode: 'Add' | 'Update') => page.getByRole('form', { name: `${mode} Lowering` });

/** A short unique lowering id (at most 15 characters). */
const newId = () => uniqueName('L').toUpperCase().slice(0, 12);

async function createLowering(api: ApiClient, overrides: Partial<Lowering> = {}): Promise<Lowering> {
  const body = {
    lowering_id: overrides.lowering_id ?? newId(),
    start_ts: overrides.start_ts ?? '2022-05-01T10:00:00.000Z',
    stop_ts: overrides.stop_ts ?? '2022-05-01T16:30:00.000Z',
    lowering_location: overrides.lowering_location ?? 'Test Seamount',
    lowering_tags: overrides.lowering_tags ?? [],
    lowering_additional_meta: overrides.lowering_additional_meta ?? { lowering_description: 'A test dive' },
  };
  const { insertedId } = await api.post<{ insertedId: string }>('lowerings', body);
  return api.get<Lowering>(`lowerings/${insertedId}`);
}

async function search(page: Page, text: string) {
  await table(page).getByRole('searchbox').fill(text);
}

test.describe('lowerings as admin', () => {
  test('lists the demo dive with its details, searches, and loads it into the form', async ({ page }, testInfo) => {
    // Two axe runs and four full-page screenshots: slow on a busy machine.
    test.setTimeout(150_000);
    await page.goto('/lowerings');
    await expect(table(page).getByRole('columnheader')).toHaveText(['Lowering', 'Details', 'Actions']);
    await search(page, 's0492');
    await expect(row(page, 'S0492')).toContainText('Location: Kane FZ');
    await expect(row(page, 'S0492')).toContainText('Started: 2023-03-14 22:15');
    await expect(row(page, 'S0492')).toContainText('Duration: 10 hours 17 minutes');
    await expect(form(page, 'Add')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Lowering' })).toBeDisabled();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Edit S0492' }).click();
    const update = form(page, 'Update');
    await expect(update.getByLabel('Lowering ID')).toHaveValue('S0492');
    await expect(update.getByLabel('Lowering Location')).toHaveValue('Kane FZ');
    await expect(update.getByLabel('Start Date/Time (UTC)')).toHaveValue('2023-03-14 22:15:39.479');
    await expect(update.getByRole('button', { name: 'Update' })).toBeDisabled();
    await expect(update.getByRole('button', { name: 'Milestones' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Lowering' })).toBeEnabled();
    await expectAccessible(page);
    for (const width of [1400, 768]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: testInfo.outputPath(`lowerings-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await search(page, 'no such dive anywhere');
    await expect(table(page).getByText('No lowerings found!')).toBeVisible();
    // Back to add mode: a fresh form with the new-lowering defaults (docs/screens.md#lowering-form).
    await page.getByRole('button', { name: 'Add Lowering' }).click();
    await expect(form(page, 'Add').getByLabel('Lowering ID')).toHaveValue('');
    await expect(form(page, 'Add').getByRole('button', { name: 'Milestones' })).toHaveCount(0);
    const start = await form(page, 'Add').getByLabel('Start Date/Time (UTC)').inputValue();
    const stop = await form(page, 'Add').getByLabel('Stop Date/Time (UTC)').inputValue();
    expect(start).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(Date.parse(`${stop.replace(' ', 'T')}Z`) - Date.parse(`${start.replace(' ', 'T')}Z`)).toBe(86_400_000);
  });

  test('add form: required fields, ID length, time checks, then a lowering is created', async ({ page, adminApi }) => {
    await page.goto('/lowerings');
    const add = form(page, 'Add');
    const id = add.getByLabel('Lowering ID');
    const start = add.getByLabel('Start Date/Time (UTC)');
    const stop = add.getByLabel('Stop Date/Time (UTC)');
    const submit = add.getByRole('button', { name: 'Add', exact: true });

    await start.fill('');
    await stop.fill('2024-13-40 10:00');
    await submit.click();
    await expect(id).toHaveAccessibleDescription('Required');
    await expect(start).toHaveAccessibleDescription('Required');
    await expect(stop).toHaveAccessibleDescription('Invalid timestamp');

    await id.fill('ABCDEFGHIJKLMNOP');
    await start.fill('2024-02-01 12:00');
    await stop.fill('2024-02-01 11:00');
    await submit.click();
    await expect(id).toHaveAccessibleDescription('Must be 15 characters or less');
    await expect(stop).toHaveAccessibleDescription('Stop date must be later than start data');
    await expect(start).not.toHaveAttribute('aria-invalid', 'true');

    const loweringId = newId();
    await id.fill(loweringId);
    await add.getByLabel('Lowering Location').fill('Axial Seamount');
    await add.getByLabel('Lowering Description').fill('First line\nSecond line');
    await stop.fill('2024-02-01 18:30');
    await add.getByLabel('Lowering Tags, comma delimited').fill(' coral, ,chemistry ');
    await submit.click();
    await expect(page.getByRole('status').filter({ hasText: 'Lowering created' })).toContainText('Success!');
    await expect(id).toHaveValue('');

    const [saved] = (await adminApi.get<Lowering[]>(`lowerings?lowering_id=${loweringId}`)).filter(
      (l) => l.lowering_id === loweringId,
    );
    expect(saved).toMatchObject({
      lowering_id: loweringId,
      start_ts: '2024-02-01T12:00:00.000Z',
      stop_ts: '2024-02-01T18:30:00.000Z',
      lowering_location: 'Axial Seamount',
      lowering_tags: ['coral', 'chemistry'],
      lowering_hidden: false,
    });
    expect(saved!.lowering_additional_meta.lowering_description).toBe('First line\nSecond line');
    await search(page, loweringId);
    await expect(row(page, loweringId)).toContainText('Location: Axial Seamount');
  });

  test('edit, hide, show and delete a lowering', async ({ page, adminApi }) => {
    const lowering = await createLowering(adminApi, {
      lowering_additional_meta: {
        lowering_description: 'Keep my milestones',
        milestones: { lowering_on_bottom: '2022-05-01T11:00:00.000Z' },
        stats: { max_depth: 1234 },
      } as Lowering['lowering_additional_meta'],
    });
    await page.goto('/lowerings');
    await search(page, lowering.lowering_id);
    await page.getByRole('button', { name: `Edit ${lowering.lowering_id}` }).click();
    const update = form(page, 'Update');
    await update.getByLabel('Lowering Location').fill('Moved Seamount');
    await update.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lowering updated' })).toBeVisible();
    const after = await adminApi.get<Lowering & { lowering_additional_meta: Record<string, unknown> }>(
      `lowerings/${lowering.id}`,
    );
    expect(after.lowering_location).toBe('Moved Seamount');
    // The meta is replaced whole on the server: the form sends the stored milestones and stats back.
    expect(after.lowering_additional_meta).toMatchObject({
      lowering_description: 'Keep my milestones',
      milestones: { lowering_on_bottom: '2022-05-01T11:00:00.000Z' },
      stats: { max_depth: 1234 },
    });
    await expect(row(page, lowering.lowering_id)).toContainText('Location: Moved Seamount');

    const hide = row(page, lowering.lowering_id).getByRole('button', { name: `Hide ${lowering.lowering_id}` });
    await expect(hide).toHaveAttribute('title', 'Lowering is visible, click to hide.');
    await hide.click();
    const show = row(page, lowering.lowering_id).getByRole('button', { name: `Show ${lowering.lowering_id}` });
    await expect(show).toHaveAttribute('title', 'Lowering is hidden, click to show.');
    expect((await adminApi.get<Lowering>(`lowerings/${lowering.id}`)).lowering_hidden).toBe(true);
    await show.click();
    await expect(
      row(page, lowering.lowering_id).getByRole('button', { name: `Hide ${lowering.lowering_id}` }),
    ).toBeVisible();
    expect((await adminApi.get<Lowering>(`lowerings/${lowering.id}`)).lowering_hidden).toBe(false);

    await row(page, lowering.lowering_id)
      .getByRole('button', { name: `Delete ${lowering.lowering_id}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete this lowering?');
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(row(page, lowering.lowering_id)).toHaveCount(0);
    await expect(form(page, 'Add')).toBeVisible();
    const res = await adminApi.context.get(`/sealog-server/api/v1/lowerings/${lowering.id}`);
    expect(res.status()).toBe(404);
  });

  test('files: upload with progress, download the same bytes, delete after confirmation', async ({
    page,
    adminApi,
  }, testInfo) => {
    const lowering = await createLowering(adminApi);
    await page.goto('/lowerings');
    // Files can be added only once the record exists.
    await expect(form(page, 'Add').getByLabel('Upload Lowering Files')).toBeDisabled();
    await search(page, lowering.lowering_id);
    await page.getByRole('button', { name: `Edit ${lowering.lowering_id}` }).click();
    const update = form(page, 'Update');

    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
    const file = testInfo.outputPath('dive-notes.bin');
    writeFileSync(file, bytes);
    await update.getByLabel('Upload Lowering Files').setInputFiles(file);
    await expect(update.getByTestId('upload-item')).toContainText('Upload complete');
    await update.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lowering updated' })).toBeVisible();
    await expect(update.getByTestId('upload-item')).toHaveCount(0);
    const files = update.getByTestId('lowering-files');
    await expect(files).toContainText('Lowering Files');
    await expect(files.getByRole('button', { name: 'Download dive-notes.bin' })).toBeVisible();
    expect((await adminApi.get<Lowering>(`lowerings/${lowering.id}`)).lowering_additional_meta.lowering_files).toEqual([
      'dive-notes.bin',
    ]);

    const download = page.waitForEvent('download');
    await files.getByRole('button', { name: 'Download dive-notes.bin' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('dive-notes.bin');
    expect(readFileSync((await saved.path())!).equals(bytes)).toBe(true);

    await files.getByRole('button', { name: 'Delete dive-notes.bin' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete this file?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(files.getByRole('button', { name: 'Download dive-notes.bin' })).toBeVisible();
    await files.getByRole('button', { name: 'Delete dive-notes.bin' }).click();
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(update.getByTestId('lowering-files')).toHaveCount(0);
    expect(
      (await adminApi.get<Lowering>(`lowerings/${lowering.id}`)).lowering_additional_meta.lowering_files ?? [],
    ).toEqual([]);
  });

  test('uploads the form never saves are reverted by Reset Values and by leaving the form', async ({
    page,
    adminApi,
  }, testInfo) => {
    const lowering = await createLowering(adminApi);
    await page.goto('/lowerings');
    await search(page, lowering.lowering_id);
    await page.getByRole('button', { name: `Edit ${lowering.lowering_id}` }).click();
    const update = form(page, 'Update');
    const file = testInfo.outputPath('never-saved.txt');
    writeFileSync(file, 'not kept');

    const upload = async () => {
      const processed = page.waitForResponse((r) => r.url().includes('/lowerings/filepond/process') && r.ok());
      await update.getByLabel('Upload Lowering Files').setInputFiles(file);
      const uploadId = await (await processed).text();
      await expect(update.getByTestId('upload-item')).toContainText('Upload complete');
      return uploadId;
    };
    const gone = (uploadId: string) =>
      expect(
        adminApi.patch(`lowerings/${lowering.id}`, { lowering_additional_meta: { lowering_files: [uploadId] } }),
      ).rejects.toThrow(`Upload not found: ${uploadId}`);

    // Reset Values clears the upload area and reverts what it held.
    const first = await upload();
    const reverted = page.waitForResponse((r) => r.url().includes('/lowerings/filepond/revert'));
    await update.getByRole('button', { name: 'Reset Values' }).click();
    expect((await reverted).ok()).toBe(true);
    await expect(update.getByTestId('upload-item')).toHaveCount(0);
    await gone(first);

    // Leaving the form (Add Lowering replaces it) reverts too.
    const second = await upload();
    const revertedOnLeave = page.waitForResponse((r) => r.url().includes('/lowerings/filepond/revert'));
    await page.getByRole('button', { name: 'Add Lowering' }).click();
    expect((await revertedOnLeave).ok()).toBe(true);
    await gone(second);
    expect(
      (await adminApi.get<Lowering>(`lowerings/${lowering.id}`)).lowering_additional_meta.lowering_files ?? [],
    ).toEqual([]);
  });

  test('exports the list as JSON and imports it back: an existing lowering is skipped', async ({
    page,
    adminApi,
  }, testInfo) => {
    const existing = await createLowering(adminApi);
    await page.goto('/lowerings');
    await expect(table(page).locator('tbody tr').first()).toBeVisible();
    const download = page.waitForEvent('download');
    await table(page).getByRole('button', { name: 'Export Lowerings as JSON' }).click();
    const exported = await download;
    expect(exported.suggestedFilename()).toBe('sealog_loweringExport.json');
    const list = JSON.parse(readFileSync((await exported.path())!, 'utf8')) as Lowering[];
    expect(list.map((l) => l.lowering_id)).toContain(existing.lowering_id);

    const fresh = { ...existing, id: 'aa' + existing.id.slice(2), lowering_id: newId() };
    const file = testInfo.outputPath('lowerings.json');
    writeFileSync(file, JSON.stringify([existing, fresh]));
    await page.getByRole('button', { name: 'Import From File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Lowerings' });
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByTestId('import-pending')).toHaveText('Complete');
    await expect(dialog.getByTestId('import-imported')).toHaveText('1');
    await expect(dialog.getByTestId('import-skipped')).toHaveText('1');
    await expect(dialog.getByTestId('import-errors')).toHaveText('0');
    await dialog.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
    const imported = await adminApi.get<Lowering>(`lowerings/${fresh.id}`);
    expect(imported.lowering_id).toBe(fresh.lowering_id);
    await search(page, fresh.lowering_id);
    await expect(row(page, fresh.lowering_id)).toBeVisible();
  });

  test('copies the lowering summary to the clipboard', async ({ page, context, adminApi }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const lowering = await createLowering(adminApi, {
      lowering_location: 'Clip Ridge',
      lowering_additional_meta: {
        lowering_description: 'Clipboard dive',
        milestones: { lowering_descending: '2022-05-01T10:30:00.000Z', lowering_on_bottom: '2022-05-01T11:00:00.000Z' },
        stats: { max_depth: 2010.5, bounding_box: [23.6, -45.1, 23.5, -45.2] },
      } as Lowering['lowering_additional_meta'],
    });
    await page.goto('/lowerings');
    await search(page, lowering.lowering_id);
    await row(page, lowering.lowering_id)
      .getByRole('button', { name: `Copy ${lowering.lowering_id} to clipboard` })
      .click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(
        [
          `Lowering ID: ${lowering.lowering_id}`,
          'Description: Clipboard dive',
          '',
          'Location: Clip Ridge',
          '',
          'Start of Lowering: 2022-05-01T10:00:00.000Z',
          'Descending:        2022-05-01T10:30:00.000Z',
          'On Bottom:         2022-05-01T11:00:00.000Z',
          'End of Lowering:   2022-05-01T16:30:00.000Z',
          '',
          'Deck-to-Deck: 6 hours 30 minutes',
          'Deployment:   30 minutes',
          'Descent:      30 minutes',
          '',
          'Max Depth:    2010.5m',
          'Bounding Box: 23.6, -45.1, 23.5, -45.2',
        ].join('\n'),
      );
  });

  test('a lowering added by someone else appears without a reload', async ({ page, adminApi }) => {
    await page.goto('/lowerings');
    await expect(table(page)).toBeVisible();
    const loweringId = newId();
    await search(page, loweringId);
    await expect(table(page).getByText('No lowerings found!')).toBeVisible();
    await createLowering(adminApi, { lowering_id: loweringId });
    await expect(row(page, loweringId)).toBeVisible();
  });
});

test('an event logger is turned away from /lowerings', async ({ browser, adminApi }) => {
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  const context = await browser.newContext();
  await useSessionOf(context, user.username, user.password);
  const page = await context.newPage();
  await page.goto('/lowerings');
  await expect(page.getByText('What are YOU doing here?')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Lowerings' })).toHaveCount(0);
  await context.close();
});

test('lowering_name is edited in the form and shown in the table and on the cruise menu card', async ({
  page,
  adminApi,
}) => {
  // A cruise long past, so no other screen's "current cruise" moves.
  const cruiseId = uniqueName('NC').toUpperCase().slice(0, 12);
  const { insertedId: cruise } = await adminApi.post<{ insertedId: string }>('cruises', {
    cruise_id: cruiseId,
    start_ts: '2001-01-01T00:00:00.000Z',
    stop_ts: '2001-01-10T23:59:59.000Z',
    cruise_location: '',
    cruise_additional_meta: { cruise_vessel: 'R/V Test', cruise_pi: 'Dr. Test' },
    cruise_tags: [],
  });
  const lowering = await createLowering(adminApi, {
    start_ts: '2001-01-02T10:00:00.000Z',
    stop_ts: '2001-01-02T16:00:00.000Z',
  });
  try {
    await page.goto('/lowerings');
    await search(page, lowering.lowering_id);
    await page.getByRole('button', { name: `Edit ${lowering.lowering_id}` }).click();
    const update = form(page, 'Update');
    await expect(update.getByLabel('Lowering Name')).toHaveValue('');
    await update.getByLabel('Lowering Name').fill('  Kane scarp survey ');
    await update.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lowering updated' })).toBeVisible();
    const after = await adminApi.get<Lowering>(`lowerings/${lowering.id}`);
    expect(after.lowering_additional_meta).toMatchObject({
      lowering_name: 'Kane scarp survey',
      lowering_description: 'A test dive',
    });
    await expect(row(page, lowering.lowering_id)).toContainText('Name: Kane scarp survey');

    await page.goto(`/cruise_menu?cruise=${cruise}&lowering=${lowering.id}`);
    const card = page.getByRole('region', { name: /^Lowering: / });
    await expect(card.getByRole('heading')).toHaveText(`Lowering: ${lowering.lowering_id}`);
    await expect(card).toContainText('Lowering Name: Kane scarp survey');
  } finally {
    await adminApi.del(`lowerings/${lowering.id}`);
    await adminApi.del(`cruises/${cruise}`);
  }
});

test('only an admin gets "Export Lowerings as JSON"', async ({ browser, page, adminApi }) => {
  await page.goto('/lowerings');
  await expect(table(page).getByRole('button', { name: 'Export Lowerings as JSON' })).toBeVisible();

  const manager = await createUser(adminApi, { roles: ['cruise_manager'] });
  const context = await browser.newContext();
  await useSessionOf(context, manager.username, manager.password);
  const managerPage = await context.newPage();
  await managerPage.goto('/lowerings');
  await expect(table(managerPage)).toBeVisible();
  await expect(table(managerPage).getByRole('searchbox')).toBeVisible();
  await expect(table(managerPage).getByRole('button', { name: 'Export Lowerings as JSON' })).toHaveCount(0);
  await context.close();
});
