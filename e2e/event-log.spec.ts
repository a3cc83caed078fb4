import type { BrowserContext, Locator, Page } from '@playwright/test';
import { createUser, uniqueName, type ApiClient } from './support/api';
import { useSessionOf } from './support/session';
import { test, expect } from './support/fixtures';
import type { EventOptionType, LogEvent } from '@bathylog/shared';

/**
 * The event logging console (docs/screens.md#event-logging-console) against the real
 * demo server. Each test makes its own templates (in a category of their own) and users; events
 * are looked up by the unique texts the test gave them.
 */

test.use({ storageState: { cookies: [], origins: [] } });

let counter = 0;
/** Texts unique across the run (uniqueName keeps only 15 characters). */
function uniqueText(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

function option(
  name: string,
  type: EventOptionType,
  extra: { values?: string[]; default?: string; required?: boolean } = {},
) {
  return {
    event_option_name: name,
    event_option_type: type,
    event_option_values: extra.values ?? [],
    event_option_default_value: extra.default ?? '',
    event_option_allow_freeform: false,
    event_option_required: extra.required ?? false,
  };
}

interface Made {
  id: string;
  name: string;
  value: string;
  category: string;
}

/** A template in a category of its own, so the test finds its button in one tab. */
async function makeTemplate(
  adminApi: ApiClient,
  body: { event_options?: ReturnType<typeof option>[]; event_free_text_required?: boolean },
  category = uniqueName('cat'),
): Promise<Made> {
  const value = uniqueText('VAL').toUpperCase();
  const name = uniqueName('Btn ');
  const res = await adminApi.post<{ insertedId: string }>('event_templates', {
    event_name: name,
    event_value: value,
    event_free_text_required: body.event_free_text_required ?? false,
    system_template: false,
    template_categories: [category],
    event_options: body.event_options ?? [],
  });
  return { id: res.insertedId, name, value, category };
}

async function loggerSession(adminApi: ApiClient, context: BrowserContext, roles = ['event_logger']) {
  const user = await createUser(adminApi, { roles });
  await useSessionOf(context, user.username, user.password);
  return user;
}

async function openConsole(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
}

function history(page: Page): Locator {
  return page.getByTestId('event-history-body');
}

function line(page: Page, text: string | RegExp): Locator {
  return history(page).getByTestId('event-line').filter({ hasText: text });
}

async function pressTemplate(page: Page, t: Made, modifiers?: Array<'Shift'>) {
  await page.getByRole('button', { name: new RegExp(`^${t.category}$`, 'i') }).click();
  await page.getByRole('button', { name: t.name, exact: true }).click({ modifiers });
}

/** The id of the (single) line matching `text`, once it is on the server (not pending). */
async function confirmedId(page: Page, text: string | RegExp): Promise<string> {
  const l = line(page, text);
  await expect(l).toHaveCount(1);
  await expect(l.getByTestId('event-pending')).toHaveCount(0);
  return (await l.getAttribute('data-event-id'))!;
}

test.describe('event logging console', () => {
  test('a template without options logs in one click; one with only static text stores its value', async ({
    page,
    context,
    adminApi,
  }) => {
    const bare = await makeTemplate(adminApi, {});
    const milestone = await makeTemplate(
      adminApi,
      { event_options: [option('Milestone', 'static text', { default: 'Off Deck' })] },
      bare.category,
    );
    const user = await loggerSession(adminApi, context);
    await openConsole(page);

    await pressTemplate(page, bare);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const bareId = await confirmedId(page, bare.value);

    await page.getByRole('button', { name: milestone.name, exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(line(page, milestone.value)).toContainText('milestone: "Off Deck"');
    const milestoneId = await confirmedId(page, milestone.value);

    const stored = await adminApi.get<LogEvent>(`events/${milestoneId}`);
    expect(stored).toMatchObject({
      event_value: milestone.value,
      event_author: user.username,
      event_free_text: '',
      event_options: [{ event_option_name: 'milestone', event_option_value: 'Off Deck' }],
    });
    expect((await adminApi.get<LogEvent>(`events/${bareId}`)).event_options).toEqual([]);
    // The newest-event card follows.
    await expect(page.getByTestId('newest-event-card')).toContainText(milestone.value);
  });

  test('required free text opens the options modal on a created event; Submit updates it', async ({
    page,
    context,
    adminApi,
  }) => {
    const t = await makeTemplate(adminApi, {
      event_free_text_required: true,
      event_options: [option('System', 'static text', { default: 'ROV' })],
    });
    await loggerSession(adminApi, context);
    await openConsole(page);

    await pressTemplate(page, t);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: t.value })).toBeVisible();
    // The bare event exists at once, for everyone.
    const id = await confirmedId(page, t.value);
    await expect(dialog.getByLabel('System')).toBeDisabled();
    await expect(dialog.getByLabel('System')).toHaveValue('ROV');

    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Required', { exact: true })).toBeVisible();
    await dialog.getByLabel('Additional Text').fill('thruster 3 is noisy');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);

    await expect(line(page, t.value)).toContainText('free_text: "thruster 3 is noisy"');
    await expect(line(page, t.value)).toContainText('system: "ROV"');
    // The line shows the update as soon as it is sent; the stored event follows its answer.
    await expect
      .poll(async () => {
        const stored = await adminApi.get<LogEvent>(`events/${id}`);
        return { text: stored.event_free_text, options: stored.event_options };
      })
      .toEqual({
        text: 'thruster 3 is noisy',
        options: [{ event_option_name: 'system', event_option_value: 'ROV' }],
      });
  });

  test('every option type: required rules, their messages, and what is stored', async ({ page, context, adminApi }) => {
    const t = await makeTemplate(adminApi, {
      event_options: [
        option('Type', 'static text', { default: 'Geology' }),
        option('Sample ID', 'text', { required: true }),
        option('Storage', 'checkboxes', { values: ['Box A', 'Box B', 'Drawer'], required: true }),
        option('Kind', 'radio buttons', { values: ['rock', 'sediment'], required: true }),
        option('Site', 'dropdown', { values: ['Kane', 'Lost City'] }),
        option('Note', 'text'),
      ],
    });
    await loggerSession(adminApi, context);
    await openConsole(page);
    await pressTemplate(page, t);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Required', { exact: true })).toHaveCount(1);
    await expect(dialog.getByText('Must select at least one option', { exact: true })).toHaveCount(2);

    await dialog.getByLabel('Sample ID').fill('S492-Geo-07');
    await dialog.getByLabel('Drawer').check();
    await dialog.getByLabel('Box A').check();
    await dialog.getByLabel('sediment').check();
    await expect(dialog.getByText('Must select at least one option')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);

    await expect(line(page, t.value)).toContainText('sample id: "S492-Geo-07"');
    const id = await confirmedId(page, t.value);
    const stored = await adminApi.get<LogEvent>(`events/${id}`);
    // Empty values (Site, Note) are left out; checkbox choices are joined with semicolons.
    expect(stored.event_options).toEqual([
      { event_option_name: 'type', event_option_value: 'Geology' },
      { event_option_name: 'sample_id', event_option_value: 'S492-Geo-07' },
      { event_option_name: 'storage', event_option_value: 'Box A;Drawer' },
      { event_option_name: 'kind', event_option_value: 'sediment' },
    ]);
  });

  test('shift-click opens the modal for a one-click template; the custom time is checked and stored in UTC', async ({
    page,
    context,
    adminApi,
  }) => {
    const t = await makeTemplate(adminApi, {
      event_options: [option('Milestone', 'static text', { default: 'On Bottom' })],
    });
    await loggerSession(adminApi, context);
    await openConsole(page);

    await pressTemplate(page, t, ['Shift']);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: t.value })).toBeVisible();
    const id = await confirmedId(page, t.value);
    const created = await adminApi.get<LogEvent>(`events/${id}`);
    // Custom time starts at the created event's time, what is stored if the user leaves it.
    const time = dialog.getByLabel('Custom Time (UTC)');
    await expect(time).toHaveValue(created.ts.slice(0, 19).replace('T', ' '));

    await time.fill('yesterday at noon');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Invalid timestamp')).toBeVisible();
    await time.fill('');
    await expect(dialog.getByText('Required', { exact: true })).toBeVisible();

    // Five seconds back: the event stays on the history's first page (newest 20) while other specs
    // log beside it (two minutes back, a quick run logged more than 20 events after it).
    const earlier = new Date(Date.parse(created.ts) - 5_000);
    earlier.setUTCMilliseconds(0);
    await time.fill(earlier.toISOString().slice(0, 19).replace('T', ' '));
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);
    await expect.poll(async () => (await adminApi.get<LogEvent>(`events/${id}`)).ts).toBe(earlier.toISOString());
    expect((await adminApi.get<LogEvent>(`events/${id}`)).event_options).toEqual([
      { event_option_name: 'milestone', event_option_value: 'On Bottom' },
    ]);
    await expect(line(page, t.value)).toContainText(earlier.toISOString());
  });

  test('Cancel, the close button and Escape delete the event the click created', async ({
    page,
    context,
    adminApi,
  }) => {
    const t = await makeTemplate(adminApi, { event_options: [option('Count', 'text')] });
    await loggerSession(adminApi, context);
    await openConsole(page);
    const dialog = page.getByRole('dialog');

    const close = [
      () => dialog.getByRole('button', { name: 'Cancel' }).click(),
      () => dialog.getByRole('button', { name: 'Close' }).click(),
      () => page.keyboard.press('Escape'),
    ];
    for (const closeIt of close) {
      await pressTemplate(page, t);
      await expect(dialog).toBeVisible();
      const id = await confirmedId(page, t.value);
      await closeIt();
      await expect(dialog).toHaveCount(0);
      await expect(line(page, t.value)).toHaveCount(0);
      // The line goes at once; the delete reaches the server through the queue right after.
      await expect
        .poll(async () => (await adminApi.context.get(`/sealog-server/api/v1/events/${id}`)).status())
        .toBe(404);
    }
  });

  test('free text: Submit and Enter log FREE_FORM events; Submit is disabled while empty', async ({
    page,
    context,
    adminApi,
  }) => {
    await loggerSession(adminApi, context);
    await openConsole(page);
    const input = page.getByPlaceholder('Type new event');
    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    await expect(submit).toBeDisabled();

    const first = uniqueText('first note');
    await input.fill(first);
    await submit.click();
    await expect(input).toHaveValue('');
    await expect(line(page, first)).toContainText(`FREE_FORM`);

    const second = uniqueText('second note');
    await input.fill(second);
    await input.press('Enter');
    const id = await confirmedId(page, second);
    expect(await adminApi.get<LogEvent>(`events/${id}`)).toMatchObject({
      event_value: 'FREE_FORM',
      event_free_text: second,
      event_options: [],
    });
  });

  test('a browser clock that is off does not move events: click times follow the server clock', async ({
    page,
    context,
    adminApi,
  }) => {
    await loggerSession(adminApi, context);
    // The laptop thinks it is an hour later than the ship.
    await page.clock.setFixedTime(new Date(Date.now() + 3600_000));
    await openConsole(page);
    const text = uniqueText('clock check');
    await page.getByPlaceholder('Type new event').fill(text);
    await page.getByPlaceholder('Type new event').press('Enter');
    const id = await confirmedId(page, text);
    const stored = await adminApi.get<LogEvent>(`events/${id}`);
    expect(Math.abs(Date.parse(stored.ts) - Date.now())).toBeLessThan(5 * 60_000);
  });

  test('template buttons are reached and pressed with the keyboard; the category tab is remembered', async ({
    page,
    context,
    adminApi,
  }) => {
    const t = await makeTemplate(adminApi, {});
    await loggerSession(adminApi, context);
    await openConsole(page);
    await page.getByRole('button', { name: new RegExp(`^${t.category}$`, 'i') }).click();
    const button = page.getByRole('button', { name: t.name, exact: true });
    await button.focus();
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await confirmedId(page, t.value);

    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'category')?.value).toBe(t.category);
    await page.reload();
    await expect(page.getByRole('button', { name: new RegExp(`^${t.category}$`, 'i') })).toHaveClass(/active/);
    await expect(page.getByRole('button', { name: t.name, exact: true })).toBeVisible();
  });

  test('another session logging shows up live, and its cancelled event goes away live', async ({
    page,
    context,
    browser,
    adminApi,
    consoleErrors,
  }) => {
    const t = await makeTemplate(adminApi, { event_options: [option('Count', 'text')] });
    await loggerSession(adminApi, context);
    await openConsole(page);

    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    consoleErrors.watch(other);
    try {
      await loggerSession(adminApi, other);
      const otherPage = await other.newPage();
      await openConsole(otherPage);
      const text = uniqueText('seen live');
      await otherPage.getByPlaceholder('Type new event').fill(text);
      await otherPage.getByPlaceholder('Type new event').press('Enter');
      await expect(line(page, text)).toBeVisible();
      await expect(page.getByTestId('newest-event-card')).toContainText(text);
      // Navigation added by an inserter shows in the newest-event card as it arrives.
      const id = await confirmedId(page, text);
      await adminApi.post('event_aux_data', {
        event_id: id,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '2011.5', data_uom: 'm' }],
      });
      await expect(page.getByTestId('newest-event-card').getByTestId('aux-data-card')).toContainText('2011.5 m');

      await pressTemplate(otherPage, t);
      await expect(line(page, t.value)).toBeVisible();
      await otherPage.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(line(page, t.value)).toHaveCount(0);
    } finally {
      await other.close();
    }
  });

  test('a template added or disabled elsewhere shows or goes without a reload', async ({ page, context, adminApi }) => {
    const first = await makeTemplate(adminApi, {});
    await loggerSession(adminApi, context);
    await openConsole(page);
    await page.getByRole('button', { name: new RegExp(`^${first.category}$`, 'i') }).click();
    const second = await makeTemplate(adminApi, {}, first.category);
    await expect(page.getByRole('button', { name: second.name, exact: true })).toBeVisible();
    await adminApi.del(`event_templates/${first.id}`);
    await expect(page.getByRole('button', { name: first.name, exact: true })).toHaveCount(0);
  });

  test('comments are added and edited from the history', async ({ page, context, adminApi }) => {
    await loggerSession(adminApi, context);
    const value = uniqueText('COMMENTME');
    const { insertedId } = await adminApi.post<{ insertedId: string }>('events', { event_value: value });
    await openConsole(page);

    const l = line(page, value);
    await l.getByRole('button', { name: 'Add Comment' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Add/Update Comment' })).toBeVisible();
    await expect(dialog.getByRole('textbox')).toBeFocused();
    await dialog.getByRole('textbox').fill('core 3 was empty');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(l.getByRole('button', { name: 'Edit/View Comment' })).toBeVisible();
    await expect(l).not.toContainText('core 3 was empty'); // never in the line
    let stored = await adminApi.get<LogEvent>(`events/${insertedId}`);
    expect(stored.event_options).toEqual([
      { event_option_name: 'event_comment', event_option_value: 'core 3 was empty' },
    ]);

    await l.getByRole('button', { name: 'Edit/View Comment' }).click();
    await expect(dialog.getByRole('textbox')).toHaveValue('core 3 was empty');
    await dialog.getByRole('textbox').fill('core 3 had mud');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toHaveCount(0);
    stored = await adminApi.get<LogEvent>(`events/${insertedId}`);
    expect(stored.event_options).toEqual([
      { event_option_name: 'event_comment', event_option_value: 'core 3 had mud' },
    ]);
    // The newest-event card shows it while this is the newest event (specs running beside this one log
    // events on the same server, and a newer one takes the card).
    const newest = page.getByTestId('newest-event-card');
    if ((await newest.textContent())?.includes(value)) {
      await expect(newest.getByTestId('comment-card')).toContainText('core 3 had mud');
    }
  });

  test('the details modal shows the event with its cards; Escape closes it', async ({ page, context, adminApi }) => {
    await loggerSession(adminApi, context);
    const value = uniqueText('DETAILS');
    const { insertedId } = await adminApi.post<{ insertedId: string }>('events', {
      event_value: value,
      event_free_text: 'looking closer',
      event_options: [{ event_option_name: 'status', event_option_value: 'alive' }],
    });
    await adminApi.post('event_aux_data', {
      event_id: insertedId,
      data_source: 'vehicleRealtimeNavData',
      data_array: [
        { data_name: 'latitude', data_value: '23.5491', data_uom: 'ddeg' },
        { data_name: 'depth', data_value: '1987.2', data_uom: 'm' },
      ],
    });
    await openConsole(page);
    await line(page, value).getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Event Details:' })).toBeVisible();
    await expect(dialog.getByTestId('event-details-header')).toContainText(value);
    await expect(dialog.getByTestId('aux-data-card')).toContainText('Vehicle Realtime Nav Data');
    await expect(dialog.getByTestId('aux-data-card')).toContainText('1987.2 m');
    await expect(dialog.getByTestId('event-options-card')).toContainText('alive');
    await expect(dialog.getByTestId('free-text-card')).toContainText('looking closer');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test('an event watcher sees the history only', async ({ page, context, adminApi }) => {
    await loggerSession(adminApi, context, ['event_watcher']);
    const value = uniqueText('WATCHED');
    await adminApi.post('events', { event_value: value });
    await openConsole(page);
    await expect(line(page, value)).toBeVisible();
    await expect(page.getByTestId('template-buttons')).toHaveCount(0);
    await expect(page.getByPlaceholder('Type new event')).toHaveCount(0);
    await expect(line(page, value).getByRole('button', { name: /Comment/ })).toHaveCount(0);
    await line(page, value).getByRole('button').first().click();
    await expect(page.getByRole('dialog').getByRole('heading', { name: 'Event Details:' })).toBeVisible();
  });

  test('non-admins see events only from the start of the current cruise; admins see all', async ({
    page,
    context,
    adminApi,
  }) => {
    const value = uniqueText('RECENT');
    await adminApi.post('events', { event_value: value });
    // The demo cruise ended in 2023: its last event is older than the non-admin's window.
    const oldText = 'END OF CRUISE';
    await loggerSession(adminApi, context);
    await openConsole(page);
    await expect(line(page, value)).toBeVisible();
    await page.getByPlaceholder('Filter').fill(oldText);
    await expect(history(page)).toContainText('No events found');

    await useSessionOf(context, 'admin', 'demo');
    await openConsole(page);
    await page.getByPlaceholder('Filter').fill(oldText);
    await expect(line(page, oldText)).toHaveCount(1);
  });
});

test.describe('admin-only templates', () => {
  test('admins see admin_only templates, loggers do not; disabled ones nobody', async ({ page, context, adminApi }) => {
    const category = uniqueName('cat');
    const adminOnly = await makeTemplate(adminApi, {}, category);
    await adminApi.patch(`event_templates/${adminOnly.id}`, { admin_only: true, system_template: true });
    const disabled = await makeTemplate(adminApi, {}, category);
    await adminApi.patch(`event_templates/${disabled.id}`, { disabled: true });
    const open = await makeTemplate(adminApi, {}, category);

    await useSessionOf(context, 'admin', 'demo');
    await openConsole(page);
    await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
    await expect(page.getByRole('button', { name: adminOnly.name, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: open.name, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: disabled.name, exact: true })).toHaveCount(0);

    await loggerSession(adminApi, context);
    await openConsole(page);
    await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();
    await expect(page.getByRole('button', { name: open.name, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: adminOnly.name, exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: disabled.name, exact: true })).toHaveCount(0);
  });
});
