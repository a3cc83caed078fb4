import type { Locator, Page, TestInfo } from '@playwright/test';
import type { Cruise, Lowering } from '@bathylog/shared';
import { apiLogin, createUser } from './support/api';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';

/**
 * Every screen at the widths a crew's screens have (768, 1024 and 1400 px): nothing wider than the
 * window, the header on one line even with a long full name, and the labels, buttons and values
 * the crew read at a glance on one line. Each width's screenshot is attached to the run's
 * artifacts, to be looked at by eye. Runs as an admin with a long full name; the signed-out
 * screens too.
 */

const widths = [768, 1024, 1400] as const;
const longFullName = 'Dr. Maximiliane Oyelaran-Westerhuis';

/** The document is no wider than the window: no sideways scrolling. */
async function expectNoOverflow(page: Page, what: string) {
  const size = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect.soft(size.scroll, `${what}: the page is wider than the window`).toBeLessThanOrEqual(size.client);
}

/**
 * Each element's text sits on one line: its content box is less than two lines high, and nothing
 * inside is cut off sideways.
 */
async function expectOneLine(locator: Locator, what: string) {
  const count = await locator.count();
  expect(count, `${what}: nothing to check`).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const box = await locator.nth(i).evaluate((el) => {
      const style = getComputedStyle(el);
      const px = (v: string) => parseFloat(v) || 0;
      const rect = el.getBoundingClientRect();
      const content =
        rect.height -
        px(style.paddingTop) -
        px(style.paddingBottom) -
        px(style.borderTopWidth) -
        px(style.borderBottomWidth);
      const lineHeight = style.lineHeight === 'normal' ? 1.2 * px(style.fontSize) : px(style.lineHeight);
      return {
        text: (el.textContent ?? '').trim(),
        lines: content / lineHeight,
        cut: el.scrollWidth - el.clientWidth,
      };
    });
    expect.soft(box.lines, `${what} "${box.text}" wraps`).toBeLessThan(1.5);
    expect.soft(box.cut, `${what} "${box.text}" is cut off`).toBeLessThanOrEqual(1);
  }
}

/**
 * The header on one line: brand, entries and the user menu side by side at one height, all inside
 * the window (the user menu is not pushed off or cut).
 */
async function expectHeaderOnOneLine(page: Page) {
  const navbar = page.locator('.app-navbar');
  const items = navbar.locator('.navbar-brand, .navbar-nav .nav-link');
  await expectOneLine(items, 'header entry');
  const boxes = await items.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, right: r.right, text: (el.textContent ?? '').trim() };
    }),
  );
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  const navHeight = (await navbar.boundingBox())!.height;
  const tallest = Math.max(...boxes.map((b) => b.bottom - b.top));
  for (const b of boxes) {
    expect.soft(Math.abs(b.top - boxes[0]!.top), `header entry "${b.text}" is on another line`).toBeLessThanOrEqual(6);
    expect.soft(b.right, `header entry "${b.text}" goes past the window`).toBeLessThanOrEqual(width);
  }
  // One row of entries plus the navbar's own padding (Bootstrap: 0.5rem above and below).
  expect.soft(navHeight, 'the header is taller than one line').toBeLessThanOrEqual(tallest + 20);
}

/** A placeholder fits its input: the text is not cut at the field's edge. */
async function expectPlaceholderFits(input: Locator, what: string) {
  const fit = await input.evaluate((el) => {
    const field = el as HTMLInputElement;
    const style = getComputedStyle(field);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = ctx.measureText(field.placeholder).width;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text, room, placeholder: field.placeholder };
  });
  expect.soft(fit.text, `${what}: the placeholder "${fit.placeholder}" is cut`).toBeLessThanOrEqual(fit.room);
}

