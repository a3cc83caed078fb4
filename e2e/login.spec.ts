import { test, expect } from './support/fixtures';

test.describe('login and logout', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('admin logs in, sees the header with the configured title, logs out', async ({ page, request }) => {
    const settings = (await (await request.get('/sealog-server/client_settings')).json()) as { headerTitle: string };

    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByPlaceholder('Username').fill('Admin'); // lower-cased before sending
    await page.getByPlaceholder('Password').fill('demo');
    await page.getByRole('button', { name: 'Login', exact: true }).click();

    await expect(page).toHaveURL(/\/$/);
    const header = page.getByRole('navigation').first();
    await expect(header.getByRole('link', { name: settings.headerTitle })).toBeVisible();
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
    await expect(page.getByRole('button', { name: 'System Management' })).toBeVisible();

    await page.getByTestId('user-menu-title').click();
    await page
      .getByRole('button', { name: 'Log Out' })
      .or(page.getByRole('link', { name: 'Log Out' }))
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')).toBeUndefined();

    // The session is gone: a protected screen sends the user back to the login.
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
  });
});
