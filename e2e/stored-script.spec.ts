import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { apiLogin, type ApiClient } from './support/api';
import { test, expect } from './support/fixtures';
import { startServer, type StartedServer } from './support/server';

/**
 * Stored text is shown as text: a script payload stored in every kind of text the screens show
 * (events, comments, templates, cruises, lowerings, users, aux data, and the operator's client
 * settings) never runs, on any screen, with no Content-Security-Policy violation in the console.
 * Each payload names its field: `<img src=x data-xss onerror=…>` sets window.__xss to that name and
 * opens an alert, so a leak fails the test with the field it came from. A server of its own: the
 * client settings carry payloads too.
 */

const field = (name: string) => `<img src=x data-xss onerror="window.__xss='${name}';alert('${name}')">`;
/** The payload as the attribute of a quoted HTML string (a title, a tooltip built by string concatenation). */
const quoted = (name: string) => `"><img src=x data-xss onerror=window.__xss='${name}'>`;

test.use({ storageState: { cookies: [], origins: [] } });
test.describe.configure({ mode: 'serial' });

let server: StartedServer;
let admin: ApiClient;
const now = Date.now();
const iso = (offsetMinutes: number) => new Date(now + offsetMinutes * 60_000).toISOString();
let loweringId = '';
let cruiseLabel = '';
let loweringLabel = '';
let templateName = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer({
    mode: 'production',
    config: {
      client: {
        headerTitle: `Bathylog ${field('headerTitle')}`,
        loginScreenText: field('loginScreenText'),
        mainScreenText: field('mainScreenText'),
        // Unreachable tile servers: the map shows its packaged coastline, the layer names and
        // attributions still reach Leaflet's layers control and attribution line.
        tileLayers: [
          {
            name: `Base ${field('tileLayerName')}`,
            url: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
            attribution: `&copy; ${field('tileAttribution')}`,
            default: true,
          },
        ],
        overlayLayers: [
          {
            name: `Overlay ${field('overlayName')}`,
            url: 'http://127.0.0.1:9/overlay/{z}/{x}/{y}.png',
            attribution: quoted('overlayAttribution'),
          },
        ],
        milestones: {
          start: { label: `Off ${field('milestoneLabel')}` },
          stop: { label: 'On Deck' },
        },
      },
    },
  });
  admin = await apiLogin('admin', 'demo', server.url);

  const made = await admin.post<{ insertedId: string }>('users', {
    username: 'xssuser',
    fullname: `Mallory ${field('userFullname')}`,
    email: 'xss@example.org',
    password: 'password1',
    roles: ['event_logger'],
  });
  expect(made.insertedId).toBeTruthy();

  cruiseLabel = `X${(now % 1e6).toString(36).toUpperCase()}`;
  const cruise = await admin.post<{ insertedId: string }>('cruises', {
    cruise_id: cruiseLabel,
    start_ts: iso(-24 * 60),
    stop_ts: iso(24 * 60),
    cruise_location: field('cruiseLocation'),
    cruise_tags: [field('cruiseTag')],
    cruise_hidden: false,
    cruise_additional_meta: {
      cruise_name: field('cruiseName'),
      cruise_vessel: field('cruiseVessel'),
      cruise_pi: field('cruisePi'),
      cruise_description: field('cruiseDescription'),
      cruise_departure_location: field('cruiseDeparture'),
      cruise_arrival_location: field('cruiseArrival'),
      cruise_participants: [field('cruiseParticipant')],
    },
  });
  loweringLabel = `L${(now % 1e6).toString(36).toUpperCase()}`;
  const lowering = await admin.post<{ insertedId: string }>('lowerings', {
    lowering_id: loweringLabel,
    start_ts: iso(-60),
    stop_ts: iso(60),
    lowering_location: field('loweringLocation'),
    lowering_tags: [field('loweringTag')],
    lowering_hidden: false,
    lowering_additional_meta: {
      lowering_name: field('loweringName'),
      lowering_description: field('loweringDescription'),
    },
  });
  loweringId = lowering.insertedId;
  // Files of a cruise and a lowering are listed from their folders, under the names they were stored with.
  for (const [kind, id] of [
    ['cruises', cruise.insertedId],
    ['lowerings', loweringId],
  ] as const) {
    const dir = path.join(server.dataDir, 'files', kind, id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${field(`${kind}File`)}.txt`), 'notes');
  }

  templateName = `T ${field('templateName')}`.slice(0, 100);
  await admin.post('event_templates', {
    event_name: templateName,
    event_value: field('templateValue'),
    event_free_text_required: false,
    system_template: false,
    template_categories: [field('templateCategory')],
    event_options: [
      {
        event_option_name: field('templateOptionName'),
        event_option_type: 'dropdown',
        event_option_values: [field('templateOptionValue'), 'plain'],
        event_option_allow_freeform: false,
        event_option_required: false,
      },
      {
        event_option_name: 'note',
        event_option_type: 'static text',
        event_option_default_value: field('templateStaticText'),
        event_option_values: [],
        event_option_allow_freeform: false,
        event_option_required: false,
      },
    ],
  });

  // Three events on a short diagonal track: the middle one sits at the map's centre.
  for (const [i, minutes] of [-30, -20, -10].entries()) {
    const { insertedId } = await admin.post<{ insertedId: string }>('events', {
      event_author: `a${i} ${field(`eventAuthor${i}`)}`.slice(0, 100),
      ts: iso(minutes),
      event_value: field(`eventValue${i}`),
      event_free_text: field(`eventFreeText${i}`),
      event_options: [
        { event_option_name: field(`optionName${i}`).slice(0, 60), event_option_value: field(`optionValue${i}`) },
        { event_option_name: 'event_comment', event_option_value: field(`comment${i}`) },
      ],
    });
    await admin.post('event_aux_data', {
      event_id: insertedId,
      data_source: 'vehicleRealtimeNavData',
      data_array: [
        { data_name: 'latitude', data_value: String(10 + i * 0.01), data_uom: 'ddeg' },
        { data_name: 'longitude', data_value: String(-20 + i * 0.01), data_uom: 'ddeg' },
        { data_name: 'depth', data_value: String(100 + i * 50), data_uom: field(`auxUom${i}`) },
      ],
    });
    await admin.post('event_aux_data', {
      event_id: insertedId,
      data_source: field(`auxSource${i}`).slice(0, 80),
      data_array: [{ data_name: field(`auxName${i}`), data_value: field(`auxValue${i}`), data_uom: 'x' }],
    });
    await admin.post('event_aux_data', {
      event_id: insertedId,
      data_source: 'vehicleRealtimeFramegrabberData',
      data_array: [
        { data_name: 'camera_name', data_value: field(`cameraName${i}`) },
        { data_name: 'filename', data_value: `/images/${quoted(`imageFile${i}`).replace(/\//g, '')}.jpg` },
      ],
    });
  }
});