/** Keeps a screenshot of the page in the test's folder of the run's artifacts, to be looked at by eye. */
async function snap(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** Sets the window to each width in turn and runs `check` there, then keeps a screenshot. */
async function atEachWidth(
  page: Page,
  testInfo: TestInfo,
  name: string,
  check: (width: number) => Promise<void>,
  extraWidths: number[] = [],
) {
  for (const width of [...extraWidths, ...widths]) {
    await page.setViewportSize({ width, height: 900 });
    await check(width);
    await expectNoOverflow(page, `${name} at ${width} px`);
    await snap(page, testInfo, `${name}-${width}`);
  }
}

let demo: { cruise: Cruise; lowering: Lowering };
let viewer: { username: string; password: string };

test.describe('signed in, with a long full name', () => {
  test.beforeAll(async () => {
    const admin = await apiLogin('admin', 'demo');
    const lowerings = await admin.get<Lowering[]>('lowerings');
    const lowering = lowerings.find((l) => l.lowering_id === 'S0492')!;
    const cruise = await admin.get<Cruise>(`cruises/bylowering/${lowering.id}`);
    demo = { cruise, lowering };
    viewer = await createUser(admin, { fullname: longFullName, roles: ['admin'] });
    await admin.dispose();
  });

  test.beforeEach(async ({ context }) => {
    await useSessionOf(context, viewer.username, viewer.password);
  });

  const simple: Array<{ name: string; path: string; ready: string | RegExp }> = [
    { name: 'console', path: '/', ready: 'Event History' },
    { name: 'event-management', path: '/event_management', ready: 'Filtered Events' },
    { name: 'tasks', path: '/tasks', ready: 'Wipe Local Database' },
    { name: 'device-keys', path: '/device_keys', ready: /Device Keys/ },
    { name: 'audit', path: '/audit', ready: /Audit/ },
    { name: 'system', path: '/system', ready: 'Aux Data Managers' },
  ];
  for (const screen of simple) {
    test(`${screen.path} at every width`, async ({ page }, testInfo) => {
      await page.goto(screen.path);
      await expect(page.getByText(screen.ready).first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('Loading...')).toHaveCount(0, { timeout: 30_000 });
      await atEachWidth(page, testInfo, screen.name, async () => {
        await expectHeaderOnOneLine(page);
      });
    });
  }

  test('the header keeps a long full name on one line and the user menu whole', async ({ page }, testInfo) => {
    await page.goto('/cruise_menu');
    await expect(page.getByTestId('user-menu-title')).toContainText('Oyelaran');
    await atEachWidth(page, testInfo, 'header', async () => {
      await expectHeaderOnOneLine(page);
      // The whole name is still there for whoever hovers or reads it out.
      await expect(page.getByTestId('user-menu-title')).toHaveAttribute('title', longFullName);
      await page.getByTestId('user-menu-title').click();
      await expect(page.getByRole('link', { name: 'Log Out' })).toBeInViewport();
      await page.keyboard.press('Escape');
    });
  });

  test('/profile: Confirm Password and Reset Values on one line', async ({ page }, testInfo) => {
    await page.goto('/profile');
    await expect(page.getByText('User Profile')).toBeVisible();
    await atEachWidth(page, testInfo, 'profile', async () => {
      await expectHeaderOnOneLine(page);
      await expectOneLine(page.locator('label', { hasText: /^(Password|Confirm Password)/ }), 'profile label');
      await expectOneLine(page.getByRole('button', { name: 'Reset Values' }), 'profile button');
      // The two password fields line up.
      const [a, b] = await Promise.all([
        page.getByLabel('Password', { exact: true }).boundingBox(),
        page.getByLabel('Confirm Password').boundingBox(),
      ]);
      if (Math.abs(a!.x - b!.x) > 2)
        expect(Math.abs(a!.y - b!.y), 'the password fields line up').toBeLessThanOrEqual(1);
    });
  });

  test('/users: the user form on one line per label', async ({ page }, testInfo) => {
    await page.goto('/users');
    await expect(page.getByText('System Users').first()).toBeVisible();
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await atEachWidth(page, testInfo, 'users', async () => {
      await expectHeaderOnOneLine(page);
      await expectOneLine(
        page.locator('label', { hasText: /^(Password|Confirm Password|System User|User Disabled)$/ }),
        'user form label',
      );
      await expectOneLine(page.getByRole('button', { name: 'Reset Values' }), 'user form button');
    });
  });

  test('/event_templates: the template form, its colour placeholder whole', async ({ page }, testInfo) => {
    await page.goto('/event_templates');
    await expect(page.getByText('System Event Templates').first()).toBeVisible();
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await atEachWidth(page, testInfo, 'event-templates', async () => {
      await expectHeaderOnOneLine(page);
      const fields = page.locator('form input[placeholder]');
      await expect(fields.first()).toBeVisible();
      for (let i = 0; i < (await fields.count()); i++) {
        const field = fields.nth(i);
        if (await field.isVisible()) await expectPlaceholderFits(field, 'template form');
      }
      await expectOneLine(
        page.locator('label', { hasText: /^(Free text Required\?|System template|Disable template)$/ }),
        'template form switch',
      );
    });
  });

  test('/cruise_menu with the demo cruise and lowering open', async ({ page }, testInfo) => {
    await page.goto(`/cruise_menu?cruise=${demo.cruise.id}&lowering=${demo.lowering.id}`);
    await expect(page.getByRole('region', { name: /^Lowering: / })).toBeVisible();
    await atEachWidth(page, testInfo, 'cruise-menu', async () => {
      await expectHeaderOnOneLine(page);
    });
  });

  test('/cruises and /lowerings with a record in the form', async ({ page }, testInfo) => {
    await page.goto('/cruises');
    await page.getByRole('button', { name: `Edit ${demo.cruise.cruise_id}` }).click();
    await expect(page.getByText(`Update Cruise`)).toBeVisible();
    await atEachWidth(page, testInfo, 'cruises', async () => {
      await expectHeaderOnOneLine(page);
      await expectOneLine(page.getByRole('button', { name: 'Reset Values' }), 'cruise form button');
    });
    await page.goto('/lowerings');
    // Other specs add lowerings (some starting years ahead) that can push the demo dive off the first page.
    await page.getByRole('searchbox').first().fill('S0492');
    await page.getByRole('button', { name: 'Edit S0492' }).click();
    await expect(page.getByText(`Update Lowering`)).toBeVisible();
    await atEachWidth(page, testInfo, 'lowerings', async () => {
      await expectHeaderOnOneLine(page);
      await expectOneLine(page.getByRole('button', { name: 'Reset Values' }), 'lowering form button');
    });
  });

  test('the milestones editor: timestamps whole', async ({ page }, testInfo) => {
    test.slow();
    await page.goto('/lowerings');
    // Other specs add lowerings (some starting years ahead) that can push the demo dive off the first page.
    await page.getByRole('searchbox').first().fill('S0492');
    await page.getByRole('button', { name: 'Edit S0492' }).click();
    await page.getByRole('button', { name: 'Milestones', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'S0492 - Milestones / Stats' });
    await expect(modal.locator('.depth-chart-plot')).toHaveAttribute('data-points', /^\d+$/, { timeout: 30_000 });
    await atEachWidth(page, testInfo, 'milestones', async () => {
      await expectOneLine(modal.locator('.milestone-value').filter({ hasText: /\d/ }), 'milestone time');
    });
  });

  test('review replay, map with event details, gallery', async ({ page }, testInfo) => {
    test.slow();
    const id = demo.lowering.id;
    await page.goto(`/review_replay/${id}`);
    await expect(page.getByRole('slider', { name: 'Event' })).toBeEnabled({ timeout: 30_000 });
    // A highlighted line whose comment icon shows its "+" badge whole.
    await page.getByTestId('event-line').nth(1).locator('.event-line-text').click();
    await atEachWidth(page, testInfo, 'review-replay', async () => {
      await expectHeaderOnOneLine(page);
      await expectBadgeWhole(page.locator('[data-testid="event-line"].active .event-comment-add'));
    });
    await page.goto(`/review_map/${id}`);
    await expect(page.getByRole('button', { name: 'View Details' }).first()).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'View Details' }).first().click();
    const details = page.getByRole('dialog', { name: 'Event Details:' });
    await expect(details.getByTestId('aux-data-card').first()).toBeVisible();
    await atEachWidth(page, testInfo, 'event-details', async () => {
      await expectOneLine(details.locator('.data-card-row'), 'data card row');
    });
    await details.getByRole('button', { name: 'Close' }).first().click();
    await atEachWidth(page, testInfo, 'review-map', async () => {
      await expectHeaderOnOneLine(page);
    });
    await page.goto(`/review_gallery/${id}`);
    await expect(page.getByTestId('gallery-image').first()).toBeVisible({ timeout: 30_000 });
    await atEachWidth(page, testInfo, 'review-gallery', async () => {
      await expectHeaderOnOneLine(page);
    });
  });
});

