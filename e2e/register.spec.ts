import { uniqueName } from './support/api';
import { test, expect } from './support/fixtures';

test.use({ storageState: { cookies: [], origins: [] } });

test('register a new user, go back to login and log in with the new account', async ({ page }) => {
  const username = uniqueName('reg');
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Full Name').fill('Registered Person');
  await page.getByLabel('Email').fill(`${username}@example.org`);
  await page.getByLabel('Password', { exact: true }).fill('goodpassword');
  await page.getByLabel('Confirm Password').fill('goodpassword');
  await page.getByLabel('Confirm Password').press('Enter');

  await expect(page.getByRole('status')).toContainText('Success!');
  await expect(page.getByLabel('Username')).toHaveCount(0); // the panel replaced the form
  await page.getByRole('button', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByPlaceholder('Username').fill(username);
  await page.getByPlaceholder('Password').fill('goodpassword');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByTestId('user-menu-title')).toHaveText(/Registered Person/);
});

test('every registration rule shows its message', async ({ page }) => {
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'User Registration' });
  const submit = page.getByRole('button', { name: 'Register' });
  // Each field's message is its accessible description.
  const field = (label: string, exact = false) => form.getByLabel(label, { exact });
  await submit.click();
  for (const label of ['Username', 'Full Name', 'Email'])
    await expect(field(label)).toHaveAccessibleDescription('Required');
  await expect(field('Password', true)).toHaveAccessibleDescription('Required');

  const cases: Array<[string, string, string, boolean?]> = [
    ['Username', 'abcdefghijklmnop', 'Username must be 15 characters or less'],
    ['Username', 'jane doe', 'Username can not include whitespace'],
    ['Username', 'JaneDoe', 'Username can NOT include uppercase letters'],
    ['Email', 'not-an-address', 'Invalid email address'],
    ['Password', 'short', 'Password must be 8 characters or more', true],
    ['Password', 'has spaces in it', 'Password can not include whitespace', true],
  ];
  for (const [label, value, message, exact] of cases) {
    await page.getByLabel(label, { exact: !!exact }).fill(value);
    await submit.click();
    await expect(field(label, !!exact)).toHaveAccessibleDescription(message);
    await expect(form.getByText(message)).toBeVisible();
  }
  await page.getByLabel('Password', { exact: true }).fill('goodpassword');
  await page.getByLabel('Confirm Password').fill('otherpassword');
  await submit.click();
  await expect(field('Confirm Password')).toHaveAccessibleDescription('Passwords must match');
});

test('a taken username shows the server message, which does not say whether the username or the email is taken', async ({
  page,
}) => {
  await page.goto('/register');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Full Name').fill('Someone');
  await page.getByLabel('Email').fill(`${uniqueName('x')}@example.org`);
  await page.getByLabel('Password', { exact: true }).fill('goodpassword');
  await page.getByLabel('Confirm Password').fill('goodpassword');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText('Oops! Username or email already in use');
});
