import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { apiLogin } from './support/api';
import { repoRoot, startServer, type StartedServer } from './support/server';
import { test, expect } from './support/fixtures';
import type { LogEvent } from '@bathylog/shared';

/**
 * The console history on the S0492 demo data (docs/screens.md#event-history): paging
 * 20 at a time, Hide ASNAP, filter, expand / compress, show / hide. These tests need the demo
 * events and nothing else, so they run on a demo server of their own that no other test writes to;
 * the expected pages come from the demo files themselves.
 */

test.use({ storageState: { cookies: [], origins: [] } });
test.describe.configure({ mode: 'serial' });

function demoEvents(): LogEvent[] {
  const dir = path.join(repoRoot, 'apps/server/demo');
  const read = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as LogEvent[];
  const byId = new Map<string, LogEvent>();
  for (const e of [...read('FKt230303_eventOnlyExport.json'), ...read('FKt230303_S0492_eventOnlyExport.json')])
    byId.set(e.id, e);
  // Newest first, as the history lists them.
  return [...byId.values()].sort((a, b) => (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0));
}

const all = demoEvents();
/** `!ASNAP` excludes every event whose value contains "asnap", ignoring case (docs/wire.md#event-filters). */
const withoutAsnap = all.filter((e) => !/asnap/i.test(e.event_value));
const firstAsnapIndex = all.findIndex((e) => /asnap/i.test(e.event_value));

let server: StartedServer;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startServer({ mode: 'demo' });
});

test.afterAll(async () => {
  await server?.stop();
});

async function openAsAdmin(context: BrowserContext, page: Page) {
  const admin = await apiLogin('admin', 'demo', server.url);
  await admin.dispose();
  await context.addCookies([
    { name: 'token', value: admin.token, url: server.url },
    { name: 'id', value: admin.userId, url: server.url },
  ]);
  await page.goto(`${server.url}/`);
  await expect(page.getByTestId('event-history')).toBeVisible();
}

function lines(page: Page): Locator {
  return page.getByTestId('event-history-body').getByTestId('event-line');
}

async function shownTimes(page: Page): Promise<string[]> {
  return (await lines(page).allInnerTexts()).map((t) => t.trim().split(' ')[0]!);
}

function page20(list: LogEvent[], page: number): string[] {
  return list.slice(page * 20, page * 20 + 20).map((e) => e.ts);
}

function button(page: Page, name: string): Locator {
  return page.getByTestId('event-history').getByRole('button', { name, exact: true });
}

test('the demo data is what these tests expect', () => {
  expect(all).toHaveLength(5065);
  expect(all.length - withoutAsnap.length).toBe(3701);
  expect(firstAsnapIndex).toBeGreaterThan(40);
});

test('pages of 20, newest first, with ASNAP hidden by default; Newer and Newest disabled on the first page', async ({
  context,
  page,
}) => {
  await openAsAdmin(context, page);
  await expect(page.getByLabel('Hide ASNAP')).toBeChecked();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 0));
  await expect(button(page, 'Newest Events')).toBeDisabled();
  await expect(button(page, 'Newer Events')).toBeDisabled();
  await expect(button(page, 'Older Events')).toBeEnabled();

  await button(page, 'Older Events').click();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 1));
  await expect(button(page, 'Newest Events')).toBeEnabled();
  await expect(button(page, 'Newer Events')).toBeEnabled();
  await button(page, 'Older Events').click();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 2));
  await button(page, 'Newer Events').click();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 1));
  await button(page, 'Older Events').click();
  await button(page, 'Newest Events').click();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 0));
  await expect(lines(page).filter({ hasText: ': ASNAP' })).toHaveCount(0);
});

