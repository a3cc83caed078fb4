import { readFile } from 'node:fs/promises';
import { createLowering, uniqueName, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';

/**
 * Standard publication (docs/publication.md): a dive's Darwin Core Archive is built and validated
 * from its card's link, the report lists the observation without a taxon, the archive downloads;
 * an admin edits the measurement mapping and a wrong NERC code is refused with the field named.
 */

async function logObservation(
  api: ApiClient,
  ts: string,
  options: Array<{ event_option_name: string; event_option_value: string }>,
  n: number,
) {
  const { insertedId } = await api.post<{ insertedId: string }>('events', {
    ts,
    event_value: 'OBSERVATION',
    event_options: options,
    event_free_text: '',
  });
  await api.post('event_aux_data', {
    event_id: insertedId,
    data_source: 'vehicleRealtimeNavData',
    data_array: [
      { data_name: 'latitude', data_value: String(23.5489 + n / 1e4), data_uom: 'ddeg' },
      { data_name: 'longitude', data_value: String(-45.1499 + n / 1e4), data_uom: 'ddeg' },
      { data_name: 'depth', data_value: '1980.5', data_uom: 'meters' },
    ],
  });
}

test('a dive is validated, its unmapped observation listed, and its archive downloaded', async ({ page, adminApi }) => {
  const name = uniqueName('P').toUpperCase();
  const start = Date.parse('2031-02-03T10:00:00Z') + Math.floor(Math.random() * 1e6) * 60_000;
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
  const loweringId = await createLowering(adminApi, {
    lowering_id: name,
    start_ts: at(0),
    stop_ts: at(120),
    lowering_location: 'Kane FZ',
  });
  await logObservation(
    adminApi,
    at(10),
    [
      { event_option_name: 'taxon', event_option_value: 'Ophiuroidea' },
      { event_option_name: 'taxon_aphia_id', event_option_value: '123084' },
      { event_option_name: 'taxon_qualifier', event_option_value: 'sp.' },
      { event_option_name: 'taxon_count', event_option_value: '2' },
    ],
    1,
  );
  await logObservation(adminApi, at(20), [{ event_option_name: 'morphotype', event_option_value: 'Purple blob' }], 2);

  await page.goto(`/publication/lowering/${loweringId}`);
  await expect(page.getByRole('heading', { name: `Publish Dive ${name}` })).toBeVisible();
  await page.getByRole('button', { name: 'Build and validate' }).click();
  const report = page.getByTestId('publication-report');
  await expect(report.getByText('The archive validates.')).toBeVisible();
  await expect(report).toContainText('2 events, 1 occurrences, 0 measurements');
  await expect(page.getByTestId('unmapped-observations')).toContainText('morphotype: Purple blob');
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('publication-report.png'), fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download archive' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}_dwca.zip`);
  const zip = await readFile((await download.path())!);
  expect(zip.subarray(0, 2).toString()).toBe('PK');
});

test('an admin edits the measurement mapping; a wrong NERC code is refused with the field named', async ({
  page,
  adminApi,
}) => {
  const before = await adminApi.get<{ measurements: unknown[] }>('publication/settings');
  try {
    await page.goto('/');
    await page.getByRole('button', { name: 'System Management' }).click();
    await page.getByRole('link', { name: 'Publication', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Publication Settings' })).toBeVisible();
    const table = page.getByTestId('measurements-table');
    await expect(table.getByLabel('P01 code, row 1', { exact: true })).toHaveValue('TEMPPR01');
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('publication-settings.png'), fullPage: true });

    await page.getByRole('button', { name: 'Add row' }).first().click();
    const row = before.measurements.length + 1;
    await table.getByLabel(`Data source, row ${row}`, { exact: true }).fill('vehicleRealtimeCTDData');
    await table.getByLabel(`Data name, row ${row}`, { exact: true }).fill('ctd_temp_f');
    await table.getByLabel(`Measurement type, row ${row}`, { exact: true }).fill('sea water temperature');
    await table.getByLabel(`P01 code, row ${row}`, { exact: true }).fill('temp');
    await table.getByLabel(`Unit, row ${row}`, { exact: true }).fill('degC');
    await table.getByLabel(`P06 code, row ${row}`, { exact: true }).fill('UPAA');
    await table.getByLabel(`Scale, row ${row}`, { exact: true }).fill('0.5555555556');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toContainText('type_id');

    await table.getByLabel(`P01 code, row ${row}`, { exact: true }).fill('TEMPPR01');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status')).toContainText('Publication settings saved.');
    const saved = await adminApi.get<{ measurements: Array<{ data_name: string; scale: number }> }>(
      'publication/settings',
    );
    expect(saved.measurements.at(-1)).toMatchObject({ data_name: 'ctd_temp_f', scale: 0.5555555556 });
  } finally {
    const res = await adminApi.context.put('/sealog-server/api/v1/publication/settings', {
      data: { measurements: before.measurements },
    });
    expect(res.ok()).toBe(true);
  }
});
