import { apiLogin } from './support/api';
import { startServer, type StartedServer } from './support/server';
import { test, expect } from './support/fixtures';

/**
 * The live half in a real browser: a script (here: the API, as a Sealog script would) logs an
 * event and switches ASNAP; the open console shows the event and the footer follows, without a
 * reload. The admin's Toggle ASNAP in the header flips it back. A server of its own, because
 * switching ASNAP on makes the built-in ASNAP log events that other specs would see.
 */
test.use({ storageState: { cookies: [], origins: [] } });

const asnapId = '59810167212b348aed7fa9f5';

let server: StartedServer;

test.beforeAll(async () => {
  server = await startServer({ mode: 'production', config: { asnap: { intervalSeconds: 3600 } } });
});

test.afterAll(async () => {
  await server?.stop();
});

test('a new event and the footer status arrive without reloading', async ({ page }) => {
  const script = await apiLogin('admin', 'demo', server.url);
  try {
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('Username').fill('admin');
    await page.getByPlaceholder('Password').fill('demo');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByTestId('user-menu-title')).toContainText('Admin');

    const footerAsnap = page.getByTestId('footer-asnap');
    const freeSpace = page.getByTestId('footer-free-space');
    await expect(footerAsnap).toHaveText('ASNAP: Off');
    await expect(footerAsnap.locator('span')).toHaveClass(/text-danger/);
    // The server measured its disk at start: free bytes shown in SI units, coloured by the used percentage.
    await expect(freeSpace).toHaveText(/^Free Space: \d+(\.\d+)? (B|kB|MB|GB|TB)$/);
    const vars = await script.get<Array<{ custom_var_name: string; custom_var_value: string }>>(
      'custom_vars?name=freeSpacePercentage',
    );
    const used = Number(vars[0]!.custom_var_value);
    const colour = used < 75 ? 'text-success' : used < 90 ? 'text-warning' : 'text-danger';
    await expect(freeSpace.locator('span')).toHaveClass(new RegExp(colour));
    await expect(page.getByTestId('event-log-screen')).toBeVisible();

    let loads = 0;
    page.on('load', () => loads++);

    // Someone else logs an event: it appears in the open console.
    const value = `LIVE_${Date.now().toString(36).toUpperCase()}`;
    await script.post('events', { event_value: value, event_free_text: 'pushed over the websocket' });
    await expect(page.getByTestId('event-log-screen').getByText(value).first()).toBeVisible();

    // A script switches ASNAP on: the footer follows from the push.
    await script.patch(`custom_vars/${asnapId}`, { custom_var_value: 'On' });
    await expect(footerAsnap).toHaveText('ASNAP: On');
    await expect(footerAsnap.locator('span')).toHaveClass(/text-success/);

    // The admin switches it off from the header.
    await page.getByRole('button', { name: 'System Management' }).click();
    await page.getByRole('button', { name: 'Toggle ASNAP' }).click();
    await expect(footerAsnap).toHaveText('ASNAP: Off');
    const stored = await script.get<Array<{ custom_var_value: string }>>('custom_vars?name=asnapStatus');
    expect(stored[0]!.custom_var_value).toBe('Off');

    expect(loads).toBe(0);
  } finally {
    await script.dispose();
  }
});
