import { apiPrefix, createUser, uniqueName } from './support/api';
import { loginViaUi } from './support/session';
import { test, expect } from './support/fixtures';
import type { User } from '@bathylog/shared';

test.use({ storageState: { cookies: [], origins: [] } });

test('update the full name and password; only filled fields are sent', async ({ page, adminApi }) => {
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await loginViaUi(page, user.username, user.password);
  await page.getByTestId('user-menu-title').click();
  await page.getByRole('link', { name: 'User Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);

  await expect(page.getByLabel('Username')).toHaveValue(user.username);
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await expect(page.getByLabel('Email')).not.toBeEditable();

  // Rules and messages.
  await page.getByLabel('Username').fill('Upper');
  await page.getByLabel('Full Name').fill('');
  await page.getByLabel('Password', { exact: true }).fill('newpassword');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Username can NOT include uppercase letters')).toBeVisible();
  await expect(page.getByText('Required')).toBeVisible();
  await expect(page.getByText('Passwords must match')).toBeVisible();

  // Reset Values brings the stored values back.
  await page.getByRole('button', { name: 'Reset Values' }).click();
  await expect(page.getByLabel('Username')).toHaveValue(user.username);

  const newName = `Renamed ${uniqueName('n')}`;
  await page.getByLabel('Full Name').fill(newName);
  await page.getByLabel('Password', { exact: true }).fill('newpassword');
  await page.getByLabel('Confirm Password').fill('newpassword');
  const sent = page.waitForRequest((r) => r.url().endsWith('/auth/profile') && r.method() === 'PATCH');
  await page.getByLabel('Confirm Password').press('Enter');
  expect((await sent).postDataJSON()).toEqual({ username: user.username, fullname: newName, password: 'newpassword' });
  await expect(page.getByRole('status').filter({ hasText: 'Success!' })).toHaveText('Success! User updated');
  await expect(page.getByTestId('user-menu-title')).toHaveText(new RegExp(newName));

  // A blank username is not sent (and not changed).
  await page.getByLabel('Username').fill('');
  const second = page.waitForRequest((r) => r.url().endsWith('/auth/profile') && r.method() === 'PATCH');
  await page.getByRole('button', { name: 'Update' }).click();
  expect((await second).postDataJSON()).toEqual({ fullname: newName });
  await expect(page.getByLabel('Username')).toHaveValue(user.username);

  await page.goto('/logout');
  // Logging out finishes on the login screen; only then is the session gone.
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByPlaceholder('Username')).toBeVisible();
  await loginViaUi(page, user.username, 'newpassword');
  await expect(page.getByTestId('user-menu-title')).toHaveText(new RegExp(newName));
});

test('a new password follows the registration and reset rules: at least 8 characters', async ({ page, adminApi }) => {
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await loginViaUi(page, user.username, user.password);
  await page.goto('/profile');
  await expect(page.getByLabel('Username')).toHaveValue(user.username);
  // A save that worked, then one the form refuses: the green "User updated" must not stay beside
  // the refusal, or the user believes the short password was saved.
  await page.getByLabel('Full Name').fill('Renamed Person');
  await page.getByRole('button', { name: 'Update' }).click();
  const success = page.getByRole('status').filter({ hasText: 'Success!' });
  await expect(success).toHaveText('Success! User updated');
  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/auth/profile') && r.method() === 'PATCH') patches.push(r.postData() ?? '');
  });
  await page.getByLabel('Password', { exact: true }).fill('abcde');
  await page.getByLabel('Confirm Password').fill('abcde');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Password must be 8 characters or more')).toBeVisible();
  await expect(success).toHaveCount(0);
  await page.getByLabel('Password', { exact: true }).fill('abcd efgh');
  await page.getByLabel('Confirm Password').fill('abcd efgh');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Password can not include whitespace')).toBeVisible();
  expect(patches).toEqual([]);

  // The server holds the same rule for a script.
  const res = await page.request.patch(`${apiPrefix}/auth/profile`, {
    data: { password: 'abcde' },
    headers: { Authorization: `Bearer ${(await page.context().cookies()).find((c) => c.name === 'token')!.value}` },
  });
  expect(res.status()).toBe(400);
  expect(((await res.json()) as { message: string }).message).toBe(
    '"password" length must be at least 8 characters long',
  );
});

test('Show API Token reveals an API token for scripts with a warning for 10 seconds', async ({
  page,
  adminApi,
  request,
}) => {
  const user = await createUser(adminApi);
  await page.clock.install();
  await loginViaUi(page, user.username, user.password);
  await page.goto('/profile');

  const show = page.getByRole('button', { name: 'Show API Token' });
  await expect(show).toBeEnabled();
  // The installed clock follows real time; stop it so the steps below cannot eat into the 10 s.
  await page.clock.pauseAt(Date.now() + 5_000);
  await show.click();
  const shown = page.getByTestId('api-token');
  await expect(shown).toBeVisible();
  // The browser's session token stays in its HttpOnly cookie; the one shown is the user's API
  // token (GET auth/profile/token), which a script sends in the Authorization header.
  const box = shown.getByRole('textbox', { name: 'API Token' });
  await expect(box).toHaveValue(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const token = await box.inputValue();
  const session = (await page.context().cookies()).find((c) => c.name === 'token')!;
  expect(session.httpOnly).toBe(true);
  expect(token).not.toBe(session.value);
  const profile = await request.get(`${apiPrefix}/auth/profile`, { headers: { Authorization: `Bearer ${token}` } });
  expect(profile.status()).toBe(200);
  expect(((await profile.json()) as User).username).toBe(user.username);
  await expect(shown).toContainText('Do not share it');
  await expect(show).toBeDisabled();

  await page.clock.runFor(9_000);
  await expect(shown).toBeVisible();
  await page.clock.runFor(1_100);
  await expect(shown).toBeHidden();
  await expect(show).toBeEnabled();
});
