import type { Locator, Page } from '@playwright/test';
import { createUser, uniqueName } from './support/api';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import type { LogEvent } from '@bathylog/shared';

/**
 * Late events are live (docs/wire.md#live-or-imported, docs/realtime.md#late-events): an event
 * typed on console A while its link was down reaches console B when the link returns, placed at
 * its time, and an import of old events reaches no console.
 */

test.use({ storageState: { cookies: [], origins: [] } });

const outageMs = 190_000;

function lines(page: Page): Locator {
  return page.getByTestId('event-history-body').getByTestId('event-line');
}

/** Which of this test's events a console lists, top to bottom (the word after the tag). */
async function shownOrder(page: Page, tag: string): Promise<string[]> {
  const texts = await lines(page).allInnerTexts();
  return texts.map((text) => new RegExp(`${tag} (\\w+)`).exec(text)?.[1] ?? text);
}

/** The free texts of the events pushed to a page on `newEvents`, as its websocket receives them. */
function newEventPushes(page: Page): string[] {
  const pushed: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      let frame: { type?: string; path?: string; message?: { event_free_text?: string } };
      try {
        frame = JSON.parse(payload) as typeof frame;
      } catch {
        return;
      }
      if (frame.type === 'pub' && frame.path === '/ws/status/newEvents')
        pushed.push(frame.message?.event_free_text ?? '');
    }),
  );
  return pushed;
}

test('console B sees an event console A sent after a 3-minute outage, in time order; an import of 1,000 old events does not flood console B', async ({
  context,
  browser,
  baseURL,
  adminApi,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  // What Chromium logs for requests made while the link is down (the app itself logs nothing).
  consoleErrors.allow(/net::ERR_/);
  consoleErrors.allow(/WebSocket/);
  const tag = uniqueName('late');
  const logger = await createUser(adminApi, { roles: ['event_logger'] });
  const watcher = await createUser(adminApi, { roles: ['event_logger'] });
  const iso = (ms: number) => new Date(ms).toISOString();

  // Logged five minutes ago, before the outage.
  await adminApi.post('events', {
    event_value: 'NOTE',
    event_free_text: `${tag} before`,
    ts: iso(Date.now() - 300_000),
  });

  // Console B, filtered to this test's events.
  const contextB = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  consoleErrors.watch(contextB);
  await useSessionOf(contextB, watcher.username, watcher.password);
  const pageB = await contextB.newPage();
  const pushedToB = newEventPushes(pageB);
  await pageB.goto('/');
  await expect(pageB.getByTestId('event-history')).toBeVisible();
  await pageB.getByLabel('Filter').fill(tag);
  await expect(lines(pageB)).toHaveCount(1);
  await expect(lines(pageB).first()).toContainText(`${tag} before`);

  // Console A loses its link. No test waits out an outage: console A's clock is set back by it
  // while the link is down, so the event it stamps reaches the server 3 min 10 s after its time,
  // exactly as after a real outage of that length.
  await useSessionOf(context, logger.username, logger.password);
  const pageA = await context.newPage();
  await pageA.clock.install();
  await pageA.goto('/');
  await expect(pageA.getByTestId('event-history')).toBeVisible();
  await context.setOffline(true);
  await pageA.clock.setSystemTime(Date.now() - outageMs);
  await pageA.getByPlaceholder('Type new event').fill(`${tag} late`);
  await pageA.getByPlaceholder('Type new event').press('Enter');
  await expect(pageA.getByTestId('pending-events')).toHaveText(/1 event waiting/);

  // Meanwhile another console logs live; B shows it at once.
  await adminApi.post('events', { event_value: 'NOTE', event_free_text: `${tag} after` });
  await expect(lines(pageB)).toHaveCount(2);

  // The link returns, 3 min 10 s after the event was typed.
  await pageA.clock.setSystemTime(Date.now());
  const linkBack = Date.now();
  await context.setOffline(false);
  await expect(pageA.getByTestId('pending-events')).toHaveCount(0);

  // B shows it without a reload, between the two it already had: newest first.
  await expect(lines(pageB)).toHaveCount(3);
  expect(await shownOrder(pageB, tag)).toEqual(['after', 'late', 'before']);
  expect(pushedToB).toContain(`${tag} late`);
  // It was late for real: its time is more than 3 minutes before the link came back.
  const [late] = await adminApi.get<LogEvent[]>(`events?freetext=${encodeURIComponent(`${tag} late`)}`);
  expect(linkBack - Date.parse(late!.ts)).toBeGreaterThan(180_000);

  // An import of 1,000 old events, as importers send them: one POST each, with id, author and
  // time, no `publish` (the stock client's import dialog, scripts).
  const imported = uniqueName('imp');
  const twoDaysAgo = Date.now() - 2 * 86_400_000;
  const bodies = Array.from({ length: 1000 }, (_, i) => ({
    event_value: 'IMPORTED',
    event_author: 'importer',
    ts: iso(twoDaysAgo + i * 1000),
    event_free_text: `${imported} ${i}`,
  }));
  for (let i = 0; i < bodies.length; i += 25)
    await Promise.all(bodies.slice(i, i + 25).map((body) => adminApi.post('events', body)));
  // Then one live event: pushes arrive in order, so once B shows it any push of the import would
  // have arrived before it.
  await adminApi.post('events', { event_value: 'NOTE', event_free_text: `${tag} sentinel` });
  await expect(lines(pageB)).toHaveCount(4);
  expect(await shownOrder(pageB, tag)).toEqual(['sentinel', 'after', 'late', 'before']);
  expect(pushedToB.filter((text) => text.startsWith(imported))).toEqual([]);
  expect(pushedToB.filter((text) => text.startsWith(tag))).toEqual([`${tag} after`, `${tag} late`, `${tag} sentinel`]);
  await contextB.close();
});
