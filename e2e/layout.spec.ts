import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';

/**
 * Every management screen at 1400 px, on the pruned production build: its columns sit in the
 * middle of the page, as much room left of them as right of them. A grid class the build's CSS
 * pruning drops (`offset-xl-1` once) leaves a screen's columns flush left with an empty gutter on
 * the right; this is where that shows.
 */

const screens: Array<{ path: string; ready: string | RegExp }> = [
  { path: '/cruises', ready: 'Cruises' },
  { path: '/lowerings', ready: 'Lowerings' },
  { path: '/users', ready: 'System Users' },
  { path: '/event_templates', ready: 'System Event Templates' },
  { path: '/event_management', ready: 'Filtered Events' },
  { path: '/device_keys', ready: /Device Keys/ },
  { path: '/ships', ready: /Ship/ },
  { path: '/checklists', ready: /Checklists/ },
  { path: '/tasks', ready: 'Wipe Local Database' },
  { path: '/audit', ready: /Audit/ },
  { path: '/profile', ready: 'User Profile' },
];

/** The room left and right of the columns of the screen's outer grid row, in px. */
async function margins(page: Page) {
  return page
    .locator('main .row')
    .first()
    .evaluate((row) => {
      const box = row.getBoundingClientRect();
      const cols = Array.from(row.children)
        .filter((c) => /\bcol\b|\bcol-/.test(c.className) && c.getBoundingClientRect().width > 0)
        .map((c) => c.getBoundingClientRect());
      return {
        left: Math.min(...cols.map((c) => c.left)) - box.left,
        right: box.right - Math.max(...cols.map((c) => c.right)),
      };
    });
}

test.describe('management screens at 1400 px', () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  for (const screen of screens) {
    test(`${screen.path} is centred, no gutter on one side`, async ({ page }, testInfo) => {
      await page.goto(screen.path);
      await expect(page.getByText(screen.ready).first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Loading...')).toHaveCount(0, { timeout: 30_000 });
      const m = await margins(page);
      await page.screenshot({ path: testInfo.outputPath('1400.png'), fullPage: true });
      expect(
        Math.abs(m.left - m.right),
        `${screen.path}: ${m.left} px left of the columns, ${m.right} px right`,
      ).toBeLessThanOrEqual(2);
    });
  }
});
