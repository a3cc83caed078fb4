import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LogEvent } from '@bathylog/shared';
import { apiPrefix, uniqueName } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';

/**
 * The console's taxon picker (docs/taxa.md#the-console): a template with a taxon option, the real
 * WoRMS fixture imported as the ship's taxonomy; the logger types three letters, picks, adds a
 * qualifier and a count, and the event carries the contract's options. Keyboard only.
 */
const fixtures = path.join(import.meta.dirname, '../apps/server/test/fixtures/worms');

test('type three letters, pick, qualifier, count: the event carries them', async ({ page, adminApi }) => {
  const imported = await adminApi.context.post(`${apiPrefix}/taxa/imports?kind=dwc-taxon&source=e2e`, {
    data: readFileSync(path.join(fixtures, 'taxon.txt'), 'utf8'),
    headers: { 'content-type': 'text/tab-separated-values' },
  });
  expect(imported.status(), await imported.text()).toBe(201);

  const name = uniqueName('Fauna ');
  const value = `FAUNA_${Date.now().toString(36).toUpperCase()}`;
  const category = uniqueName('tax');
  await adminApi.post('event_templates', {
    event_name: name,
    event_value: value,
    template_categories: [category],
    event_free_text_required: false,
    system_template: false,
    event_options: [
      {
        event_option_name: 'Taxon',
        event_option_type: 'taxon',
        event_option_values: [],
        event_option_allow_freeform: false,
        event_option_required: true,
        event_option_taxon: { quantity: 'count', common_taxa: [{ aphia_id: 1806, name: 'Echinodermata' }] },
      },
    ],
  });

  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: value })).toBeVisible();

  // Required: nothing picked is refused.
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Required', { exact: true })).toBeVisible();

  const search = dialog.getByRole('combobox', { name: 'Search taxa' });
  await search.focus();
  await page.keyboard.type('oph');
  const list = dialog.getByRole('listbox', { name: 'Matching taxa' });
  const first = list.getByRole('option').first();
  await expect(first).toContainText('Ophiuroidea');
  await expect(first).toContainText('Class');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await dialog.screenshot({ path: test.info().outputPath('taxon-picker.png') });
  await expectAccessible(page);
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('taxon-pick')).toContainText('Ophiuroidea');
  await expect(dialog.getByTestId('taxon-pick')).toContainText('AphiaID 123084');

  await dialog.getByLabel('Qualifier').selectOption('cf.');
  const count = dialog.getByLabel('Count');
  await count.fill('three');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Count must be a whole number')).toBeVisible();
  await count.fill('3');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);

  const line = page.getByTestId('event-history-body').getByTestId('event-line').filter({ hasText: value });
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Ophiuroidea');
  await expect(line.getByTestId('event-pending')).toHaveCount(0);
  const id = (await line.getAttribute('data-event-id'))!;
  const event = await adminApi.get<LogEvent>(`events/${id}`);
  expect(event.event_options).toEqual([
    { event_option_name: 'taxon', event_option_value: 'Ophiuroidea' },
    { event_option_name: 'taxon_aphia_id', event_option_value: '123084' },
    { event_option_name: 'taxon_qualifier', event_option_value: 'cf.' },
    { event_option_name: 'taxon_count', event_option_value: '3' },
  ]);

  // A common taxon is one click.
  await page.getByRole('button', { name, exact: true }).click();
  await dialog.getByRole('button', { name: 'Echinodermata' }).click();
  await expect(dialog.getByTestId('taxon-pick')).toContainText('AphiaID 1806');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(line).toHaveCount(2);
});

test('the Taxa screen: the taxonomy held, a legacy value mapped, the synonym report; axe-clean', async ({
  page,
  adminApi,
}) => {
  test.slow(); // The demo's templates offer a long list of values; three axe checks of it.
  const imported = await adminApi.context.post(`${apiPrefix}/taxa/imports?kind=dwc-taxon&source=e2e`, {
    data: readFileSync(path.join(fixtures, 'taxon.txt'), 'utf8'),
    headers: { 'content-type': 'text/tab-separated-values' },
  });
  expect(imported.status()).toBe(201);
  const morphotype = uniqueName('Brittle star ');
  await adminApi.post('event_templates', {
    event_name: uniqueName('Morpho '),
    event_value: `MORPHO_${Date.now().toString(36).toUpperCase()}`,
    template_categories: [uniqueName('mor')],
    event_free_text_required: false,
    system_template: false,
    event_options: [
      {
        event_option_name: 'Morphotype',
        event_option_type: 'dropdown',
        event_option_values: [morphotype],
        event_option_allow_freeform: false,
        event_option_required: false,
      },
    ],
  });

  await page.goto('/taxa');
  await expect(page.getByTestId('taxonomy-count')).toContainText('taxa held');
  // The card shows 25 values a page; other specs' templates add theirs.
  await page.getByLabel('Filter template values').fill(morphotype);
  const row = page.getByRole('row').filter({ hasText: morphotype });
  await expect(row).toContainText('not mapped');
  await expectAccessible(page);
  await row.getByRole('button', { name: `Map ${morphotype}` }).click();
  const editor = page.getByRole('group', { name: `Map ${morphotype}` });
  await editor.getByLabel('Search taxa').fill('oph');
  await expect(editor.getByLabel('Taxon').locator('option', { hasText: 'Ophiuroidea' })).toHaveCount(1);
  await editor.getByLabel('Taxon').selectOption({ label: 'Ophiuroidea (Class)' });
  await editor.getByLabel('Qualifier').selectOption('indet.');
  await expectAccessible(page);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('Ophiuroidea indet.');

  await page.getByLabel('Cruise').selectOption({ index: 1 });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'accepted' })
      .or(page.getByRole('table', { name: 'Names whose status changed' })),
  ).toBeVisible();
  await expectAccessible(page);
});