test.afterAll(async () => {
  await admin?.dispose();
  await server?.stop();
});

/** Fails the test on any dialog, and records CSP violations the page reports. */
async function guard(page: Page): Promise<string[]> {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return dialogs;
}

/** Nothing ran and nothing was parsed as markup, on what the page shows now. */
async function expectClean(page: Page, dialogs: string[], where: string) {
  const state = await page.evaluate(() => {
    const w = window as unknown as { __xss?: string; __csp?: string[] };
    return {
      xss: w.__xss ?? null,
      injected: Array.from(document.querySelectorAll('[data-xss]'), (e) => e.outerHTML),
      csp: w.__csp ?? [],
    };
  });
  expect(dialogs, `dialogs on ${where}`).toEqual([]);
  expect(state.xss, `window.__xss on ${where}`).toBeNull();
  expect(state.injected, `markup parsed from stored text on ${where}`).toEqual([]);
  expect(state.csp, `Content-Security-Policy violations on ${where}`).toEqual([]);
}

async function login(page: Page) {
  await page.goto(`${server.url}/login`);
  await expect(page.getByText("onerror=\"window.__xss='loginScreenText'", { exact: false })).toBeVisible();
  await page.getByPlaceholder('Username').fill('admin');
  await page.getByPlaceholder('Password').fill('demo');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByTestId('user-menu-title')).toContainText('Admin');
}