test('switching Hide ASNAP off puts the ASNAP events in their place; on again hides them', async ({
  context,
  page,
}) => {
  await openAsAdmin(context, page);
  await page.getByLabel('Hide ASNAP').uncheck();
  await expect.poll(() => shownTimes(page)).toEqual(page20(all, 0));
  const target = Math.floor(firstAsnapIndex / 20);
  for (let i = 0; i < target; i++) {
    await button(page, 'Older Events').click();
    await expect.poll(() => shownTimes(page)).toEqual(page20(all, i + 1));
  }
  await expect(lines(page).filter({ hasText: ': ASNAP' })).toHaveCount(
    all.slice(target * 20, target * 20 + 20).filter((e) => e.event_value === 'ASNAP').length,
  );
  await expect(lines(page).filter({ hasText: ': ASNAP' }).first()).toBeVisible();

  await page.getByLabel('Hide ASNAP').check();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 0));
});

test('Older is disabled when fewer than 20 come back; a filter replaces the ASNAP switch and asks once after typing stops', async ({
  context,
  page,
}) => {
  await openAsAdmin(context, page);
  const admin = await apiLogin('admin', 'demo', server.url);
  // A term with between 21 and 39 matches: two pages, the second short.
  const term = 'Chimney';
  const count = (await admin.get<{ events: number }>(`events/count?fulltext=${term}`)).events;
  const expected = (await admin.get<LogEvent[]>(`events?fulltext=${term}&sort=newest`)).map((e) => e.ts);
  await admin.dispose();
  expect(count).toBeGreaterThan(20);
  expect(count).toBeLessThan(40);

  const asked: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.endsWith('/api/v1/events') && url.searchParams.get('limit') === '20')
      asked.push(url.searchParams.getAll('fulltext').join(','));
  });
  await page.getByPlaceholder('Filter').pressSequentially(term, { delay: 40 });
  await expect(page.getByLabel('Hide ASNAP')).toBeDisabled();
  await expect.poll(() => shownTimes(page)).toEqual(expected.slice(0, 20));
  // Typing "Chimney" letter by letter asked the server once, for the whole word.
  expect(asked).toEqual([term]);
  await expect(button(page, 'Older Events')).toBeEnabled();
  await button(page, 'Older Events').click();
  await expect.poll(() => shownTimes(page)).toEqual(expected.slice(20));
  await expect(button(page, 'Older Events')).toBeDisabled();
  // Enter in the filter submits nothing and changes nothing.
  await page.getByPlaceholder('Filter').press('Enter');
  await expect(lines(page)).toHaveCount(count - 20);

  await page.getByPlaceholder('Filter').fill('');
  await expect(page.getByLabel('Hide ASNAP')).toBeEnabled();
  await expect.poll(() => shownTimes(page)).toEqual(page20(withoutAsnap, 0));
});

test('expand / compress, show / hide the history, hide the newest event and bring it back', async ({
  context,
  page,
}) => {
  await openAsAdmin(context, page);
  const body = page.getByTestId('event-history-body');
  await expect(lines(page)).toHaveCount(20);
  expect((await body.boundingBox())!.height).toBeLessThanOrEqual(221);
  await page.getByRole('button', { name: 'Expand event history' }).click();
  await expect.poll(async () => (await body.boundingBox())!.height).toBeGreaterThan(300);
  await page.getByRole('button', { name: 'Compress event history' }).click();
  await expect.poll(async () => (await body.boundingBox())!.height).toBeLessThanOrEqual(221);

  await page.getByRole('button', { name: 'Hide event history' }).click();
  await expect(body).toHaveCount(0);
  await expect(page.getByPlaceholder('Filter')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show event history' }).click();
  await expect(lines(page)).toHaveCount(20);

  const card = page.getByTestId('newest-event-card');
  await expect(card).toContainText(withoutAsnap[0]!.ts);
  await expect(card).toContainText('END OF CRUISE');
  await card.getByRole('button', { name: 'Hide new event details' }).click();
  await expect(card).toHaveCount(0);
  await page.getByRole('button', { name: 'Show Recent Event' }).click();
  await expect(page.getByTestId('newest-event-card')).toContainText('END OF CRUISE');
});
