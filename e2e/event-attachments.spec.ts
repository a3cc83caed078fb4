import type { Page } from '@playwright/test';
import { apiLogin, createUser, uniqueName, type ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import { useSessionOf } from './support/session';
import type { EventAuxData } from '@bathylog/shared';

/**
 * Event attachments (docs/screens.md#attachments): pictures attached from the comment modal and
 * from the options modal, uploaded through the durable queue (also after the link comes back),
 * shown in the console's event details, the replay's image panel and the gallery. Each test makes
 * its own user, so its events are its own.
 */

test.use({ storageState: { cookies: [], origins: [] } });

/** A 2×2 PNG. */
const png = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a730000001049444154789c63f8dfc000440c100a002dee05fd8b3f6e840000000049454e44ae426082',
  'hex',
);

async function attachments(adminApi: ApiClient, eventId: string): Promise<string[]> {
  const res = await adminApi.context.get(
    `/sealog-server/api/v1/event_aux_data?eventID=${eventId}&datasource=eventFileAttachments`,
  );
  if (res.status() === 404) return [];
  const [record] = (await res.json()) as EventAuxData[];
  return (record?.data_array ?? []).filter((i) => i.data_name === 'filename').map((i) => String(i.data_value));
}

let counter = 0;
function uniqueText(prefix: string): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

async function openConsole(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('event-history')).toBeVisible();
}

const line = (page: Page, text: string) =>
  page.getByTestId('event-history-body').getByTestId('event-line').filter({ hasText: text });

async function confirmedId(page: Page, text: string): Promise<string> {
  const l = line(page, text);
  await expect(l).toHaveCount(1);
  await expect(l.getByTestId('event-pending')).toHaveCount(0);
  return (await l.getAttribute('data-event-id'))!;
}

test('a picture attached from the comment modal shows in the event details, the replay and the gallery', async ({
  page,
  context,
  adminApi,
}) => {
  test.slow();
  // A dive around now, so the event is in its replay and gallery.
  const now = Date.now();
  const lowering = await adminApi.post<{ insertedId: string }>('lowerings', {
    lowering_id: `AT${(now % 1e6).toString(36)}`,
    start_ts: new Date(now - 3600_000).toISOString(),
    stop_ts: new Date(now + 3600_000).toISOString(),
    lowering_location: '',
    lowering_tags: [],
    lowering_hidden: false,
    lowering_additional_meta: {},
  });
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await useSessionOf(context, user.username, user.password);
  await openConsole(page);
  const text = uniqueText('photo of the sampler');
  await page.getByPlaceholder('Type new event').fill(text);
  await page.getByPlaceholder('Type new event').press('Enter');
  const id = await confirmedId(page, text);

  await line(page, text).getByRole('button', { name: 'Add Comment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add/Update Comment' });
  const picker = dialog.getByLabel('Attach pictures');
  // A wrong type is refused before anything is sent.
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(picker).toHaveAccessibleDescription('Only PNG and JPEG pictures can be attached');
  await dialog.getByRole('button', { name: 'Remove notes.txt' }).click();
  await picker.setInputFiles({ name: 'sampler.png', mimeType: 'image/png', buffer: png });
  await expect(dialog.getByRole('list', { name: 'Pictures to attach' })).toHaveText('sampler.png');
  await dialog.getByRole('textbox', { name: 'Comment' }).fill('see the picture');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);

  await expect.poll(() => attachments(adminApi, id)).toHaveLength(1);
  const [stored] = await attachments(adminApi, id);
  expect(stored).toMatch(new RegExp(`^${id}_[0-9a-f]{16}\\.png$`));

  // The console's details show it with the other images.
  await line(page, text).locator('.event-line-text').click();
  const details = page.getByRole('dialog');
  const image = details.getByRole('img', { name: 'Attachments' });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', new RegExp(`${stored}$`));
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('attachment-details.png') });
  await page.keyboard.press('Escape');

  // The replay's image panel shows it under its camera name, and the gallery gives it its own tab.
  await page.goto(`/review_replay/${lowering.insertedId}`);
  await page.getByLabel('Full text').fill(text);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByTestId('review-event-header')).toContainText('FREE_FORM');
  await expect(page.locator('[data-testid="event-line"].active')).toContainText(text);
  const panel = page.getByTestId('replay-data-cards').getByRole('img', { name: 'Attachments' });
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('src', new RegExp(stored!));
  // The pointer rests on the Filter button just pressed: its hover colours are not what is checked.
  await page.mouse.move(0, 0);
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('attachment-replay.png') });
  await page.goto(`/review_gallery/${lowering.insertedId}`);
  await expect(page.getByRole('tab', { name: 'Attachments' })).toBeVisible();
});

