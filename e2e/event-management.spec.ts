import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { createUser, type ApiClient } from './support/api';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import type { EventAuxData, ExportedEvent, LogEvent } from '@bathylog/shared';

/**
 * Event management (docs/screens.md#event-management) against the real demo
 * server: paging, the filter form, downloads read back from disk, deletes by role.
 */

test.use({ storageState: { cookies: [], origins: [] } });

let counter = 0;
function uniqueText(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

interface Seeded {
  author: string;
  values: [string, string, string];
  ids: [string, string, string];
  ts: [string, string, string];
  source: string;
}

/** Three events by one made-up author, 3, 2 and 1 hours ago; the middle one has aux data. */
async function seedEvents(adminApi: ApiClient): Promise<Seeded> {
  const author = uniqueText('author');
  const source = `e2eSource${Date.now().toString(36)}`;
  const now = Date.now();
  const values = [uniqueText('VALA'), uniqueText('VALB'), uniqueText('VALC')] as Seeded['values'];
  const ts = [3, 2, 1].map((h) => new Date(now - h * 3600_000).toISOString()) as Seeded['ts'];
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await adminApi.post<{ insertedId: string }>('events', {
      event_author: author,
      event_value: values[i],
      ts: ts[i],
      event_free_text: `note ${i}`,
      event_options: [{ event_option_name: 'status', event_option_value: `s${i}` }],
    });
    ids.push(res.insertedId);
  }
  await adminApi.post('event_aux_data', {
    event_id: ids[1],
    data_source: source,
    data_array: [{ data_name: 'depth', data_value: '1234.5', data_uom: 'm' }],
  });
  return { author, values, ids: ids as Seeded['ids'], ts, source };
}

function lines(page: Page): Locator {
  return page.getByTestId('filtered-events').getByTestId('event-line');
}

function filterCard(page: Page): Locator {
  return page.getByTestId('event-filter');
}

async function applyFilter(
  page: Page,
  fields: Partial<
    Record<'Full text' | 'Author' | 'Value' | 'Data source' | 'Start Date/Time (UTC)' | 'Stop Date/Time (UTC)', string>
  >,
) {
  const card = filterCard(page);
  for (const [label, value] of Object.entries(fields)) await card.getByLabel(label, { exact: true }).fill(value);
  await card.getByRole('button', { name: 'Filter' }).click();
}

async function open(page: Page) {
  await page.goto('/event_management');
  await expect(page.getByText('Filtered Events')).toBeVisible();
}

/** `YYYYMMDD_HHmm` of an ISO time. */
function prefixOf(iso: string): string {
  return iso.slice(0, 16).replace(/-/g, '').replace('T', '_').replace(':', '');
}

/**
 * Where a non-admin's events begin (docs/screens.md#who-sees-which-events): the visible cruise covering
 * now, else the latest one's stop.
 */
async function windowStart(api: ApiClient): Promise<string> {
  type CruiseTimes = { start_ts: string; stop_ts: string; cruise_hidden: boolean };
  const cruises = (await api.get<CruiseTimes[]>('cruises')).filter((c) => !c.cruise_hidden);
  const now = Date.now();
  const covering = cruises
    .filter((c) => Date.parse(c.start_ts) < now && Date.parse(c.stop_ts) > now)
    .map((c) => c.start_ts)
    .sort();
  const latest = [...cruises].sort((a, b) => (a.start_ts < b.start_ts ? 1 : -1))[0];
  const iso = covering[0] ?? latest?.stop_ts ?? '';
  return iso.slice(0, 19).replace('T', ' ');
}

