import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiLogin, createLowering, dataDir, uniqueName } from './support/api';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';

/**
 * The replay beside its video (docs/video.md#playback): a recording made by ffmpeg and registered
 * as the dive's proxy; moving the replay seeks the video, and the playing video moves the replay.
 */

// Debian's ffmpeg, a real peer the tests install (scripts/peers.mjs).
const ffmpeg = ['/usr/bin/ffmpeg', '/usr/local/bin/ffmpeg'].find((p) => existsSync(p)) ?? 'ffmpeg';

const header = (page: Page) => page.getByTestId('review-event-header');
const videoTime = (page: Page) => page.getByTestId('video-player').evaluate((v: HTMLVideoElement) => v.currentTime);

async function seedDive(): Promise<{ lowering: string; camera: string }> {
  const admin = await apiLogin('admin', 'demo');
  const id = uniqueName('V').toUpperCase();
  const camera = `cam${id.toLowerCase()}`.slice(0, 40);
  // A moment no other test logs at: the video resolves by time for every event there.
  const start = Date.UTC(2031, 0, 1) + Math.floor(Math.random() * 1e6) * 60_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  const lowering = await createLowering(admin, {
    lowering_id: id,
    start_ts: iso(start - 60_000),
    stop_ts: iso(start + 120_000),
  });
  // A 30 s WebM proxy (any browser plays it), a keyframe every second.
  const rel = `video/${camera}.webm`;
  mkdirSync(path.join(dataDir(), 'video'), { recursive: true });
  execFileSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=30'],
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '200k', '-g', '10', path.join(dataDir(), rel)],
  ]);
  await admin.post(`lowerings/${lowering}/recordings`, {
    camera,
    start_ts: iso(start),
    copies: [{ uri: rel, role: 'proxy' }],
  });
  for (const s of [5, 10, 15, 20, 25]) {
    await admin.post('events', { event_value: `EV${s}`, ts: iso(start + s * 1000) });
  }
  await admin.dispose();

  return { lowering, camera };
}

test('replay and video stay in step when either moves', async ({ page }) => {
  const { lowering, camera } = await seedDive();
  await page.goto(`/review_replay/${lowering}`);
  await expect(header(page)).toContainText('EV5');
  await expect(page.getByTestId('video-links')).toContainText(`${camera} at 00:05.0`);
  await page.getByRole('button', { name: 'Video', exact: true }).click();
  const player = page.getByTestId('video-player');
  await expect(player).toBeVisible();
  await expect.poll(() => videoTime(page)).toBeCloseTo(5, 1);

  // The replay moves: the video seeks to the event.
  await page.getByRole('slider', { name: 'Event' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(header(page)).toContainText('EV15');
  await expect.poll(() => videoTime(page)).toBeCloseTo(15, 1);
  await expect(page.getByTestId('video-position')).toHaveText(`${camera} at 00:15.0`);

  // The video plays: the replay follows it to the event on screen.
  await player.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 19.5;
    void v.play();
  });
  await expect(header(page)).toContainText('EV20', { timeout: 15_000 });
  await player.evaluate((v: HTMLVideoElement) => v.pause());
  await expect.poll(() => videoTime(page)).toBeGreaterThanOrEqual(20);

  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('replay-video.png'), fullPage: true });
});

test('the event details link to the video and grab the frame at the event', async ({ page }) => {
  const { lowering, camera } = await seedDive();
  // The map view's list opens each event's details.
  await page.goto(`/review_map/${lowering}`);
  const line = page.getByTestId('event-line').filter({ hasText: 'EV10' });
  await line.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog');
  const link = dialog.getByRole('link', { name: `${camera} at 00:10.0` });
  await expect(link).toHaveAttribute('href', /\/sealog-server\/api\/v1\/recordings\/[0-9a-f]{24}\/media#t=10$/);
  await dialog.getByRole('button', { name: 'Grab frame from video' }).click();
  await expect(dialog.getByText(`Frame grabbed: ${camera}`)).toBeVisible();
  // Stored as a normal frame grab: the details show its image.
  await expect(dialog.locator(`img[src*="_${camera}_"]`).first()).toBeVisible();
  await expectAccessible(page, '.modal');
});
