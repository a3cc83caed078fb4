import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';

/**
 * WCAG 2 AA (axe-core) on the screens whose own specs came before the axe checks: each screen is
 * opened as admin, waited for until its content shows, and checked whole (header and footer too).
 * The newer screens check themselves in their own specs.
 */
const screens: Array<{ path: string; ready: string | RegExp }> = [
  { path: '/', ready: 'Event History' },
  { path: '/event_management', ready: 'Filtered Events' },
  { path: '/users', ready: 'System Users' },
  { path: '/event_templates', ready: 'System Event Templates' },
  { path: '/tasks', ready: 'Tasks' },
  { path: '/profile', ready: /Profile/ },
  { path: '/system', ready: 'Aux Data Managers' },
];

for (const screen of screens) {
  test(`${screen.path} passes the axe-core WCAG 2 AA check`, async ({ page }) => {
    await page.goto(screen.path);
    await expect(page.getByText(screen.ready).first()).toBeVisible();
    await expect(page.getByText('Loading...')).toHaveCount(0);
    await expectAccessible(page);
  });
}

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  for (const screen of [
    { path: '/register', ready: 'User Registration' },
    { path: '/forgotPassword', ready: 'Forgot Password' },
  ]) {
    test(`${screen.path} passes the axe-core WCAG 2 AA check`, async ({ page }) => {
      await page.goto(screen.path);
      await expect(page.getByText(screen.ready).first()).toBeVisible();
      await expectAccessible(page);
    });
  }
});
