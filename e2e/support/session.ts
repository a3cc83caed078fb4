import type { BrowserContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { apiLogin, dataDir, serverUrl, type ApiClient } from './api';

/** Logs in through the login screen and waits for the header's user menu. */
export async function loginViaUi(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByPlaceholder('Username').fill(username);
  await page.getByPlaceholder('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByTestId('user-menu-title')).not.toHaveText('');
}

/** Gives a browser context the session cookies of a user (logged in through the API): fast setup. */
export async function useSessionOf(context: BrowserContext, username: string, password: string): Promise<void> {
  const client = await apiLogin(username, password);
  await client.dispose();
  await sessionOn(context, serverUrl(), client);
}

/** Gives a browser context the session cookies of an API client, for the server at `url`. */
export async function sessionOn(
  context: BrowserContext,
  url: string,
  client: Pick<ApiClient, 'token' | 'userId'>,
): Promise<void> {
  await context.clearCookies();
  await context.addCookies([
    { name: 'token', value: client.token, url },
    { name: 'id', value: client.userId, url },
  ]);
}

/** The user dropdown's entries, in order. */
export async function userMenuItems(page: Page): Promise<string[]> {
  await page.getByTestId('user-menu-title').click();
  const menu = page.locator('[aria-labelledby="user-menu"]');
  await expect(menu).toBeVisible();
  const items = await menu.locator('.dropdown-item').allInnerTexts();
  await page.keyboard.press('Escape');
  return items.map((s) => s.trim());
}

/** The System Management dropdown's entries, in order ([] when the menu is absent). */
export async function systemMenuItems(page: Page): Promise<string[]> {
  const toggle = page.getByRole('button', { name: 'System Management' });
  if ((await toggle.count()) === 0) return [];
  await toggle.click();
  const menu = page.locator('[aria-labelledby="system-management-menu"]');
  await expect(menu).toBeVisible();
  const items = await menu.locator('.dropdown-item').allInnerTexts();
  await page.keyboard.press('Escape');
  return items.map((s) => s.trim());
}

/**
 * The same session as `token` but expired a minute ago, signed with the test server's own secret
 * (kept in its data folder): what a browser holds when its session ran out while it was away.
 */
export async function expiredSessionOf(token: string): Promise<string> {
  const secret = (await readFile(path.join(dataDir(), 'secret'), 'utf8')).trim();
  const { id, scope, roles } = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ id, scope, roles })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 120)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(secret));
}
