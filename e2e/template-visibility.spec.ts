import type { Page } from '@playwright/test';
import { uniqueName } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import type { LogEvent } from '@bathylog/shared';

/**
 * Sealog 2.4 template features end to end (docs/screens.md#template-form): a button colour and a
 * "show if" option built in the template form, its Test preview, then the template logged from the
 * console.
 */

const option = (page: Page, n: number) =>
  page.getByRole('form', { name: 'Add Event Template' }).getByRole('group', { name: `Option #${n}` });

test('a coloured template with a "show if" option: form, Test preview, console', async ({ page, adminApi }) => {
  test.slow(); // Three screens and two logged events.
  const name = uniqueName('Rock ');
  const value = `ROCK_${Date.now().toString(36).toUpperCase()}`;
  const category = uniqueName('vis');

  await page.goto('/event_templates');
  const form = page.getByRole('form', { name: 'Add Event Template' });
  await form.getByLabel('Button Name').fill(name);
  await form.getByLabel('Event Value').fill(value);
  await form.getByLabel('Template Categories (comma delimited)').fill(category);

  // The colour: a bad hex is refused, a good one previews with a dark label on yellow.
  const color = form.getByPlaceholder('default, or #rrggbb');
  await color.fill('yellow');
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(color).toHaveAccessibleDescription('Must be a button style or a hex colour like #1a2b3c');
  await color.fill('#ffcc00');
  const preview = form.getByTestId('template-button-preview');
  await expect(preview).toHaveText(name);
  await expect(preview).toHaveCSS('background-color', 'rgb(255, 204, 0)');
  await expect(preview).toHaveCSS('color', 'rgb(0, 0, 0)');

  await form.getByRole('button', { name: 'Add Option' }).click();
  await form.getByRole('button', { name: 'Add Option' }).click();
  await option(page, 1).getByLabel('Name').fill('Kind');
  await option(page, 1).getByLabel('Type').selectOption('radio buttons');
  await option(page, 1).getByLabel('Radio Button Options').fill('rock, fish');
  await option(page, 2).getByLabel('Name').fill('Rock type');
  await option(page, 2).getByLabel('Type').selectOption('text');
  await option(page, 2).getByLabel('Required?').check();
  await option(page, 2).getByLabel('Visibility').selectOption('show if');
  // Naming the option itself is not offered: only the other options are.
  await expect(option(page, 2).getByLabel('Option', { exact: true }).locator('option')).toHaveText(['', 'Kind']);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(option(page, 2).getByLabel('Option', { exact: true })).toHaveAccessibleDescription('Required');
  await expect(option(page, 2).getByLabel('Values', { exact: true })).toHaveAccessibleDescription('Required');
  await option(page, 2).getByLabel('Option', { exact: true }).selectOption('Kind');
  await option(page, 2).getByLabel('Values', { exact: true }).fill('rock');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(form.getByRole('status')).toHaveText('Success! Event Template created');

  const stored = (await adminApi.get<Array<Record<string, unknown>>>('event_templates')).find(
    (t) => t.event_name === name,
  );
  expect(stored).toMatchObject({
    event_button_color: '#ffcc00',
    event_options: [
      { event_option_name: 'Kind', event_option_type: 'radio buttons', event_option_values: ['rock', 'fish'] },
      {
        event_option_name: 'Rock type',
        event_option_required: true,
        event_option_visibility: { show_hide: 'show if', event_option_name: 'Kind', event_option_values: ['rock'] },
      },
    ],
  });

  // Test preview: Rock type shows only while Kind is rock.
  await page.getByRole('region', { name: 'Event Templates', exact: true }).getByRole('searchbox').fill(name);
  await page.getByRole('button', { name: `Test template ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: value })).toBeVisible();
  await expect(dialog.getByLabel('Rock type')).toHaveCount(0);
  await dialog.getByLabel('rock', { exact: true }).check();
  await expect(dialog.getByLabel('Rock type')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('fish', { exact: true }).check();
  await expect(dialog.getByLabel('Rock type')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // The console: the button wears the colour; the modal applies the rule live.
  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
  const button = page.getByRole('button', { name, exact: true });
  await expect(button).toHaveCSS('background-color', 'rgb(255, 204, 0)');
  await expect(button).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expectAccessible(page);
  await button.click();
  await expect(dialog.getByLabel('Rock type')).toHaveCount(0);
  await dialog.getByLabel('rock', { exact: true }).check();
  // Shown, it is required.
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Required', { exact: true })).toBeVisible();
  await dialog.getByLabel('Rock type').fill('basalt');
  // Hidden again, its value is cleared and not sent; hidden, it is not required.
  await dialog.getByLabel('fish', { exact: true }).check();
  await expect(dialog.getByLabel('Rock type')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);

  const line = page.getByTestId('event-history-body').getByTestId('event-line').filter({ hasText: value });
  await expect(line).toHaveCount(1);
  await expect(line.getByTestId('event-pending')).toHaveCount(0);
  const id = (await line.getAttribute('data-event-id'))!;
  const event = await adminApi.get<LogEvent>(`events/${id}`);
  expect(event.event_options).toEqual([{ event_option_name: 'kind', event_option_value: 'fish' }]);

  // Again with rock: the shown option is stored.
  await button.click();
  await dialog.getByLabel('rock', { exact: true }).check();
  await dialog.getByLabel('Rock type').fill('granite');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(line).toHaveCount(2);
  await expect(line.filter({ hasText: 'granite' })).toHaveCount(1);
  await expect(line.filter({ hasText: 'granite' }).getByTestId('event-pending')).toHaveCount(0);
  const second = (await line.filter({ hasText: 'granite' }).getAttribute('data-event-id'))!;
  expect((await adminApi.get<LogEvent>(`events/${second}`)).event_options).toEqual([
    { event_option_name: 'kind', event_option_value: 'rock' },
    { event_option_name: 'rock_type', event_option_value: 'granite' },
  ]);
});

test('a Bootstrap variant as the button colour (Sealog 2.4.17): offered by the form, worn on the console', async ({
  page,
  adminApi,
}) => {
  const name = uniqueName('Variant ');
  const value = `VARIANT_${Date.now().toString(36).toUpperCase()}`;
  const category = uniqueName('var');

  await page.goto('/event_templates');
  const form = page.getByRole('form', { name: 'Add Event Template' });
  await form.getByLabel('Button Name').fill(name);
  await form.getByLabel('Event Value').fill(value);
  await form.getByLabel('Template Categories (comma delimited)').fill(category);

  // The style list offers the eight variants beside the default and a custom hex colour.
  const style = form.getByLabel('Button style');
  await expect(style.locator('option')).toHaveText([
    'Default',
    'Primary',
    'Secondary',
    'Success',
    'Danger',
    'Warning',
    'Info',
    'Light',
    'Dark',
    'Custom colour',
  ]);
  await style.selectOption('success');
  await expect(form.getByPlaceholder('default, or #rrggbb')).toHaveValue('success');
  const preview = form.getByTestId('template-button-preview');
  await expect(preview).toHaveClass(/\bbtn-success\b/);
  // Custom colour switches to a hex the picker and the preview show.
  await style.selectOption('custom');
  await expect(form.getByPlaceholder('default, or #rrggbb')).toHaveValue(/^#[0-9a-f]{6}$/);
  await expect(preview).not.toHaveClass(/\bbtn-success\b/);
  await style.selectOption('success');
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(form.getByRole('status')).toHaveText('Success! Event Template created');
  const stored = (await adminApi.get<Array<Record<string, unknown>>>('event_templates')).find(
    (t) => t.event_name === name,
  );
  expect(stored).toMatchObject({ event_button_color: 'success' });

  // The console shows it as Bootstrap's success button.
  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
  const button = page.getByRole('button', { name, exact: true });
  await expect(button).toHaveClass(/\bbtn-success\b/);
  await expect(button).not.toHaveAttribute('style', /background/);
  await expectAccessible(page);
});
