import type { Page, Response } from '@playwright/test';
import { emptyListHeader, messages } from '@bathylog/shared';
import { apiLogin, apiPrefix, createLowering, createUser, uniqueName } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { startServer } from './support/server';
import { useSessionOf } from './support/session';

/**
 * No dead ends, no silent loss (docs/screens.md#failed-reads and the screens below): a failed read
 * is not an empty list, an empty list is not a failed request, a changed role is told, a bad
 * review link leads back, every role's home shows somewhere to go, and the management screens and
 * the console follow what others change.
 */

const internalError = { statusCode: 500, error: 'Internal Server Error', message: 'An internal server error occurred' };
const fail500 = (page: Page, pattern: string) =>
  page.route(pattern, (route) =>
    route.request().method() === 'GET' ? route.fulfill({ status: 500, json: internalError }) : route.fallback(),
  );
const nextDay = (days: number) => new Date(Date.UTC(2031, 0, 1) + days * 86_400_000).toISOString();

test.describe('failed and empty reads', () => {
  test('a failed list read says Oops!, a real empty list keeps its words', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/HTTP 500|status of 500|Could not read/);
    await fail500(page, `**${apiPrefix}/cruises`);
    await page.goto('/cruises');
    const cruises = page.getByRole('region', { name: 'Cruises' });
    await expect(cruises.getByRole('alert')).toHaveText(`Oops! ${internalError.message}`);
    await expect(page.getByText('No cruises found!')).toHaveCount(0);

    await page.goto('/cruise_menu');
    await expect(page.getByRole('alert')).toHaveText(`Oops! ${internalError.message}`);
    await expect(page.getByText('No cruises found!')).toHaveCount(0);
    await expectAccessible(page);

    await page.unroute(`**${apiPrefix}/cruises`);
    await page.route(`**${apiPrefix}/cruises`, (route) => route.fulfill({ status: 200, json: [] }));
    await page.goto('/cruises');
    await expect(page.getByText('No cruises found!')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    await fail500(page, `**${apiPrefix}/users`);
    await page.goto('/users');
    await expect(page.getByRole('region', { name: 'Users', exact: true }).getByRole('alert')).toHaveText(
      `Oops! ${internalError.message}`,
    );
    await expect(page.getByText('No users found!')).toHaveCount(0);
  });

  test('an empty list is asked for as 200 [] (no 404 in the console); a stock request keeps the 404', async ({
    page,
    adminApi,
  }) => {
    const cruiseId = uniqueName('EMPTY').toUpperCase();
    const cruise = await adminApi.post<{ insertedId: string }>('cruises', {
      cruise_id: cruiseId,
      start_ts: nextDay(0),
      stop_ts: nextDay(3),
      cruise_location: '',
      cruise_tags: [],
      cruise_hidden: false,
      cruise_additional_meta: { cruise_pi: 'Nobody', cruise_vessel: 'R/V Test' },
    });
    const failed: string[] = [];
    page.on('console', (msg) => {
      if (/Failed to load resource/.test(msg.text())) failed.push(msg.text());
    });
    const listReads: Response[] = [];
    page.on('response', (res) => {
      if (res.url().includes(`lowerings/bycruise/${cruise.insertedId}`)) listReads.push(res);
    });
    await page.goto(`/cruise_menu?cruise=${cruise.insertedId}`);
    await expect(page.getByText('No lowerings found!')).toBeVisible();
    expect(listReads.length).toBeGreaterThan(0);
    for (const res of listReads) {
      expect(res.status()).toBe(200);
      expect(await res.request().headerValue(emptyListHeader)).toBe('200');
    }
    expect(failed).toEqual([]);

    // A stock Sealog client (no header) still gets Sealog's 404.
    const stock = await adminApi.context.get(`${apiPrefix}/lowerings/bycruise/${cruise.insertedId}`, {
      headers: { Authorization: `Bearer ${adminApi.token}` },
    });
    expect(stock.status()).toBe(404);
    expect(((await stock.json()) as { message: string }).message).toBe(messages.noRecords);
    await adminApi.del(`cruises/${cruise.insertedId}`);
  });

  test("an event watcher's console never asks for templates (no 403)", async ({ browser, adminApi }) => {
    const watcher = await createUser(adminApi, { roles: ['event_watcher'] });
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/event_templates')) asked.push(req.url());
    });
    const refused: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 403) refused.push(res.url());
    });
    await useSessionOf(context, watcher.username, watcher.password);
    await page.goto('/');
    await expect(page.getByTestId('event-history')).toBeVisible();
    // Once the roles are known (at a login), no page load asks early for templates either: here
    // the session was planted before the first load, so count from the next one.
    await page.waitForLoadState('networkidle');
    asked.length = 0;
    refused.length = 0;
    await page.reload();
    await expect(page.getByTestId('event-history')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });
});