test('a picture attached in the options modal while offline uploads after its event is sent', async ({
  page,
  context,
  adminApi,
  consoleErrors,
}) => {
  test.slow();
  consoleErrors.allow(/net::ERR_/);
  consoleErrors.allow(/WebSocket/);
  const category = uniqueName('att');
  const name = uniqueName('Att ');
  const value = uniqueName('ATTACH').toUpperCase();
  await adminApi.post('event_templates', {
    event_name: name,
    event_value: value,
    event_free_text_required: false,
    system_template: false,
    template_categories: [category],
    event_options: [
      {
        event_option_name: 'Sample ID',
        event_option_type: 'text',
        event_option_values: [],
        event_option_default_value: '',
        event_option_allow_freeform: false,
        event_option_required: true,
      },
    ],
  });
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  await useSessionOf(context, user.username, user.password);
  await openConsole(page);
  await page.getByRole('button', { name: new RegExp(`^${category}$`, 'i') }).click();

  await context.setOffline(true);
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog');
  const sampleId = uniqueText('S-ATT');
  await dialog.getByLabel('Sample ID').fill(sampleId);
  await dialog.getByLabel('Attach pictures').setInputFiles({ name: 'core.png', mimeType: 'image/png', buffer: png });
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(line(page, sampleId).getByTestId('event-pending')).toHaveCount(1);

  await context.setOffline(false);
  const id = await confirmedId(page, sampleId);
  await expect.poll(() => attachments(adminApi, id), { timeout: 30_000 }).toHaveLength(1);
  const event = await adminApi.get<{ event_options: Array<{ event_option_value: string }> }>(`events/${id}`);
  expect(event.event_options.map((o) => o.event_option_value)).toEqual([sampleId]);
});

test("the event's author removes attached pictures from the details and the comment modal; others cannot", async ({
  page,
  context,
  adminApi,
}) => {
  test.slow();
  const user = await createUser(adminApi, { roles: ['event_logger'] });
  const logger = await apiLogin(user.username, user.password);
  const text = uniqueText('two pictures');
  const { insertedId: id } = await logger.post<{ insertedId: string }>('events', {
    event_value: 'FREE_FORM',
    event_free_text: text,
  });
  const upload = async () => {
    const res = await logger.context.post(`/sealog-server/files/images/filepond/process/${id}`, {
      multipart: { filepond: { name: 'grab.png', mimeType: 'image/png', buffer: png } },
    });
    expect(res.status()).toBe(201);
    return (await res.text()).trim();
  };
  const first = await upload();
  const second = await upload();
  await logger.dispose();

  // Another logger sees the pictures but no way to remove them.
  const other = await createUser(adminApi, { roles: ['event_logger'] });
  await useSessionOf(context, other.username, other.password);
  await openConsole(page);
  await line(page, text).locator('.event-line-text').click();
  let details = page.getByRole('dialog');
  await expect(details.getByRole('img', { name: 'Attachments' })).toHaveCount(2);
  await expect(details.getByRole('button', { name: /^Remove picture/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The author removes one from the details (after confirming) ...
  await useSessionOf(context, user.username, user.password);
  await openConsole(page);
  await line(page, text).locator('.event-line-text').click();
  details = page.getByRole('dialog');
  await expect(details.getByRole('img', { name: 'Attachments' })).toHaveCount(2);
  await details.getByRole('button', { name: `Remove picture ${first}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Removal' });
  await expect(confirm).toContainText(`remove the picture ${first} from this event`);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Yup!' }).click();
  await expect(confirm).toHaveCount(0);
  await expect.poll(() => attachments(adminApi, id)).toEqual([second]);
  await expect(details.getByRole('img', { name: 'Attachments' })).toHaveCount(1);
  expect((await adminApi.context.get(`/sealog-server/files/images/${first}`)).status()).toBe(404);
  await page.keyboard.press('Escape');

  // ... and the other from the comment modal: marked, then removed with Submit.
  await line(page, text).getByRole('button', { name: 'Add Comment' }).click();
  const modal = page.getByRole('dialog', { name: 'Add/Update Comment' });
  const list = modal.getByRole('list', { name: 'Attached pictures' });
  await expect(list).toContainText(second);
  await list.getByRole('button', { name: `Remove picture ${second}` }).click();
  await expect(list.getByRole('button', { name: `Keep picture ${second}` })).toHaveAttribute('aria-pressed', 'true');
  await expectAccessible(page);
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(modal).toHaveCount(0);
  await expect.poll(() => attachments(adminApi, id)).toEqual([]);
  expect((await adminApi.context.get(`/sealog-server/files/images/${second}`)).status()).toBe(404);
});
