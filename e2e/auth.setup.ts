import { adminStorageState, test as setup, expect } from './support/fixtures';

/** Logs in as admin/demo once through the login screen and saves the session for the specs. */
setup('log in as admin', async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('Username').fill('admin');
  await page.getByPlaceholder('Password').fill('demo');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByTestId('user-menu-title')).toContainText('Admin');
  await page.context().storageState({ path: adminStorageState });
});
