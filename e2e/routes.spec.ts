import { test, expect } from './support/fixtures';

test.describe('without a session', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const route of ['/', '/profile', '/users', '/tasks', '/event_templates', '/cruise_menu', '/review_map/abc']) {
    test(`${route} is protected and sends the user to /login`, async ({ page }) => {
      await page.goto(route);
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test('public screens open without a session', async ({ page }) => {
    const screens: Array<[string, string]> = [
      ['/register', 'User Registration'],
      ['/forgotPassword', 'Forgot Password'],
      ['/resetPassword/0123abcd', 'Reset Password'],
    ];
    for (const [route, title] of screens) {
      await page.goto(route);
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
  });
});

test.describe('with the admin session', () => {
  test('old Sealog review paths redirect to the review routes', async ({ page }) => {
    for (const mode of ['gallery', 'map', 'replay']) {
      await page.goto(`/lowering_${mode}/6410e4e06594c9977675e47a`);
      await expect(page).toHaveURL(new RegExp(`/review_${mode}/6410e4e06594c9977675e47a$`));
    }
  });

  test('an unknown path says so and links home', async ({ page }) => {
    await page.goto('/no/such/screen');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the content is capped at 1200 px with 70 px bottom padding; the footer stays in view', async ({ page }) => {
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.goto('/profile');
    const main = page.getByRole('main');
    const box = await main.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(1200);
    expect(await main.evaluate((el) => getComputedStyle(el).paddingBottom)).toBe('70px');
    const footer = page.getByTestId('app-footer');
    expect(await footer.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await expect(footer).toBeInViewport();
  });
});
