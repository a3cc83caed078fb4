import { createUser, type ApiClient } from './support/api';
import { startServer } from './support/server';
import { systemMenuItems, useSessionOf, userMenuItems } from './support/session';
import { test, expect } from './support/fixtures';

test.use({ storageState: { cookies: [], origins: [] } });

const everyEntry = [
  'Cruises',
  'Event Management',
  'Event Templates',
  'Lowerings',
  'Tasks',
  'Users',
  'Device Keys',
  'Ship to Shore',
  'Taxa',
  'Audit Trail',
  'System',
  'Checklists',
  'Publication',
  'Toggle ASNAP',
];

/** What each role sees in System Management, in order (docs/screens.md#system-management-menu). */
const expected: Record<string, string[]> = {
  admin: everyEntry,
  cruise_manager: ['Cruises', 'Event Management', 'Event Templates', 'Lowerings', 'Users'],
  event_manager: ['Event Management'],
  template_manager: ['Event Templates'],
  event_logger: [],
  event_watcher: [],
};

async function userWithRole(adminApi: ApiClient, role: string) {
  const user = await createUser(adminApi, { roles: [role] });
  return { username: user.username, password: user.password, fullname: user.fullname };
}

for (const [role, items] of Object.entries(expected)) {
  test(`header menus for ${role}`, async ({ page, context, adminApi }) => {
    const user = await userWithRole(adminApi, role);
    await useSessionOf(context, user.username, user.password);
    await page.goto('/');
    await expect(page.getByTestId('user-menu-title')).toHaveText(new RegExp(user.fullname));
    await expect(page.getByRole('link', { name: 'Review Cruises/Lowerings' })).toBeVisible();
    expect(await systemMenuItems(page)).toEqual(items);
    expect(await userMenuItems(page)).toEqual(['User Profile', 'Switch to Guest', 'Log Out']);
  });
}

test('header menus for the guest account', async ({ page, context }) => {
  await useSessionOf(context, 'guest', '');
  await page.goto('/');
  await expect(page.getByTestId('user-menu-title')).toHaveText(/Guest/);
  await expect(page.getByRole('link', { name: 'Review Cruises/Lowerings' })).toBeVisible();
  expect(await systemMenuItems(page)).toEqual([]);
  expect(await userMenuItems(page)).toEqual(['Log Out']);
});

test('every System Management entry opens its screen', async ({ page, context }) => {
  await useSessionOf(context, 'admin', 'demo');
  const routes: Record<string, string> = {
    Cruises: '/cruises',
    'Event Management': '/event_management',
    'Event Templates': '/event_templates',
    Lowerings: '/lowerings',
    Tasks: '/tasks',
    Users: '/users',
    'Device Keys': '/device_keys',
    'Ship to Shore': '/ships',
    Taxa: '/taxa',
    'Audit Trail': '/audit',
    System: '/system',
    Checklists: '/checklists',
    Publication: '/publication_settings',
  };
  await page.goto('/');
  for (const [entry, route] of Object.entries(routes)) {
    await page.getByRole('button', { name: 'System Management' }).click();
    await page.getByRole('link', { name: entry, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${route}$`));
  }
});

test('Switch to Guest logs in as the guest account', async ({ page, context, adminApi }) => {
  const user = await userWithRole(adminApi, 'event_logger');
  await useSessionOf(context, user.username, user.password);
  await page.goto('/profile');
  await page.getByTestId('user-menu-title').click();
  await page.getByRole('button', { name: 'Switch to Guest' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-menu-title')).toHaveText(/Guest/);
});

test('Toggle ASNAP flips the footer state', async ({ page, context, adminApi }) => {
  await useSessionOf(context, 'admin', 'demo');
  const [asnap] = await adminApi.get<Array<{ id: string; custom_var_value: string }>>('custom_vars?name=asnapStatus');
  await page.goto('/');
  const footer = page.getByTestId('footer-asnap');
  await expect(footer).toHaveText(`ASNAP: ${asnap!.custom_var_value}`);
  const flipped = asnap!.custom_var_value === 'On' ? 'Off' : 'On';
  try {
    await page.getByRole('button', { name: 'System Management' }).click();
    await page.getByRole('button', { name: 'Toggle ASNAP' }).click();
    await expect(footer).toHaveText(`ASNAP: ${flipped}`);
    await expect(footer.locator('span')).toHaveClass(flipped === 'On' ? /text-success/ : /text-danger/);
  } finally {
    await adminApi.patch(`custom_vars/${asnap!.id}`, { custom_var_value: asnap!.custom_var_value });
  }
});

test.describe('with event logging disabled and custom names', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  test.beforeAll(async () => {
    server = await startServer({
      mode: 'production',
      config: {
        client: {
          disableEventLogging: true,
          headerTitle: 'Shore Archive',
          customCruiseName: ['expedition', 'expeditions'],
          customLoweringName: ['dive', 'dives'],
        },
      },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('home is the cruise menu; no review link, templates or ASNAP; the configured words', async ({ page }) => {
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('Username').fill('admin');
    await page.getByPlaceholder('Password').fill('demo');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('link', { name: 'Shore Archive' })).toBeVisible();
    await expect(page.getByTestId('user-menu-title')).toHaveText(/Admin/);
    // The cruise menu, in the configured words (no expeditions on a fresh production server).
    await expect(page.getByRole('heading', { name: 'Welcome to Bathylog' })).toBeVisible();
    await expect(page.getByText('No expeditions found!')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Review / })).toHaveCount(0);
    expect(await systemMenuItems(page)).toEqual([
      'Expeditions',
      'Event Management',
      'Dives',
      'Tasks',
      'Users',
      'Device Keys',
      'Ship to Shore',
      'Taxa',
      'Audit Trail',
      'System',
      'Publication',
    ]);
    await expect(page.getByTestId('footer-asnap')).toHaveCount(0);
  });
});
