import type { BrowserContext, Locator, Page, Route } from '@playwright/test';
import { createUser, uniqueName, type ApiClient } from './support/api';
import { expiredSessionOf, loginViaUi, useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import type { LogEvent } from '@bathylog/shared';

/**
 * "Never lose an event" (docs/screens.md#offline-logging): with the server out of reach, logging
 * goes on; each event gets its id and time at the click, waits in IndexedDB (shown as pending,
 * counted in the header), survives a reload and a browser restart, and arrives once, in order, with
 * its original time when the link returns, even when the answer to a send was lost.
 */

test.use({ storageState: { cookies: [], origins: [] } });

async function makeTemplate(adminApi: ApiClient, category: string, options: unknown[] = []) {
  const name = uniqueName('Off ');
  const value = uniqueName('OFFL').toUpperCase();
  await adminApi.post('event_templates', {
    event_name: name,
    event_value: value,
    event_free_text_required: false,
    system_template: false,
    template_categories: [category],
    event_options: options,
  });
  return { name, value };
}

let counter = 0;
/** Free texts unique across runs and workers (uniqueName keeps only 15 characters). */
function uniqueText(prefix: string): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

function pendingLines(page: Page): Locator {
  return page
    .getByTestId('event-history-body')
    .getByTestId('event-line')
    .filter({ has: page.getByTestId('event-pending') });
}

function allowNetworkErrors(consoleErrors: { allow: (p: RegExp) => void }) {
  // What Chromium logs for requests made while the link is down (the app itself logs nothing).
  consoleErrors.allow(/net::ERR_/);
  consoleErrors.allow(/WebSocket/);
}

async function myEvents(adminApi: ApiClient, username: string): Promise<LogEvent[]> {
  const res = await adminApi.context.get(`/sealog-server/api/v1/events?author=${encodeURIComponent(username)}`);
  if (res.status() === 404) return [];
  expect(res.status()).toBe(200);
  return (await res.json()) as LogEvent[];
}

async function freeText(page: Page, text: string) {
  await page.getByPlaceholder('Type new event').fill(text);
  await page.getByPlaceholder('Type new event').press('Enter');
}

async function openConsole(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
  return page;
}

test('cut off from the server, 20 events are logged and arrive exactly once with their original times', async ({
  context,
  adminApi,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  allowNetworkErrors(consoleErrors);
  const category = uniqueName('cat');
  const oneClick = await makeTemplate(adminApi, category, [
    {
      event_option_name: 'Milestone',
      event_option_type: 'static text',
      event_option_values: [],
      event_option_default_value: 'In Water',
      event_option_allow_freeform: false,
      event_option_required: false,
    },
  ]);
  const withOptions = await makeTemplate(adminApi, category, [
    {
      event_option_name: 'Sample ID',
      event_option_type: 'text',
      event_option_values: [],
      event_option_default_value: '',
      event_option_allow_freeform: false,
      event_option_required: true,
    },
  ]);
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await useSessionOf(context, user.username, user.password);
  const page = await openConsole(context);
  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
  const badge = page.getByTestId('pending-events');
  const texts: string[] = [];

  const logOneClick = () => page.getByRole('button', { name: oneClick.name, exact: true }).click();
  const logWithOptions = async (sampleId: string) => {
    await page.getByRole('button', { name: withOptions.name, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Sample ID').fill(sampleId);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);
  };
  const logText = async () => {
    const text = uniqueText('offline note');
    texts.push(text);
    await freeText(page, text);
  };

  // 1. The link drops: 12 events, and one modal cancelled (that one must never arrive).
  await context.setOffline(true);
  for (let i = 0; i < 5; i++) await logOneClick();
  await logWithOptions('S-OFF-1');
  for (let i = 0; i < 6; i++) await logText();
  await page.getByRole('button', { name: withOptions.name, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(badge).toHaveText(/12 events waiting/);
  await expect(pendingLines(page)).toHaveCount(12);
  await expect(page.getByTestId('offline-notice')).toBeVisible();

  // 2. The network is back but the server takes no events: reload, the queue is still there.
  const refuse = (route: Route) => route.abort('connectionrefused');
  await page.route('**/sealog-server/api/v1/events**', refuse);
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId('event-history')).toBeVisible();
  await expect(badge).toHaveText(/12 events waiting/);
  await expect(pendingLines(page)).toHaveCount(12);
  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
  for (let i = 0; i < 3; i++) await logOneClick();
  await logWithOptions('S-OFF-2');
  for (let i = 0; i < 4; i++) await logText();
  await expect(badge).toHaveText(/20 events waiting/);
  await expect(pendingLines(page)).toHaveCount(20);

  // The times the events got at the click, as the pending lines show them.
  const shownTimes = (await pendingLines(page).allInnerTexts()).map((t) => t.trim().split(' ')[0]!).sort();
  expect(shownTimes).toHaveLength(20);
  const restoredAt = Date.now();

  // 3. The server is back; the answer to the first send is lost on the way (it arrived, the
  //    browser does not know): the resend is answered 'duplicate event ID' and counts as sent.
  await page.unroute('**/sealog-server/api/v1/events**', refuse);
  let lostOne = false;
  await page.route('**/sealog-server/api/v1/events', async (route) => {
    if (!lostOne && route.request().method() === 'POST') {
      lostOne = true;
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await expect(badge).toHaveCount(0, { timeout: 30_000 });
  await expect(pendingLines(page)).toHaveCount(0);
  expect(lostOne).toBe(true);

  const stored = await myEvents(adminApi, user.username);
  expect(stored).toHaveLength(20);
  expect(new Set(stored.map((e) => e.id)).size).toBe(20);
  expect(stored.map((e) => e.ts).sort()).toEqual(shownTimes);
  for (const e of stored) expect(Date.parse(e.ts)).toBeLessThan(restoredAt);
  expect(stored.filter((e) => e.event_value === oneClick.value)).toHaveLength(8);
  expect(
    stored
      .filter((e) => e.event_value === oneClick.value)
      .every((e) => e.event_options[0]?.event_option_value === 'In Water'),
  ).toBe(true);
  expect(
    stored
      .filter((e) => e.event_value === withOptions.value)
      .map((e) => e.event_options.find((o) => o.event_option_name === 'sample_id')?.event_option_value)
      .sort(),
  ).toEqual(['S-OFF-1', 'S-OFF-2']);
  const freeForm = stored.filter((e) => e.event_value === 'FREE_FORM').map((e) => e.event_free_text);
  expect(freeForm.sort()).toEqual([...texts].sort());
  // Sent in the order they were logged: ids made at the click increase with it.
  const byTs = [...stored].sort((a, b) => a.ts.localeCompare(b.ts));
  expect(byTs.map((e) => e.event_free_text).filter((t) => t)).toEqual(texts);
  // And the history now shows them from the server.
  for (const text of texts)
    await expect(
      page.getByTestId('event-history-body').getByTestId('event-line').filter({ hasText: text }),
    ).toHaveCount(1);
});

test('waiting events survive a browser restart and are sent by the next session', async ({
  browser,
  context,
  adminApi,
  consoleErrors,
}) => {
  allowNetworkErrors(consoleErrors);
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await useSessionOf(context, user.username, user.password);
  const page = await openConsole(context);
  await context.setOffline(true);
  const texts = [uniqueText('before restart'), uniqueText('before restart'), uniqueText('before restart')];
  for (const text of texts) await freeText(page, text);
  await expect(page.getByTestId('pending-events')).toHaveText(/3 events waiting/);
  const state = await context.storageState({ indexedDB: true });
  await context.close();
  expect(await myEvents(adminApi, user.username)).toEqual([]);

  // The browser starts again with what it had stored (cookies and IndexedDB), and the link is up.
  const next = await browser.newContext({ storageState: state, viewport: { width: 1280, height: 800 } });
  consoleErrors.watch(next);
  try {
    const again = await openConsole(next);
    await expect(again.getByTestId('pending-events')).toHaveCount(0, { timeout: 30_000 });
    const stored = await myEvents(adminApi, user.username);
    expect(stored.map((e) => e.event_free_text).sort()).toEqual([...texts].sort());
  } finally {
    await next.close();
  }
});

test('waiting events outlive an expired session and are sent after the next login', async ({
  context,
  adminApi,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  allowNetworkErrors(consoleErrors);
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await useSessionOf(context, user.username, user.password);
  const page = await openConsole(context);
  await context.setOffline(true);
  const texts = [uniqueText('before expiry'), uniqueText('before expiry'), uniqueText('before expiry')];
  for (const text of texts) await freeText(page, text);
  await expect(page.getByTestId('pending-events')).toHaveText(/3 events waiting/);

  // While the link is down the session runs out: its cookie now holds a token that expired a minute ago.
  const session = (await context.cookies()).find((c) => c.name === 'token')!;
  await context.addCookies([{ ...session, value: await expiredSessionOf(session.value) }]);
  await context.setOffline(false);

  // The first send is refused as expired: the login screen says why, nothing has arrived, the queue is kept.
  await expect(page.getByText('Your session has expired, please log in again')).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/login$/);
  expect(await myEvents(adminApi, user.username)).toEqual([]);

  await loginViaUi(page, user.username, user.password);
  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
  await expect(page.getByTestId('pending-events')).toHaveCount(0, { timeout: 30_000 });
  const stored = await myEvents(adminApi, user.username);
  expect(stored.map((e) => e.event_free_text).sort()).toEqual([...texts].sort());
});

test('what the server refuses is shown, does not hold up the rest, and can be dismissed', async ({
  context,
  adminApi,
}) => {
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  const category = uniqueName('cat');
  const withOptions = await makeTemplate(adminApi, category, [
    {
      event_option_name: 'Count',
      event_option_type: 'text',
      event_option_values: [],
      event_option_default_value: '',
      event_option_allow_freeform: false,
      event_option_required: false,
    },
  ]);
  await useSessionOf(context, user.username, user.password);
  const page = await openConsole(context);
  const refused = uniqueText('refused note');
  // The server refuses one event and any delete (as it would a stale or foreign one).
  await page.route('**/sealog-server/api/v1/events**', async (route) => {
    const req = route.request();
    const body = req.method() === 'POST' ? (req.postDataJSON() as { event_free_text?: string }) : null;
    if (body?.event_free_text === refused) {
      await route.fulfill({
        status: 400,
        json: { statusCode: 400, error: 'Bad Request', message: 'event_value is not allowed' },
      });
      return;
    }
    if (req.method() === 'DELETE') {
      await route.fulfill({
        status: 403,
        json: { statusCode: 403, error: 'Forbidden', message: 'Only admins and event managers can delete this event' },
      });
      return;
    }
    await route.continue();
  });

  await freeText(page, refused);
  const accepted = uniqueText('accepted note');
  await freeText(page, accepted);
  const body = page.getByTestId('event-history-body');
  const refusedLine = body.getByTestId('event-line').filter({ hasText: refused });
  await expect(refusedLine.getByTestId('event-failed')).toBeVisible();
  await expect(body.getByTestId('event-line').filter({ hasText: accepted }).getByTestId('event-pending')).toHaveCount(
    0,
  );
  await expect(page.getByTestId('pending-events')).toHaveText(/1 not saved/);

  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
  await page.getByRole('button', { name: withOptions.name, exact: true }).click();
  // Let the bare event reach the server, so that the cancel has to send a delete.
  await expect(
    body.getByTestId('event-line').filter({ hasText: withOptions.value }).getByTestId('event-pending'),
  ).toHaveCount(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('refused-changes')).toContainText(
    'Only admins and event managers can delete this event',
  );
  await expect(page.getByTestId('pending-events')).toHaveText(/2 not saved/);

  await page.getByTestId('refused-changes').getByRole('button', { name: 'Dismiss' }).click();
  await refusedLine.getByRole('button', { name: 'Discard this event' }).click();
  await expect(refusedLine).toHaveCount(0);
  await expect(page.getByTestId('refused-changes')).toHaveCount(0);
  await expect(page.getByTestId('pending-events')).toHaveCount(0);
});
