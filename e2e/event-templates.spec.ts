import { readFileSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { apiLogin, createUser, uniqueName, type ApiClient } from './support/api';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';
import { sessionOn, useSessionOf } from './support/session';
import type { EventTemplate } from '@bathylog/shared';

/** Event template administration (/event_templates, docs/screens.md#event-templates). */

const systemTable = (page: Page) => page.getByRole('region', { name: 'System Event Templates' });
const regularTable = (page: Page) => page.getByRole('region', { name: 'Event Templates', exact: true });
const option = (form: Locator, n: number) => form.getByRole('group', { name: `Option #${n}` });

/** A 24-hex id no record has yet. */
const freshObjectId = () =>
  (Date.now().toString(16) + Math.random().toString(16).slice(2) + '000000000000').slice(0, 24);

async function templatesNamed(api: ApiClient, name: string): Promise<EventTemplate[]> {
  return (await api.get<EventTemplate[]>('event_templates')).filter((t) => t.event_name === name);
}

async function createTemplate(api: ApiClient, overrides: Partial<EventTemplate> = {}) {
  const body = {
    event_name: uniqueName('T'),
    event_value: 'TESTVALUE',
    event_free_text_required: false,
    system_template: false,
    template_categories: [],
    event_options: [],
    ...overrides,
  };
  const res = await api.post<{ insertedId: string }>('event_templates', body);
  return { ...body, id: res.insertedId };
}

test.describe('event templates as admin', () => {
  test('every validation message, then a template with each option type', async ({ page, adminApi }) => {
    await page.goto('/event_templates');
    const form = page.getByRole('form', { name: 'Add Event Template' });
    await expect(page.getByRole('button', { name: 'Add Event Template' })).toBeDisabled();
    const add = form.getByRole('button', { name: 'Add', exact: true });

    await add.click();
    await expect(form.getByLabel('Button Name')).toHaveAccessibleDescription('Required');
    await expect(form.getByLabel('Event Value')).toHaveAccessibleDescription('Required');

    await form.getByLabel('Button Name').fill('x'.repeat(33));
    await form.getByLabel('Template Categories (comma delimited)').fill('Biology,,Geology');
    await expect(form.getByText('Must be 32 characters or less')).toBeVisible();
    await expect(form.getByText('Invalid csv list')).toBeVisible();

    // Five empty options: name and type are required.
    for (let i = 0; i < 5; i++) await form.getByRole('button', { name: 'Add Option' }).click();
    await add.click();
    await expect(option(form, 1).getByText('Required')).toHaveCount(2);

    const name = uniqueName('Every Type ');
    await form.getByLabel('Button Name').fill(name);
    await form.getByLabel('Event Value').fill('EVERYTYPE');
    await form.getByLabel('Template Categories (comma delimited)').fill(' Biology , GEOLOGY ');

    // 1: static text needs a value.
    await option(form, 1).getByLabel('Name').fill('Kind');
    await option(form, 1).getByLabel('Type').selectOption('static text');
    // 2: text; its name clashes with option 1 ignoring case.
    await option(form, 2).getByLabel('Name').fill('KIND');
    await option(form, 2).getByLabel('Type').selectOption('text');
    // 3: dropdown without values.
    await option(form, 3).getByLabel('Name').fill('Sampler');
    await option(form, 3).getByLabel('Type').selectOption('dropdown');
    // 4: checkboxes with a default outside the list.
    await option(form, 4).getByLabel('Name').fill('Gear');
    await option(form, 4).getByLabel('Type').selectOption('checkboxes');
    await option(form, 4).getByLabel('Checkbox Options').fill('net, trap ,core');
    await option(form, 4).getByLabel('Default Selection(s)').fill('net,sled');
    // 5: radio buttons with a default outside the list.
    await option(form, 5).getByLabel('Name').fill('Visibility');
    await option(form, 5).getByLabel('Type').selectOption('radio buttons');
    await option(form, 5).getByLabel('Radio Button Options').fill('good,poor');
    await option(form, 5).getByLabel('Default Selection').fill('fair');
    await add.click();

    await expect(option(form, 1).getByLabel('Value')).toHaveAccessibleDescription('Required');
    await expect(option(form, 2).getByLabel('Name')).toHaveAccessibleDescription('Option name must be unique');
    await expect(option(form, 3).getByLabel('Dropdown Options')).toHaveAccessibleDescription('Required');
    await expect(option(form, 4).getByLabel('Default Selection(s)')).toHaveAccessibleDescription(
      'Value(s) is/are not in options list',
    );
    await expect(option(form, 5).getByLabel('Default Selection')).toHaveAccessibleDescription(
      'Value is not in options list',
    );
    await expect(page.getByRole('status').filter({ hasText: 'Event Template created' })).toHaveCount(0);

    await option(form, 1).getByLabel('Value').fill('Fish');
    await option(form, 2).getByLabel('Name').fill('Count');
    await option(form, 2).getByLabel('Default Value').fill('1');
    await option(form, 3).getByLabel('Dropdown Options').fill('CTD rosette, Niskin');
    await option(form, 3).getByLabel('Default Selection').fill('Niskin');
    await option(form, 3).getByLabel('Required?').check();
    await option(form, 4).getByLabel('Default Selection(s)').fill('net, core');
    await option(form, 5).getByLabel('Default Selection').fill('good');
    await option(form, 5).getByLabel('Required?').check();
    await form.getByLabel('Free text Required?').check();
    await add.click();
    await expect(form.getByRole('status')).toHaveText('Success! Event Template created');
    await expect(form.getByLabel('Button Name')).toHaveValue('');

    const [stored] = await templatesNamed(adminApi, name);
    expect(stored).toMatchObject({
      event_value: 'EVERYTYPE',
      template_categories: ['biology', 'geology'],
      event_free_text_required: true,
      system_template: false,
      admin_only: false,
    });
    expect(stored!.event_options).toEqual([
      expect.objectContaining({
        event_option_name: 'Kind',
        event_option_type: 'static text',
        event_option_default_value: 'Fish',
      }),
      expect.objectContaining({
        event_option_name: 'Count',
        event_option_type: 'text',
        event_option_default_value: '1',
      }),
      expect.objectContaining({
        event_option_name: 'Sampler',
        event_option_type: 'dropdown',
        event_option_values: ['CTD rosette', 'Niskin'],
        event_option_default_value: 'Niskin',
        event_option_required: true,
      }),
      expect.objectContaining({
        event_option_name: 'Gear',
        event_option_type: 'checkboxes',
        event_option_values: ['net', 'trap', 'core'],
        event_option_default_value: 'net,core',
      }),
      expect.objectContaining({
        event_option_name: 'Visibility',
        event_option_type: 'radio buttons',
        event_option_values: ['good', 'poor'],
        event_option_default_value: 'good',
        event_option_required: true,
      }),
    ]);

    // Test shows the options modal and writes nothing.
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() !== 'GET') posts.push(`${req.method()} ${req.url()}`);
    });
    await regularTable(page).getByRole('searchbox').fill(name);
    await page.getByRole('button', { name: `Test template ${name}` }).click();
    const modal = page.getByRole('dialog', { name: 'EVERYTYPE' });
    await expect(modal.getByLabel('Kind')).toHaveValue('Fish');
    await expect(modal.getByLabel('Kind')).toBeDisabled();
    await expect(modal.getByLabel('Count')).toHaveValue('1');
    await expect(modal.getByLabel('Sampler')).toHaveValue('Niskin');
    await expect(modal.getByRole('group', { name: 'Gear' }).getByLabel('net')).toBeChecked();
    await expect(modal.getByRole('group', { name: 'Gear' }).getByLabel('trap')).not.toBeChecked();
    await expect(modal.getByRole('group', { name: 'Visibility' }).getByLabel('good')).toBeChecked();
    await expect(modal.getByLabel('Additional Text')).toBeVisible();
    await expect(modal.getByLabel('Custom Time (UTC)')).toHaveValue(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await expect(modal.getByRole('button', { name: 'Submit' })).toHaveCount(0);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();
    expect(posts).toEqual([]);
  });

  test('options are reordered and removed; admin only needs a system template', async ({ page, adminApi }) => {
    await page.goto('/event_templates');
    const form = page.getByRole('form', { name: 'Add Event Template' });
    const name = uniqueName('Order ');
    await form.getByLabel('Button Name').fill(name);
    await form.getByLabel('Event Value').fill('ORDER');
    for (const n of ['first', 'second', 'third']) {
      await form.getByRole('button', { name: 'Add Option' }).click();
      const count = await form.getByRole('group', { name: /^Option #/ }).count();
      await option(form, count).getByLabel('Name').fill(n);
      await option(form, count).getByLabel('Type').selectOption('text');
    }
    await expect(form.getByRole('button', { name: 'Move option #1 up' })).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Move option #3 down' })).toBeDisabled();
    await form.getByRole('button', { name: 'Move option #3 up' }).click();
    await expect(option(form, 2).getByLabel('Name')).toHaveValue('third');
    await form.getByRole('button', { name: 'Remove option #1' }).click();
    await expect(option(form, 1).getByLabel('Name')).toHaveValue('third');
    await expect(form.getByRole('group', { name: /^Option #/ })).toHaveCount(2);

    // "Only available to admins" shows only for system templates, and is dropped when system is off.
    await expect(form.getByLabel('Only available to admins')).toHaveCount(0);
    await form.getByLabel('System template').check();
    await form.getByLabel('Only available to admins').check();
    await form.getByLabel('System template').uncheck();
    await expect(form.getByLabel('Only available to admins')).toHaveCount(0);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(form.getByRole('status')).toHaveText('Success! Event Template created');

    const [stored] = await templatesNamed(adminApi, name);
    expect(stored!.event_options.map((o) => o.event_option_name)).toEqual(['third', 'second']);
    expect(stored!.admin_only).toBe(false);
    expect(stored!.system_template).toBe(false);
  });

  test('edit, disable (struck through), update, delete', async ({ page, adminApi }) => {
    const t = await createTemplate(adminApi, { event_name: uniqueName('Edit Me ') });
    await page.goto('/event_templates');
    await regularTable(page).getByRole('searchbox').fill(t.event_name);
    await page.getByRole('button', { name: `Edit template ${t.event_name}` }).click();
    const form = page.getByRole('form', { name: 'Update Event Template' });
    await expect(form.getByLabel('Button Name')).toHaveValue(t.event_name);
    await form.getByLabel('Event Value').fill('CHANGED');
    await form.getByLabel('Disable template').check();
    await form.getByLabel('Event Value').press('Enter');
    await expect(form.getByRole('status')).toHaveText('Success! Event Template updated');
    const row = page.getByTestId(`template-row-${t.id}`);
    await expect(row).toContainText('CHANGED');
    await expect(row.locator('td').first()).toHaveClass(/text-strike/);
    const [stored] = await templatesNamed(adminApi, t.event_name);
    expect(stored).toMatchObject({ event_value: 'CHANGED', disabled: true });

    await page.getByRole('button', { name: `Delete template ${t.event_name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete this event template?');
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByRole('form', { name: 'Add Event Template' })).toBeVisible();
    await expect(regularTable(page).getByText('No event templates found!')).toBeVisible();
    expect(await templatesNamed(adminApi, t.event_name)).toEqual([]);
  });

  test('import: an existing template is skipped, a new one imported, a bad one logged', async ({
    page,
    adminApi,
  }, testInfo) => {
    const existing = await createTemplate(adminApi);
    const fresh = uniqueName('Imported ');
    const badId = freshObjectId();
    const records = [
      { ...existing, event_name: 'would be a duplicate' },
      {
        id: freshObjectId(),
        event_name: fresh,
        event_value: 'IMPORTED',
        event_free_text_required: false,
        event_options: [
          {
            event_option_name: 'Status',
            event_option_type: 'dropdown',
            event_option_values: ['up', 'down'],
            event_option_allow_freeform: false,
            event_option_required: true,
          },
        ],
        system_template: false,
        template_categories: ['imported'],
        disabled: false,
        admin_only: false,
      },
      {
        id: badId,
        event_name: 'Bad',
        event_value: 'BAD',
        event_free_text_required: false,
        system_template: false,
        event_options: [
          {
            event_option_name: 'x',
            event_option_type: 'slider',
            event_option_values: [],
            event_option_allow_freeform: false,
            event_option_required: false,
          },
        ],
      },
    ];
    const file = testInfo.outputPath('templates.json');
    writeFileSync(file, JSON.stringify(records));

    await page.goto('/event_templates');
    await page.getByRole('button', { name: 'Import From File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Event Templates' });
    await dialog.getByTestId('import-file-input').setInputFiles(file);
    await expect(dialog.getByTestId('import-pending')).toHaveText('Complete');
    await expect(dialog.getByTestId('import-imported')).toHaveText('1');
    await expect(dialog.getByTestId('import-skipped')).toHaveText('1');
    await expect(dialog.getByTestId('import-errors')).toHaveText('1');
    await expect(dialog.getByTestId('import-log')).toContainText(`${badId}:`);
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await regularTable(page).getByRole('searchbox').fill(fresh);
    await expect(regularTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(regularTable(page)).toContainText('IMPORTED');
    expect(await templatesNamed(adminApi, 'would be a duplicate')).toEqual([]);
  });

  test('search matches name, value and categories; the system table pages by 8', async ({ page, adminApi }) => {
    const tag = uniqueName('cat');
    const a = await createTemplate(adminApi, { event_name: uniqueName('Alpha '), template_categories: [tag] });
    const b = await createTemplate(adminApi, { event_name: uniqueName('Beta '), event_value: tag.toUpperCase() });
    await page.goto('/event_templates');
    await expect(systemTable(page).locator('tbody tr')).toHaveCount(8);
    await expect(systemTable(page).getByRole('navigation', { name: 'System Event Templates pages' })).toBeVisible();
    await regularTable(page).getByRole('searchbox').fill(tag.toUpperCase());
    await expect(regularTable(page).locator('tbody tr')).toHaveCount(2);
    await expect(page.getByTestId(`template-row-${a.id}`)).toBeVisible();
    await expect(page.getByTestId(`template-row-${b.id}`)).toBeVisible();
    await regularTable(page).getByRole('searchbox').fill(a.event_name.toLowerCase());
    await expect(regularTable(page).locator('tbody tr')).toHaveCount(1);

    // Export saves the whole regular list (not only the matches) as the import file format.
    const download = page.waitForEvent('download');
    await regularTable(page).getByRole('button', { name: 'Export Event Templates as JSON' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('sealog_eventTemplateExport.json');
    const exported = JSON.parse(readFileSync(await file.path(), 'utf8')) as EventTemplate[];
    expect(exported.map((t) => t.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(exported.some((t) => t.system_template)).toBe(false);
  });
});

test.describe('event templates for other roles', () => {
  test('a template manager edits regular templates only, without the admin switches or import', async ({
    page,
    context,
    adminApi,
  }) => {
    const manager = await createUser(adminApi, { roles: ['template_manager'], password: 'password1' });
    await useSessionOf(context, manager.username, 'password1');
    await page.goto('/event_templates');
    await expect(systemTable(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import From File' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete all non-system event templates' })).toHaveCount(0);

    // System rows: test only.
    const firstSystemRow = systemTable(page).locator('tbody tr').first();
    await expect(firstSystemRow.getByRole('button')).toHaveCount(1);
    await expect(firstSystemRow.getByRole('button', { name: /^Test template/ })).toBeVisible();

    const form = page.getByRole('form', { name: 'Add Event Template' });
    await expect(form.getByLabel('System template')).toHaveCount(0);
    await expect(form.getByLabel('Disable template')).toHaveCount(0);
    const name = uniqueName('By Manager ');
    await form.getByLabel('Button Name').fill(name);
    await form.getByLabel('Event Value').fill('MANAGED');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(form.getByRole('status')).toHaveText('Success! Event Template created');
    expect(await templatesNamed(adminApi, name)).toHaveLength(1);
  });

  test('an event logger is told off', async ({ page, context, adminApi }) => {
    const logger = await createUser(adminApi, { roles: ['event_logger'], password: 'password1' });
    await useSessionOf(context, logger.username, 'password1');
    await page.goto('/event_templates');
    await expect(page.getByText('What are YOU doing here?')).toBeVisible();
  });
});

test.describe('event templates on a server of their own', () => {
  let server: StartedServer;
  let admin: ApiClient;

  test.beforeAll(async () => {
    server = await startServer({ mode: 'production' });
    admin = await apiLogin('admin', 'demo', server.url);
  });

  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
  });

  test('empty states, then delete all non-system templates keeps the system ones', async ({ page, context }) => {
    await sessionOn(context, server.url, admin);
    await page.goto(`${server.url}/event_templates`);
    await expect(systemTable(page).getByText('No Event Templates found')).toBeVisible();
    await expect(regularTable(page).getByText('No event templates found!')).toBeVisible();

    const system = await createTemplate(admin, { event_name: 'Keep Me', system_template: true });
    await createTemplate(admin, { event_name: 'Doomed One' });
    await createTemplate(admin, { event_name: 'Doomed Two' });
    await page.reload();
    await expect(regularTable(page).locator('tbody tr')).toHaveCount(2);
    await regularTable(page).getByRole('button', { name: 'Delete all non-system event templates' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText('Are you sure you want to delete all non-system event templates?');
    await confirm.getByRole('button', { name: 'Yup!' }).click();
    await expect(regularTable(page).getByText('No event templates found!')).toBeVisible();
    await expect(page.getByTestId(`template-row-${system.id}`)).toBeVisible();
    const left = await admin.get<EventTemplate[]>('event_templates');
    expect(left.map((t) => t.event_name)).toEqual(['Keep Me']);
  });
});
