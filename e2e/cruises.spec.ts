import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { uniqueName, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import type { Cruise } from '@bathylog/shared';

/** Cruise management (/cruises, docs/screens.md#cruises) as admin on the shared demo server. */

const table = (page: Page) => page.getByRole('region', { name: 'Cruises', exact: true });
const row = (page: Page, id: string) => page.getByTestId(`cruise-row-${id}`);
const form = (page: Page, mode: 'Add' | 'Update') => page.getByRole('form', { name: `${mode} Cruise` });
const newId = () => uniqueName('C').toUpperCase().slice(0, 12);

async function createCruise(api: ApiClient, overrides: Partial<Cruise> = {}): Promise<Cruise> {
  const { insertedId } = await api.post<{ insertedId: string }>('cruises', {
    cruise_id: overrides.cruise_id ?? newId(),
    start_ts: overrides.start_ts ?? '2018-07-01T00:00:00.000Z',
    stop_ts: overrides.stop_ts ?? '2018-07-10T23:59:59.000Z',
    cruise_location: overrides.cruise_location ?? 'Test Ridge',
    cruise_tags: overrides.cruise_tags ?? [],
    cruise_additional_meta: overrides.cruise_additional_meta ?? {
      cruise_name: 'Test Cruise',
      cruise_vessel: 'R/V Test',
      cruise_pi: 'Dr. Test',
      cruise_departure_location: 'Woods Hole, MA',
      cruise_arrival_location: 'Norfolk, VA',
      cruise_participants: ['Ann Alpha', 'Bob Beta'],
    },
  });
  return api.get<Cruise>(`cruises/${insertedId}`);
}

async function search(page: Page, text: string) {
  await table(page).getByRole('searchbox').fill(text);
}

test.describe('cruises as admin', () => {
  test('lists the demo cruise, searches on its fields and participants', async ({ page, adminApi }, testInfo) => {
    // Two axe runs and four full-page screenshots: slow on a busy machine.
    test.setTimeout(150_000);
    const cruise = await createCruise(adminApi);
    await page.goto('/cruises');
    await expect(table(page).getByRole('columnheader')).toHaveText(['Cruise', 'Details', 'Actions']);
    await search(page, 'falkor');
    await expect(row(page, 'FKt230303')).toContainText('Name: In Search of Hydrothermal Lost Cities');
    await expect(row(page, 'FKt230303')).toContainText('PI: Dr. David Butterfield');
    await expect(row(page, 'FKt230303')).toContainText('Dates: 2023-03-03 → 2023-04-11');
    // A new cruise starts with the configured default vessel.
    const settings = (await (await adminApi.context.get('/sealog-server/client_settings')).json()) as {
      defaultVessel: string;
    };
    await expect(form(page, 'Add').getByLabel('Vessel Name')).toHaveValue(settings.defaultVessel);
    await expectAccessible(page);

    await search(page, 'bob beta');
    await expect(row(page, cruise.cruise_id)).toBeVisible();
    await expect(row(page, 'FKt230303')).toHaveCount(0);
    await search(page, 'norfolk');
    await expect(row(page, cruise.cruise_id)).toBeVisible();
    await search(page, 'nothing matches this');
    await expect(table(page).getByText('No cruises found!')).toBeVisible();
    // Clearing the search brings the whole list back.
    await search(page, '');
    await expect(row(page, 'FKt230303')).toBeVisible();

    await page.getByRole('button', { name: 'Edit FKt230303' }).click();
    await expect(form(page, 'Update').getByLabel('Cruise ID')).toHaveValue('FKt230303');
    await expect(form(page, 'Update').getByLabel('Stop Date (UTC)')).toHaveValue('2023-04-11');
    for (const width of [1400, 768]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: testInfo.outputPath(`cruises-${width}.png`), fullPage: true });
    }
  });

  test('add form: required fields, ID length, date checks, then a cruise is created', async ({ page, adminApi }) => {
    await page.goto('/cruises');
    const add = form(page, 'Add');
    const submit = add.getByRole('button', { name: 'Add', exact: true });
    await add.getByLabel('Vessel Name').fill('');
    await add.getByLabel('Start Date (UTC)').fill('2024-02-30');
    await submit.click();
    for (const label of ['Cruise ID', 'Vessel Name', 'Primary Investigator', 'Departure Port', 'Arrival Port']) {
      await expect(add.getByLabel(label, { exact: true })).toHaveAccessibleDescription('Required');
    }
    await expect(add.getByLabel('Start Date (UTC)')).toHaveAccessibleDescription('Invalid timestamp');
    await expect(add.getByLabel('Stop Date (UTC)')).toHaveAccessibleDescription('Required');

    await add.getByLabel('Cruise ID').fill('X'.repeat(16));
    await add.getByLabel('Start Date (UTC)').fill('2024-03-10');
    await add.getByLabel('Stop Date (UTC)').fill('2024-03-09');
    await submit.click();
    await expect(add.getByLabel('Cruise ID')).toHaveAccessibleDescription('Must be 15 characters or less');
    await expect(add.getByLabel('Stop Date (UTC)')).toHaveAccessibleDescription(
      'Stop date must be later than start data',
    );

    const cruiseId = newId();
    await add.getByLabel('Cruise ID').fill(cruiseId);
    await add.getByLabel('Cruise Name').fill('Form Cruise');
    await add.getByLabel('Vessel Name').fill('R/V Form');
    await add.getByLabel('Primary Investigator').fill('Dr. Form');
    await add.getByLabel('Cruise Location').fill('Form Basin');
    await add.getByLabel('Stop Date (UTC)').fill('2024-03-10');
    await add.getByLabel('Departure Port').fill('Honolulu, HI');
    await add.getByLabel('Arrival Port').fill('Apia, Samoa');
    await add.getByLabel('Participants, comma delimited').fill('Ann, Bob ,');
    await add.getByLabel('Cruise Tags, comma delimited').fill('vents');
    await submit.click();
    await expect(page.getByRole('status').filter({ hasText: 'Cruise created' })).toContainText('Success!');
    const [saved] = (await adminApi.get<Cruise[]>('cruises')).filter((c) => c.cruise_id === cruiseId);
    // A one-day cruise: start 00:00, stop forced to 23:59:59 of its day.
    expect(saved).toMatchObject({
      start_ts: '2024-03-10T00:00:00.000Z',
      stop_ts: '2024-03-10T23:59:59.000Z',
      cruise_location: 'Form Basin',
      cruise_tags: ['vents'],
      cruise_hidden: false,
    });
    expect(saved!.cruise_additional_meta).toMatchObject({
      cruise_name: 'Form Cruise',
      cruise_vessel: 'R/V Form',
      cruise_pi: 'Dr. Form',
      cruise_departure_location: 'Honolulu, HI',
      cruise_arrival_location: 'Apia, Samoa',
      cruise_participants: ['Ann', 'Bob'],
    });
  });

  test('edit, hide, show and delete a cruise', async ({ page, adminApi }) => {
    const cruise = await createCruise(adminApi);
    await page.goto('/cruises');
    await search(page, cruise.cruise_id);
    await page.getByRole('button', { name: `Edit ${cruise.cruise_id}` }).click();
    const update = form(page, 'Update');
    await update.getByLabel('Stop Date (UTC)').fill('2018-07-12');
    await update.getByLabel('Cruise Name').fill('Renamed Cruise');
    await update.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Cruise updated' })).toBeVisible();
    const after = await adminApi.get<Cruise>(`cruises/${cruise.id}`);
    expect(after.stop_ts).toBe('2018-07-12T23:59:59.000Z');
    expect(after.cruise_additional_meta).toMatchObject({
      cruise_name: 'Renamed Cruise',
      cruise_participants: ['Ann Alpha', 'Bob Beta'],
    });
    await expect(row(page, cruise.cruise_id)).toContainText('Name: Renamed Cruise');

    await row(page, cruise.cruise_id)
      .getByRole('button', { name: `Hide ${cruise.cruise_id}` })
      .click();
    await expect(row(page, cruise.cruise_id).getByRole('button', { name: `Show ${cruise.cruise_id}` })).toHaveAttribute(
      'title',
      'Cruise is hidden, click to show.',
    );
    expect((await adminApi.get<Cruise>(`cruises/${cruise.id}`)).cruise_hidden).toBe(true);
    await row(page, cruise.cruise_id)
      .getByRole('button', { name: `Show ${cruise.cruise_id}` })
      .click();
    await expect(row(page, cruise.cruise_id).getByRole('button', { name: `Hide ${cruise.cruise_id}` })).toBeVisible();
    expect((await adminApi.get<Cruise>(`cruises/${cruise.id}`)).cruise_hidden).toBe(false);

    await row(page, cruise.cruise_id)
      .getByRole('button', { name: `Delete ${cruise.cruise_id}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete this cruise?');
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(row(page, cruise.cruise_id)).toHaveCount(0);
    expect((await adminApi.context.get(`/sealog-server/api/v1/cruises/${cruise.id}`)).status()).toBe(404);
  });

  test('exports the list as JSON and imports it back: an existing cruise is skipped', async ({
    page,
    adminApi,
  }, testInfo) => {
    const existing = await createCruise(adminApi);
    await page.goto('/cruises');
    await expect(table(page).locator('tbody tr').first()).toBeVisible();
    const download = page.waitForEvent('download');
    await table(page).getByRole('button', { name: 'Export Cruises as JSON' }).click();
    const exported = await download;
    expect(exported.suggestedFilename()).toBe('sealog_cruisesExport.json');
    const text = readFileSync((await exported.path())!, 'utf8');
    expect(text).toContain('\n\t{');
    expect((JSON.parse(text) as Cruise[]).map((c) => c.cruise_id)).toContain(existing.cruise_id);

    const fresh = { ...existing, id: 'ab' + existing.id.slice(2), cruise_id: newId() };
    const file = testInfo.outputPath('cruises.json');
    writeFileSync(file, JSON.stringify([existing, fresh]));
    await page.getByRole('button', { name: 'Import From File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Cruises' });
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByTestId('import-pending')).toHaveText('Complete');
    await expect(dialog.getByTestId('import-imported')).toHaveText('1');
    await expect(dialog.getByTestId('import-skipped')).toHaveText('1');
    await expect(dialog.getByTestId('import-errors')).toHaveText('0');
    expect((await adminApi.get<Cruise>(`cruises/${fresh.id}`)).cruise_id).toBe(fresh.cruise_id);
  });
});