test.describe('event management', () => {
  test('15 events per page with pagination; details open from a line; No events found', async ({ page, context }) => {
    await useSessionOf(context, 'admin', 'demo');
    await open(page);
    await expect(lines(page)).toHaveCount(15);
    const first = await lines(page).first().innerText();
    await page.getByRole('navigation', { name: 'Event pages' }).getByRole('button', { name: '2', exact: true }).click();
    await expect(lines(page)).toHaveCount(15);
    await expect(lines(page).first()).not.toHaveText(first);

    await lines(page).first().getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Event Details:' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    await applyFilter(page, { 'Full text': uniqueText('nothing-like-this') });
    await expect(page.getByText('No events found')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Event pages' })).toHaveCount(0);
  });

  test('filters: author, value list, data source, full text, start/stop in UTC; bad times are refused', async ({
    page,
    context,
    adminApi,
  }) => {
    const seeded = await seedEvents(adminApi);
    await useSessionOf(context, 'admin', 'demo');
    await open(page);

    await applyFilter(page, { Author: seeded.author });
    await expect(lines(page)).toHaveCount(3);
    // Newest first.
    await expect(lines(page).first()).toContainText(seeded.values[2]);

    await applyFilter(page, { Value: ` ${seeded.values[0]} , ${seeded.values[2]} ,` });
    await expect(lines(page)).toHaveCount(2);
    await applyFilter(page, { Value: '', 'Data source': seeded.source });
    await expect(lines(page)).toHaveCount(1);
    await expect(lines(page)).toContainText(seeded.values[1]);
    await applyFilter(page, { 'Data source': '', 'Full text': 'note 2' });
    await expect(lines(page)).toHaveCount(1);
    await expect(lines(page)).toContainText(seeded.values[2]);

    const startField = filterCard(page).getByLabel('Start Date/Time (UTC)');
    await applyFilter(page, { 'Full text': '', 'Start Date/Time (UTC)': 'last tuesday' });
    await expect(filterCard(page).getByText('Invalid timestamp')).toBeVisible();
    // From just before the middle event: two of the three.
    const from = new Date(Date.parse(seeded.ts[1]) - 1000).toISOString().slice(0, 19).replace('T', ' ');
    await applyFilter(page, { 'Start Date/Time (UTC)': from });
    await expect(filterCard(page).getByText('Invalid timestamp')).toHaveCount(0);
    await expect(lines(page)).toHaveCount(2);
    await expect(startField).toHaveValue(from);
    // A stop in the future is clamped to now, shown as YYYY-MM-DD HH:mm:ss (with .SSS: a clamp keeps milliseconds).
    await applyFilter(page, { 'Stop Date/Time (UTC)': '2999-01-01 00:00:00' });
    const stop = await filterCard(page).getByLabel('Stop Date/Time (UTC)').inputValue();
    expect(stop).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{3})?$/);
    expect(Math.abs(Date.parse(`${stop.replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(120_000);
    await expect(lines(page)).toHaveCount(2);

    await filterCard(page).getByRole('button', { name: 'Reset' }).click();
    await expect(filterCard(page).getByLabel('Author')).toHaveValue('');
    await expect(lines(page)).toHaveCount(15);
  });

  test('a non-admin start is clamped to the start of what they may see', async ({ page, context, adminApi }) => {
    const manager = await createUser(adminApi, { roles: ['event_manager'] });
    await useSessionOf(context, manager.username, manager.password);
    await open(page);
    await applyFilter(page, { 'Start Date/Time (UTC)': '2000-01-01 00:00:00' });
    // With only the demo cruise, no cruise covers now and the window starts where FKt230303 stopped
    // (2023-04-11 23:59:59); other specs on the same server may add cruises, so ask the API.
    const start = filterCard(page).getByLabel('Start Date/Time (UTC)');
    await expect.poll(async () => (await start.inputValue()) === (await windowStart(adminApi))).toBe(true);
    expect(await start.inputValue()).not.toBe('2000-01-01 00:00:00');
  });

  test('Hide ASNAP, on by default, leaves ASNAP events out; off shows them', async ({ page, context }) => {
    await useSessionOf(context, 'admin', 'demo');
    await open(page);
    await applyFilter(page, { 'Full text': 'ASNAP' });
    await expect(page.getByText('No events found')).toBeVisible();
    await expect(page.getByLabel('Hide ASNAP', { exact: true })).toBeChecked();
    await page.getByLabel('Hide ASNAP', { exact: true }).uncheck();
    await expect(lines(page)).toHaveCount(15);
    await expect(lines(page).first()).toContainText(': ASNAP');
  });

  test('downloads: JSON and CSV, with and without aux data, named after the first event, holding the filtered events', async ({
    page,
    context,
    adminApi,
  }) => {
    const seeded = await seedEvents(adminApi);
    await useSessionOf(context, 'admin', 'demo');
    await open(page);
    await applyFilter(page, { Author: seeded.author });
    await expect(lines(page)).toHaveCount(3);
    const prefix = prefixOf(seeded.ts[0]);

    const download = async (name: string) => {
      await page.getByRole('button', { name: 'Export these events' }).click();
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name, exact: true }).click(),
      ]);
      return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
    };

    const eventsJson = await download('Events Only (JSON)');
    expect(eventsJson.name).toBe(`${prefix}_sealog_eventExport.json`);
    const events = JSON.parse(eventsJson.text) as LogEvent[];
    expect(events.map((e) => e.id)).toEqual(seeded.ids);
    expect(events.map((e) => e.ts)).toEqual(seeded.ts);

    const withAux = await download('Events w/aux data (JSON)');
    expect(withAux.name).toBe(`${prefix}_sealog_export.json`);
    const exported = JSON.parse(withAux.text) as ExportedEvent[];
    expect(exported.map((e) => e.id)).toEqual(seeded.ids);
    expect(exported.map((e) => e.aux_data.map((a) => a.data_source))).toEqual([[], [seeded.source], []]);

    const auxOnly = await download('Aux Data Only (JSON)');
    expect(auxOnly.name).toBe(`${prefix}_sealog_auxDataExport.json`);
    const aux = JSON.parse(auxOnly.text) as EventAuxData[];
    expect(aux).toHaveLength(1);
    expect(aux[0]).toMatchObject({ event_id: seeded.ids[1], data_source: seeded.source });

    const csv = await download('Events Only (CSV)');
    expect(csv.name).toBe(`${prefix}_sealog_eventExport.csv`);
    const rows = csv.text.trim().split(/\r?\n/);
    expect(rows[0]).toMatch(/^"id","ts","event_value","event_author","event_free_text"/);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain(seeded.values[0]);

    const csvAux = await download('Events w/aux data (CSV)');
    expect(csvAux.name).toBe(`${prefix}_sealog_export.csv`);
    const header = csvAux.text.split(/\r?\n/)[0]!;
    expect(header).toContain(`"${seeded.source}.depth_value"`);
    expect(csvAux.text).toContain('1234.5');
  });

  test('download is disabled above the configured limit, with a tooltip saying why', async ({
    page,
    context,
    adminApi,
  }) => {
    const seeded = await seedEvents(adminApi);
    await useSessionOf(context, 'admin', 'demo');
    await page.route('**/sealog-server/client_settings', async (route) => {
      const res = await route.fetch();
      const settings = (await res.json()) as Record<string, unknown>;
      await route.fulfill({ response: res, json: { ...settings, eventExportLimit: 10 } });
    });
    await open(page);
    const toggle = page.getByRole('button', { name: 'Export these events' });
    await expect(toggle).toBeDisabled();
    await page.getByTestId('export-menu-wrapper').hover();
    await expect(page.getByRole('tooltip')).toHaveText(
      'Export is not available for more than 10 events: narrow the filter',
    );

    await applyFilter(page, { Author: seeded.author });
    await expect(lines(page)).toHaveCount(3);
    await expect(toggle).toBeEnabled();
  });

  test('an event manager deletes an event after confirming', async ({ page, context, adminApi }) => {
    const manager = await createUser(adminApi, { roles: ['event_manager'] });
    const value = uniqueText('DELETEME');
    const { insertedId } = await adminApi.post<{ insertedId: string }>('events', { event_value: value });
    await useSessionOf(context, manager.username, manager.password);
    await open(page);
    await applyFilter(page, { Value: value });
    await expect(lines(page)).toHaveCount(1);

    await lines(page).getByRole('button', { name: 'Delete this event' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Are you sure you want to delete this event?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(lines(page)).toHaveCount(1);

    await lines(page).getByRole('button', { name: 'Delete this event' }).click();
    await dialog.getByRole('button', { name: 'Yup!' }).click();
    await expect(page.getByText('No events found')).toBeVisible();
    expect((await adminApi.context.get(`/sealog-server/api/v1/events/${insertedId}`)).status()).toBe(404);
  });

  test('a cruise manager sees the events but cannot delete them', async ({ page, context, adminApi }) => {
    const manager = await createUser(adminApi, { roles: ['cruise_manager'] });
    const value = uniqueText('KEEPME');
    await adminApi.post('events', { event_value: value });
    await useSessionOf(context, manager.username, manager.password);
    await open(page);
    await applyFilter(page, { Value: value });
    await expect(lines(page)).toHaveCount(1);
    await expect(lines(page).getByRole('button', { name: 'Delete this event' })).toHaveCount(0);
  });

  test('an event logger is refused the screen and the delete', async ({ page, context, adminApi }) => {
    const logger = await createUser(adminApi, { roles: ['event_logger'] });
    const { insertedId } = await adminApi.post<{ insertedId: string }>('events', {
      event_value: uniqueText('NOTYOURS'),
    });
    await useSessionOf(context, logger.username, logger.password);
    await page.goto('/event_management');
    await expect(page.getByText('What are YOU doing here?')).toBeVisible();
    await expect(page.getByText('Filtered Events')).toHaveCount(0);

    const token = (await context.cookies()).find((c) => c.name === 'token')!.value;
    const res = await page.request.delete(`/sealog-server/api/v1/events/${insertedId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /Only admins and event managers can delete this event/,
    );
    expect((await adminApi.context.get(`/sealog-server/api/v1/events/${insertedId}`)).status()).toBe(200);
  });
});