/** Moves the mouse over the map around its centre until a marker's tooltip opens. */
async function hoverCentreMarker(page: Page, map: Locator): Promise<Locator> {
  const box = (await map.boundingBox())!;
  const tooltip = page.locator('.leaflet-tooltip');
  for (const [dx, dy] of [
    [0, 0],
    [0, 2],
    [2, 0],
    [-2, 0],
    [0, -2],
    [2, 2],
    [-2, 2],
    [3, -3],
    [-3, -3],
  ] as const) {
    await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
    if (await tooltip.isVisible().catch(() => false)) return tooltip;
  }
  await expect(tooltip).toBeVisible();
  return tooltip;
}

test('the console, event management and the cruise menu show stored text as text', async ({ page }) => {
  test.setTimeout(120_000);
  const dialogs = await guard(page);
  await login(page);
  await expectClean(page, dialogs, 'login');

  // Event log console: history, newest event, template buttons and their option dialog.
  await page.goto(`${server.url}/`);
  await expect(page.getByTestId('event-history')).toBeVisible();
  await expect(page.getByTestId('event-history')).toContainText("window.__xss='eventValue2'");
  await expectClean(page, dialogs, 'event log console');
  const category = page.getByRole('button', { name: /templateCategory/ });
  if ((await category.count()) > 0) await category.first().click();
  await page.getByRole('button', { name: templateName, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText("window.__xss='templateOptionName'");
  await expectClean(page, dialogs, 'event options dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Event management with the details modal.
  await page.goto(`${server.url}/event_management`);
  const lines = page.getByTestId('filtered-events').getByTestId('event-line');
  await expect(lines.first()).toContainText("window.__xss='eventValue");
  await expectClean(page, dialogs, 'event management');
  await lines.first().getByRole('button').first().click();
  await expect(page.getByRole('dialog')).toContainText("window.__xss='auxValue");
  await expectClean(page, dialogs, 'event details');
  await page.keyboard.press('Escape');

  // Cruise menu: the cruise and lowering cards.
  await page.goto(`${server.url}/cruise_menu`);
  const cruise = page.getByRole('button', { name: cruiseLabel, exact: true });
  const year = page.getByRole('button', { name: new RegExp(`Year: ${new Date(now).getUTCFullYear()}`) });
  await expect(cruise.or(year).first()).toBeVisible();
  if ((await year.count()) > 0 && (await year.getAttribute('aria-expanded')) !== 'true') await year.click();
  await cruise.click();
  await page.getByRole('button', { name: loweringLabel, exact: true }).click();
  await expect(page.getByRole('region', { name: /^Lowering: / })).toContainText("window.__xss='loweringDescription'");
  await expect(page.getByRole('region', { name: /^Lowering: / })).toContainText("window.__xss='loweringsFile'");
  await expect(page.getByRole('region', { name: /^Cruise: / })).toContainText("window.__xss='cruisesFile'");
  await expectClean(page, dialogs, 'cruise menu');
});

test('review replay, map (markers, popup, layers, milestones chart) and gallery show stored text as text', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dialogs = await guard(page);
  await login(page);

  await page.goto(`${server.url}/review_replay/${loweringId}`);
  await expect(page.getByTestId('review-event-header')).toContainText("window.__xss='eventValue0'");
  await expect(page.getByTestId('aux-data-card').first()).toBeVisible();
  await expectClean(page, dialogs, 'review replay');

  await page.goto(`${server.url}/review_map/${loweringId}`);
  const map = page.getByRole('region', { name: 'Review map' });
  await expect(map).toHaveAttribute('data-track-points', '3');
  // Attributions are reduced to their text: entities decoded, tags dropped.
  await expect(page.locator('.leaflet-control-attribution')).toContainText('\u00a9');
  // The layers control lists the layer names.
  await page.locator('.leaflet-control-layers').hover();
  await expect(page.locator('.leaflet-control-layers-list')).toContainText("window.__xss='tileLayerName'");
  await expect(page.locator('.leaflet-control-layers-list')).toContainText("window.__xss='overlayName'");
  await page.locator('.leaflet-control-layers-overlays label', { hasText: 'overlayName' }).click();
  await expectClean(page, dialogs, 'review map layers');
  await page.mouse.move(0, 0);
  // A marker's tooltip: its time and the event's value.
  const tooltip = await hoverCentreMarker(page, map);
  await expect(tooltip).toContainText("window.__xss='eventValue1'");
  await expectClean(page, dialogs, 'map marker tooltip');
  // A click selects the event: the pin moves there; its popup opens on a click.
  await page.mouse.down();
  await page.mouse.up();
  await expect(page.getByTestId('review-event-header')).toContainText("window.__xss='eventValue1'");
  await page
    .getByRole('button', { name: 'Position' })
    .or(page.locator('.leaflet-marker-icon[alt="Position"]'))
    .first()
    .click();
  await expect(page.locator('.leaflet-popup')).toContainText('You are here!');
  await expectClean(page, dialogs, 'map pin popup');

  // Milestones editor: labels from the settings and the depth chart's tooltip.
  await page.getByRole('button', { name: 'Milestones' }).click();
  const modal = page.getByRole('dialog');
  await expect(modal).toContainText("window.__xss='milestoneLabel'");
  const chart = modal.locator('.depth-chart-plot .u-over');
  await expect(chart).toBeVisible();
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expectClean(page, dialogs, 'milestones editor');
  await page.keyboard.press('Escape');

  await page.goto(`${server.url}/review_gallery/${loweringId}`);
  await expect(page.getByText("window.__xss='cameraName", { exact: false }).first()).toBeVisible();
  await expectClean(page, dialogs, 'review gallery');

  // The dive report: the map's permanent milestone labels, the tables of events and milestones.
  await page.goto(`${server.url}/report/lowering/${loweringId}`);
  await expect(page.getByText("window.__xss='eventValue0'", { exact: false }).first()).toBeVisible();
  await expect(page.locator('.leaflet-container').first()).toBeVisible();
  await expectClean(page, dialogs, 'dive report');
});

test('management screens, the audit trail and the API documentation show stored text as text', async ({ page }) => {
  test.setTimeout(120_000);
  const dialogs = await guard(page);
  await login(page);
  const screens: Array<[string, string]> = [
    ['/cruises', "window.__xss='cruiseName'"],
    ['/lowerings', loweringLabel],
    ['/event_templates', "window.__xss='templateName'"],
    ['/users', "window.__xss='userFullname'"],
    ['/audit', 'admin'],
    ['/profile', 'admin'],
    ['/tasks', 'Tasks'],
  ];
  for (const [path, text] of screens) {
    await page.goto(`${server.url}${path}`);
    await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
    await expectClean(page, dialogs, path);
  }
  // The lowerings table's details and the cruise's (the description shows there).
  await page.goto(`${server.url}/lowerings`);
  await page.getByText(loweringLabel, { exact: true }).first().click();
  await expectClean(page, dialogs, 'lowerings details');

  // Swagger UI loads under its own policy.
  await page.goto(`${server.url}/sealog-server/documentation`);
  await expect(page.locator('.swagger-ui .info')).toContainText('Bathylog API');
  await expectClean(page, dialogs, 'API documentation');
});
