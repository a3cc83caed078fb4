import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';

/**
 * The console opens video at an event (docs/video.md#live-video): a recent event links each
 * camera's live stream (from the runtime settings), an older one opens its details with the
 * recorded video's links.
 */

test.use({ storageState: { cookies: [], origins: [] } });

const stream = 'https://video.ship.example/cam1/index.m3u8';

async function withLiveStreams(page: Page) {
  // The settings as the server answers them, with one camera's stream added (a browser may ask
  // again conditionally, so the answer is built once here rather than from each response).
  const settings = (await (await page.request.get('/sealog-server/client_settings')).json()) as Record<string, unknown>;
  await page.route('**/sealog-server/client_settings', async (route) => {
    await route.fulfill({ json: { ...settings, liveVideoStreams: { cam1: stream } } });
  });
}

test('a recent event links the live stream; an older one opens its recorded video', async ({
  page,
  context,
  adminApi,
}) => {
  const value = `LIVE-${Date.now().toString(36)}`;
  await adminApi.post('events', { event_value: value, ts: new Date(Date.now() - 2000).toISOString() });
  const older = `PAST-${Date.now().toString(36)}`;
  await adminApi.post('events', { event_value: older, ts: new Date(Date.now() - 3000 - 10 * 60_000).toISOString() });
  await useSessionOf(context, 'admin', 'demo');
  await withLiveStreams(page);
  await page.goto('/');
  const history = page.getByTestId('event-history-body');
  const line = history.getByTestId('event-line').filter({ hasText: value });
  const live = line.getByRole('link', { name: 'Open live video: cam1' });
  await expect(live).toHaveAttribute('href', stream);
  await expect(live).toHaveAttribute('target', '_blank');
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/live-video-console.png' });

  // Other specs log events on the shared server meanwhile, so the older event may be off the first
  // page: the crew would type its value into the filter.
  await page.getByPlaceholder('Filter').fill(older);
  const past = history.getByTestId('event-line').filter({ hasText: older });
  await expect(past).toHaveCount(1);
  await expect(past.getByRole('link', { name: /Open live video/ })).toHaveCount(0);
  const recorded = past.getByRole('button', { name: 'Open recorded video' });
  await recorded.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('dialog')).toContainText(older);
});