/** The "+" badge of an Add Comment icon is drawn whole: inside its line, not clipped. */
async function expectBadgeWhole(icon: Locator) {
  const plus = icon.locator('.event-comment-plus');
  await expect(plus).toBeVisible();
  const [badge, line] = await Promise.all([
    plus.boundingBox(),
    icon.locator('xpath=ancestor::*[contains(@class,"list-group-item")][1]').boundingBox(),
  ]);
  expect.soft(badge!.y, 'the "+" badge is cut at the top of its line').toBeGreaterThanOrEqual(line!.y);
  expect
    .soft(badge!.x + badge!.width, 'the "+" badge is cut at the right of its line')
    .toBeLessThanOrEqual(line!.x + line!.width);
}

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('/login: the configured text (the demo hint) shows at every width, narrow ones too', async ({
    page,
  }, testInfo) => {
    await page.goto('/login');
    await atEachWidth(
      page,
      testInfo,
      'login',
      async () => {
        await expect(page.getByText('Log in as admin with the password demo')).toBeVisible();
        await expect(page.getByText('Log in as admin with the password demo')).toBeInViewport();
      },
      [390, 600],
    );
  });

  for (const screen of [
    { name: 'register', path: '/register', ready: 'User Registration' },
    { name: 'forgot-password', path: '/forgotPassword', ready: 'Forgot Password' },
    { name: 'reset-password', path: '/resetPassword/not-a-token', ready: 'Reset Password' },
  ]) {
    test(`${screen.path} at every width`, async ({ page }, testInfo) => {
      await page.goto(screen.path);
      await expect(page.getByText(screen.ready).first()).toBeVisible();
      await atEachWidth(page, testInfo, screen.name, async () => {
        await expectOneLine(page.locator('label'), `${screen.name} label`);
      });
    });
  }
});
