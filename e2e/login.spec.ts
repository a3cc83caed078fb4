import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { startEmbedder } from './support/embedder';
import { createUser, uniqueName } from './support/api';
import { loginViaUi, userMenuItems } from './support/session';
import { test, expect } from './support/fixtures';

test.describe('login and logout', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('logs in with the email address in the "Username or email" field', async ({ page }) => {
    await page.goto('/login');
    const field = page.getByPlaceholder('Username or email', { exact: true });
    await expect(field).toBeVisible();
    await expectAccessible(page);
    await field.fill('Admin@NotARealServer.com');
    await page.getByPlaceholder('Password').fill('demo');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
  });

  test('admin logs in, sees the header with the configured title, logs out', async ({ page, request }) => {
    const settings = (await (await request.get('/sealog-server/client_settings')).json()) as { headerTitle: string };

    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByPlaceholder('Username').fill('Admin'); // lower-cased before sending
    await page.getByPlaceholder('Password').fill('demo');
    const sent = page.waitForRequest((r) => r.url().endsWith('/auth/login'));
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    // Without a captcha site key the captcha field is null.
    expect((await sent).postDataJSON()).toEqual({ username: 'admin', password: 'demo', reCaptcha: null });

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

  test('the login screen shows the configured text and both links', async ({ page, request }) => {
    const settings = (await (await request.get('/sealog-server/client_settings')).json()) as {
      loginScreenText: string;
    };
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();
    await expect(page.getByTestId('login-text')).toHaveText(settings.loginScreenText);
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL(/\/forgotPassword$/);
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await page.getByRole('link', { name: 'Register New User' }).click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('empty fields show Required; Enter submits the form', async ({ page }) => {
    await page.goto('/login');
    await page.getByPlaceholder('Username').press('Enter');
    await expect(page.getByText('Required')).toHaveCount(2);
    await page.getByPlaceholder('Username').fill('admin');
    await page.getByPlaceholder('Password').fill('demo');
    await page.getByPlaceholder('Password').press('Enter');
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
  });

  test('a wrong password shows the server message', async ({ page }) => {
    await page.goto('/login');
    await page.getByPlaceholder('Username').fill('admin');
    await page.getByPlaceholder('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Oops! unknown user or bad password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a disabled account shows the server message', async ({ page, adminApi }) => {
    const user = await createUser(adminApi);
    await adminApi.patch(`users/${user.id}`, { disabled: true });
    await page.goto('/login');
    await page.getByPlaceholder('Username').fill(user.username);
    await page.getByPlaceholder('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Oops! account is disabled');
  });

  test('an unreachable server shows "Unable to connect to server"', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/ERR_CONNECTION_REFUSED/); // the refused request itself is logged by Chromium
    await page.goto('/login');
    await page.route('**/sealog-server/api/v1/auth/login', (route) => route.abort('connectionrefused'));
    await page.getByPlaceholder('Username').fill('admin');
    await page.getByPlaceholder('Password').fill('demo');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Oops! Unable to connect to server');
  });

  test('Login as Guest logs in as the guest account, without profile or switch entries', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login as Guest' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Guest/);
    expect(await userMenuItems(page)).toEqual(['Log Out']);
  });

  test('an authenticated user opening /login is sent home', async ({ page }) => {
    await loginViaUi(page, 'admin', 'demo');
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
  });

  test('a token the server no longer accepts logs the user out on the next protected screen', async ({
    page,
    adminApi,
    consoleErrors,
  }) => {
    // The live connection may try the stale token before the screen does, and logs that
    // (docs/screens.md#failed-reads).
    consoleErrors.allow(/Problem connecting to websocket subscriptions: Invalid credentials/);
    const user = await createUser(adminApi, { roles: ['event_logger'] });
    await loginViaUi(page, user.username, user.password);
    // A role change invalidates the old token (docs/wire.md#checks-on-every-request).
    await adminApi.patch(`users/${user.id}`, { roles: ['event_watcher'] });
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();
  });
});

test.describe('auto-login from an embedding frame (login-with-token)', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  const configuredOrigin = () => process.env.BATHYLOG_E2E_EMBEDDER!;

  async function embed(page: Page, embedderOrigin: string, target: string) {
    await page.goto(`${embedderOrigin}/embed.html?target=${encodeURIComponent(`${target}/login`)}`);
    const frame = page.frameLocator('#app');
    await expect(frame.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();
    return frame;
  }

  async function post(page: Page, loginToken: string) {
    await page.evaluate((token) => {
      const frame = document.getElementById('app') as HTMLIFrameElement;
      frame.contentWindow!.postMessage({ event: 'login-with-token', loginToken: token }, '*');
    }, loginToken);
  }

  test('logs in with the posted loginToken from a configured origin', async ({ page, adminApi, baseURL }) => {
    const user = await createUser(adminApi, { fullname: `Kiosk ${uniqueName('k')}` });
    const { loginToken } = await adminApi.get<{ loginToken: string }>(`users/${user.id}/loginToken`);
    const frame = await embed(page, configuredOrigin(), baseURL!);
    await post(page, loginToken);
    await expect(frame.getByTestId('user-menu-title')).toHaveText(new RegExp(user.fullname));
  });

  test('an origin that is not configured can neither frame the client nor log it in', async ({
    page,
    adminApi,
    baseURL,
    consoleErrors,
  }) => {
    const user = await createUser(adminApi);
    const { loginToken } = await adminApi.get<{ loginToken: string }>(`users/${user.id}/loginToken`);
    const other = await startEmbedder(); // a local origin the server was not configured with
    // Chromium reports the refused frame (Content-Security-Policy frame-ancestors) on the console.
    consoleErrors.allow(/frame-ancestors/);
    try {
      const refused = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
      await page.goto(other.pageFor(`${baseURL}/login`));
      await refused;
      await expect(page.frameLocator('#app').getByRole('heading', { name: 'Please Sign In' })).toHaveCount(0);

      // A window it opens gets the message, and ignores it.
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        page.evaluate((url) => {
          (window as unknown as { app: Window | null }).app = window.open(url, 'app');
        }, `${baseURL}/login`),
      ]);
      await expect(popup.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();
      let loginCalls = 0;
      popup.on('request', (req) => {
        if (req.url().endsWith('/auth/login')) loginCalls += 1;
      });
      await page.evaluate((token) => {
        (window as unknown as { app: Window }).app.postMessage({ event: 'login-with-token', loginToken: token }, '*');
      }, loginToken);
      // The same message from the configured origin logs in at once (test above). Let the window
      // handle its pending messages (a round trip through its event loop), then nothing has changed.
      await popup.getByPlaceholder('Username').fill('still here');
      await expect(popup.getByPlaceholder('Username')).toHaveValue('still here');
      await expect(popup.getByRole('heading', { name: 'Please Sign In' })).toBeVisible();
      expect(loginCalls).toBe(0);
    } finally {
      await other.stop();
    }
  });

  test('a bad loginToken shows the server message', async ({ page, baseURL }) => {
    const frame = await embed(page, configuredOrigin(), baseURL!);
    await post(page, 'A'.repeat(20));
    await expect(frame.getByRole('alert')).toHaveText('Oops! bad loginToken');
  });
});