test.describe('changed roles', () => {
  test('a user whose roles an admin changes is told so at their next click', async ({ browser, adminApi }) => {
    const user = await createUser(adminApi, { roles: ['event_logger'] });
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await useSessionOf(context, user.username, user.password);
    await page.goto('/');
    await expect(page.getByTestId('event-log-screen')).toBeVisible();

    await adminApi.patch(`users/${user.id}`, { roles: ['event_watcher'] });
    // Their next request (a click, or the console's own reads) ends the session with the reason.
    await page
      .getByRole('link', { name: /^Review / })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await expect(page).toHaveURL(/\/login$/);
    // A message, not a failure: no "Oops!".
    await expect(page.getByRole('status')).toHaveText(messages.rolesChanged);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Logging in again gives the new roles.
    await page.getByPlaceholder('Username').fill(user.username);
    await page.getByPlaceholder('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByTestId('event-history')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /new event/i })).toHaveCount(0);
    await context.close();
  });

  test('an admin is warned before removing their own Admin role', async ({ browser, adminApi }) => {
    const self = await createUser(adminApi, { roles: ['admin', 'event_logger'] });
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await useSessionOf(context, self.username, self.password);
    await page.goto('/users');
    await page.getByRole('region', { name: 'Users', exact: true }).getByRole('searchbox').fill(self.username);
    await page.getByTestId(`user-row-${self.username}`).getByRole('button', { name: /^Edit/ }).click();
    await page.getByLabel('Admin', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Update' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove your own Admin role?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect((await adminApi.get<{ roles: string[] }>(`users/${self.id}`)).roles).toContain('admin');

    await page.getByRole('button', { name: 'Update' }).click();
    await dialog.getByRole('button', { name: 'Remove my Admin role' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // A message, not a failure: no "Oops!".
    await expect(page.getByRole('status')).toHaveText(messages.rolesChanged);
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect((await adminApi.get<{ roles: string[] }>(`users/${self.id}`)).roles).toEqual(['event_logger']);
    await context.close();
  });
});

test.describe('review links and homes', () => {
  for (const mode of ['replay', 'map', 'gallery']) {
    test(`a review_${mode} link to a missing lowering: one message and the way back`, async ({ page }) => {
      await page.goto(`/review_${mode}/0123456789abcdef01234567`);
      const missing = page.getByTestId('review-lowering-missing');
      await expect(missing.getByRole('alert')).toContainText('was not found');
      await expect(page.getByRole('alert')).toHaveCount(1);
      await expect(page.getByText('Loading...')).toHaveCount(0);
      await expect(page.getByRole('slider')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Milestones' })).toHaveCount(0);
      await expectAccessible(page);
      await missing.getByRole('link', { name: /Back to the cruise menu/i }).click();
      await expect(page).toHaveURL(/\/cruise_menu$/);
    });
  }

  for (const [role, screen] of [
    ['event_manager', 'Event Management'],
    ['template_manager', 'Event Templates'],
  ] as const) {
    test(`an ${role} opening / sees the header and their screens`, async ({ browser, adminApi }) => {
      const user = await createUser(adminApi, { roles: [role] });
      const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      const page = await context.newPage();
      await useSessionOf(context, user.username, user.password);
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Welcome to Bathylog' })).toBeVisible();
      await expect(page.getByTestId('role-home').getByRole('link')).toHaveText([screen]);
      await expectAccessible(page);
      await page.getByTestId('role-home').getByRole('link', { name: screen }).click();
      await expect(page).toHaveURL(
        new RegExp(screen === 'Event Management' ? '/event_management$' : '/event_templates$'),
      );
      await context.close();
    });
  }

  test('replay shows "No images found" only where a picture was expected', async ({ page, adminApi }) => {
    // A lowering around this one event only: other specs log events on the same server meanwhile.
    const now = Date.now();
    const lowering = await createLowering(adminApi, {
      lowering_id: uniqueName('NOIMG').toUpperCase(),
      start_ts: new Date(now - 1).toISOString(),
      stop_ts: new Date(now + 1).toISOString(),
    });
    const value = `PLAIN_${now.toString(36).toUpperCase()}`;
    await adminApi.post('events', {
      event_value: value,
      event_options: [],
      event_free_text: '',
      ts: new Date(now).toISOString(),
    });
    await page.goto(`/review_replay/${lowering}`);
    await expect(page.getByTestId('review-event-header')).toContainText(value);
    await expect(page.getByTestId('replay-data-cards').getByText('Loading...')).toHaveCount(0);
    await expect(page.getByText('No images found')).toHaveCount(0);
    await adminApi.del(`lowerings/${lowering}`);
  });
});

test.describe('following others live', () => {
  test('event management follows new events without a reload', async ({ page, adminApi }) => {
    await page.goto('/event_management');
    const list = page.getByTestId('filtered-events');
    await expect(list).toBeVisible();
    const value = `MGMT_LIVE_${Date.now().toString(36).toUpperCase()}`;
    await adminApi.post('events', { event_value: value, event_options: [], event_free_text: '' });
    await expect(list.getByText(value)).toBeVisible();
  });

  test('a template change shows on a console without waiting for a refetch', async ({ browser, adminApi }) => {
    const logger = await createUser(adminApi, { roles: ['event_logger'] });
    const name = uniqueName('Tpl');
    const made = await adminApi.post<{ insertedId: string }>('event_templates', {
      event_name: name,
      event_value: name.toUpperCase(),
      event_free_text_required: false,
      system_template: false,
      template_categories: [],
      event_options: [],
    });
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await useSessionOf(context, logger.username, logger.password);
    await page.goto('/');
    const all = page.getByRole('button', { name: /^all$/i });
    const button = page.getByRole('button', { name, exact: true });
    // The category tabs render with the templates: look for "All" only once either is there (a
    // count taken before the page rendered found none, and the template stayed in a category's tab).
    await expect(all.or(button).first()).toBeVisible();
    if (await all.count()) await all.first().click();
    await expect(button).toBeVisible();
    // From now on the template list never answers: only the push itself can change the buttons.
    await page.route(`**${apiPrefix}/event_templates**`, () => undefined);
    // The console subscribes once its page has loaded; a rename sent before that is not heard. Rename
    // again (a new name each time) until a push shows: the refetch never answers, so any new name on
    // a button came by the push.
    let renamed = name;
    let tries = 0;
    await expect(async () => {
      renamed = `${name}x${++tries}`;
      await adminApi.patch(`event_templates/${made.insertedId}`, { event_name: renamed });
      await expect(page.getByRole('button', { name: renamed, exact: true })).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await adminApi.del(`event_templates/${made.insertedId}`);
    await expect(page.getByRole('button', { name: renamed, exact: true })).toHaveCount(0);
    await context.close();
    await adminApi.del(`users/${logger.id}`);
  });

  test('the Users list follows a user another admin creates and deletes', async ({ page }) => {
    const other = await apiLogin('admin', 'demo');
    await page.goto('/users');
    const users = page.getByRole('region', { name: 'Users', exact: true });
    await expect(users).toBeVisible();
    const prefix = uniqueName('lv');
    await users.getByRole('searchbox').fill(prefix);
    await expect(users.getByText('No users found!')).toBeVisible();
    const made = await createUser(other, { username: `${prefix}a`.slice(0, 15) });
    await expect(page.getByTestId(`user-row-${made.username}`)).toBeVisible();
    await other.del(`users/${made.id}`);
    await expect(page.getByTestId(`user-row-${made.username}`)).toHaveCount(0);
    await expect(users.getByText('No users found!')).toBeVisible();
    await other.dispose();
  });
});

test.describe('registration closed', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('no Register link, and the register screen says the account waits for an admin', async ({ page }) => {
    const server = await startServer({ mode: 'production', config: { registration: { disabled: true } } });
    try {
      await page.goto(`${server.url}/login`);
      await expect(page.getByRole('link', { name: 'Forgot Password?' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Register New User' })).toHaveCount(0);

      await page.goto(`${server.url}/register`);
      await expect(page.getByTestId('registration-closed')).toContainText('Self-registration is closed');
      await expectAccessible(page);
      const username = uniqueName('reg');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Full Name').fill('Waiting Person');
      await page.getByLabel('Email').fill(`${username}@example.org`);
      await page.getByLabel('Password', { exact: true }).fill('goodpassword');
      await page.getByLabel('Confirm Password').fill('goodpassword');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByRole('status')).toContainText(
        'Your account is disabled until an administrator enables it',
      );
      await expect(page.getByText('You can now log in with your new account.')).toHaveCount(0);
    } finally {
      await server.stop();
    }
  });
});
