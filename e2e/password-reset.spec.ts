import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createUser, dataDir } from './support/api';
import { test, expect } from './support/fixtures';

test.use({ storageState: { cookies: [], origins: [] } });

/** The reset link in the newest outbox mail to `email` (no SMTP: the server writes mails there). */
function resetLinkFor(email: string): string | null {
  const outbox = path.join(dataDir(), 'outbox');
  let files: string[];
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith('.txt'));
  } catch {
    return null;
  }
  const mails = files
    .sort()
    .reverse()
    .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
    .filter((text) => text.includes(`To: ${email}`) && text.includes('Password Reset'));
  return mails[0]?.match(/https?:\/\/\S+\/resetPassword\/\S+/)?.[0] ?? null;
}

test('forgot password → the mailed link → a new password → log in with it', async ({ page, adminApi, baseURL }) => {
  const user = await createUser(adminApi, { password: 'oldpassword' });

  await page.goto('/forgotPassword');
  const submit = page.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled(); // invalid while empty
  await page.getByLabel('Email').fill(user.email);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole('status')).toHaveText('Success! password reset email sent');
  await expect(page.getByLabel('Email')).toHaveCount(0); // the form is hidden

  await expect.poll(() => resetLinkFor(user.email)).not.toBeNull();
  const link = resetLinkFor(user.email)!;
  // The server's public URL (BATHYLOG_PUBLIC_URL, set by the e2e server) and the client's root path.
  expect(link.startsWith(`${baseURL}/resetPassword/`)).toBe(true);

  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Password must be 8 characters or more')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('newpassword');
  await page.getByLabel('Confirm Password').fill('newpassword');
  await page.getByLabel('Confirm Password').press('Enter');
  await expect(page.getByRole('status')).toHaveText('Sweet! Password Reset');
  await page.getByRole('button', { name: 'Back to Login' }).click();

  await page.getByPlaceholder('Username').fill(user.username);
  await page.getByPlaceholder('Password').fill('newpassword');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByTestId('user-menu-title')).toHaveText(new RegExp(user.fullname));

  // The link works once.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill('anotherpassword');
  await page.getByLabel('Confirm Password').fill('anotherpassword');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert')).toHaveText('Oops! password reset token is invalid');
});

test('an unknown email gets the answer a known one gets, so no one learns which addresses have accounts', async ({
  page,
}) => {
  await page.goto('/forgotPassword');
  await page.getByLabel('Email').fill('nobody-at-all@example.org');
  await page.getByLabel('Email').press('Enter');
  await expect(page.getByRole('status')).toHaveText('Success! password reset email sent');
});
