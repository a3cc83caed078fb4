import type { Page } from '@playwright/test';
import type { ApiClient } from './support/api';
import { expectAccessible } from './support/axe';
import { test, expect } from './support/fixtures';
import type { ExportedEvent, Lowering } from '@bathylog/shared';

/**
 * The milestones/stats editor (docs/screens.md#milestones-editor) on the demo dive S0492,
 * opened as a user does: /lowerings → Edit S0492 → Milestones. Every tile server is unreachable
 * (as on a ship without internet): the map must still show the track, and nothing may be logged
 * as a console error (the fixtures fail the test on any).
 */

/** The demo's position source, read independently of the client's code. */
const navSource = 'vehicleRealtimeNavData';

function navValue(e: ExportedEvent, name: string): number | null {
  const nav = e.aux_data.find((a) => a.data_source === navSource);
  const item = nav?.data_array.find((d) => d.data_name === name);
  if (!item) return null;
  const n = Number(item.data_value);
  return Number.isFinite(n) ? n : null;
}

async function s0492(api: ApiClient): Promise<Lowering> {
  const list = await api.get<Lowering[]>('lowerings');
  const found = list.find((l) => l.lowering_id === 'S0492');
  if (!found) throw new Error('demo lowering S0492 not found');
  return found;
}

/** Routes every request that does not go to our own server to a network failure. */
async function cutTheInternet(page: Page, baseURL: string) {
  const own = new URL(baseURL).origin;
  await page.context().route(
    (url) => url.origin !== own,
    (route) => route.abort('internetdisconnected'),
  );
}

async function openEditor(page: Page) {
  await page.goto('/lowerings');
  await page.getByRole('button', { name: 'Edit S0492' }).click();
  await page.getByRole('button', { name: 'Milestones', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'S0492 - Milestones / Stats' });
  // Patience, not a speed check: the whole dive loads first, on a machine that may be busy.
  await expect(modal).toBeVisible({ timeout: 30_000 });
  await expect(modal.locator('.depth-chart-plot')).toHaveAttribute('data-points', /^\d+$/, { timeout: 30_000 });
  return modal;
}

/** How many pixels of the trackline's yellow the map's vector canvas holds. */
function yellowPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    let count = 0;
    for (const canvas of Array.from(
      document.querySelectorAll<HTMLCanvasElement>('.dive-map .leaflet-overlay-pane canvas'),
    )) {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0) continue;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! < 80 && data[i + 3]! > 200) count++;
      }
    }
    return count;
  });
}

test.describe('milestones / stats editor', () => {
  // A whole dive (4,500 events with aux data) is loaded per test; the shared machine can be slow.
  test.slow();
  let events: ExportedEvent[];
  let lowering: Lowering;

  test.beforeEach(async ({ adminApi }) => {
    lowering = await s0492(adminApi);
    events = await adminApi.get<ExportedEvent[]>(`event_exports/bylowering/${lowering.id}`);
  });

  test('shows the track with tiles unreachable, the profile, and passes axe', async ({ page, baseURL }) => {
    await cutTheInternet(page, baseURL!);
    const modal = await openEditor(page);
    const trackPoints = events.filter((e) => {
      const lat = navValue(e, 'latitude');
      const lon = navValue(e, 'longitude');
      return lat !== null && lon !== null && lat !== 0 && lon !== 0;
    }).length;
    const depthPoints = events.filter((e) => navValue(e, 'depth') !== null).length;
    expect(trackPoints).toBeGreaterThan(100);
    await expect(modal.locator('.dive-map')).toHaveAttribute('data-track-points', String(trackPoints));
    await expect(modal.locator('.depth-chart-plot')).toHaveAttribute('data-points', String(depthPoints));
    await expect.poll(() => yellowPixels(page)).toBeGreaterThan(200);
    // The offline layers are listed in the layers control next to the configured base layers.
    await modal.getByRole('button', { name: 'Layers' }).focus();
    await page.keyboard.press('Enter');
    await expect(modal.getByRole('checkbox', { name: 'Graticule' })).toBeChecked();
    await expect(modal.getByRole('checkbox', { name: 'Coastlines' })).toBeChecked();
    for (const label of ['Off Deck', 'Descending', 'On Bottom', 'Off Bottom', 'On Surface', 'On Deck', 'Aborted']) {
      await expect(modal.getByRole('button', { name: label, exact: true })).toBeVisible();
    }
    await expect(modal.getByRole('button', { name: 'Update' })).toBeDisabled();
    await expectAccessible(page, '.modal');
  });

  test('a milestone set by clicking the chart is saved by Update', async ({ page, adminApi }) => {
    const before = lowering.lowering_additional_meta;
    try {
      const modal = await openEditor(page);
      const aborted = modal.getByRole('button', { name: 'Aborted', exact: true });
      await aborted.click();
      await expect(aborted).toHaveAttribute('aria-pressed', 'true');
      // Clicking the label again deselects it; a third click selects it again.
      await aborted.click();
      await expect(aborted).toHaveAttribute('aria-pressed', 'false');
      await aborted.click();
      const plot = modal.locator('.depth-chart .u-over');
      const box = (await plot.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      await expect(modal.locator('.depth-chart-tooltip')).toContainText('Click to set Aborted.');
      await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
      await expect(aborted).toHaveAttribute('aria-pressed', 'false');
      const value = (await aborted.locator('xpath=..').locator('.milestone-value').innerText()).trim();
      // The value is the time of an event of the dive, between start and stop.
      expect(events.map((e) => e.ts)).toContain(value);
      expect(Date.parse(value)).toBeGreaterThan(Date.parse(lowering.start_ts));
      expect(Date.parse(value)).toBeLessThan(Date.parse(lowering.stop_ts));

      const update = modal.getByRole('button', { name: 'Update' });
      await expect(update).toBeEnabled();
      await update.click();
      await expect(modal).toBeHidden();
      const saved = await adminApi.get<Lowering>(`lowerings/${lowering.id}`);
      expect(saved.lowering_additional_meta.milestones).toEqual({ ...before.milestones, lowering_aborted: value });
      expect(saved.start_ts).toBe(lowering.start_ts);
      expect(saved.stop_ts).toBe(lowering.stop_ts);
      expect(saved.lowering_additional_meta.milestones).not.toHaveProperty('start_ts');
      expect(saved.lowering_additional_meta.lowering_description).toBe(before.lowering_description);
    } finally {
      await adminApi.patch(`lowerings/${lowering.id}`, { lowering_additional_meta: before });
    }
  });

  test('the calculators give the deepest nav point and a box around every track point', async ({ page }) => {
    const modal = await openEditor(page);
    const depths = events.map((e) => navValue(e, 'depth')).filter((d): d is number => d !== null);
    const deepest = Math.max(...depths);
    await modal.getByRole('button', { name: 'Calculate max depth from the nav data' }).click();
    await expect(modal.getByTestId('max-depth')).toHaveText(String(deepest));

    await modal.getByRole('button', { name: 'Calculate bounding box from the nav data' }).click();
    const [n, e, s, w] = (await modal.getByTestId('bounding-box').innerText()).split(',').map((v) => Number(v.trim()));
    const points = events
      .map((ev) => ({ lat: navValue(ev, 'latitude'), lon: navValue(ev, 'longitude') }))
      .filter((p): p is { lat: number; lon: number } => !!p.lat && !!p.lon);
    // One assertion over every point (an expect per point would make tens of thousands of steps).
    const outside = points.filter((p) => p.lat < s! || p.lat > n! || p.lon < w! || p.lon > e!);
    expect(outside).toEqual([]);
    // …and it is the tightest such box.
    expect(n).toBe(Math.max(...points.map((p) => p.lat)));
    expect(s).toBe(Math.min(...points.map((p) => p.lat)));
    expect(e).toBe(Math.max(...points.map((p) => p.lon)));
    expect(w).toBe(Math.min(...points.map((p) => p.lon)));
    await expect(modal.getByRole('button', { name: 'Update' })).toBeEnabled();

    // The chart works from the keyboard: a label, then End and Enter pick the last depth point.
    const withDepth = events.filter((ev) => navValue(ev, 'depth') !== null);
    await modal.getByRole('button', { name: 'Aborted', exact: true }).click();
    await modal.getByRole('img', { name: 'S0492 depth profile' }).focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect(modal.getByRole('button', { name: 'Aborted', exact: true }).locator('xpath=..')).toContainText(
      withDepth[withDepth.length - 1]!.ts,
    );
    // Close without saving leaves the record as it was.
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(modal).toBeHidden();
  });

  test('a chart click that puts a milestone out of order marks that one and says why Update is off', async ({
    page,
  }) => {
    const modal = await openEditor(page);
    const item = (label: string) => modal.getByRole('button', { name: label, exact: true }).locator('xpath=..');
    // Descending moved to the dive's last depth point: after On Bottom, so out of sequence.
    await modal.getByRole('button', { name: 'Descending', exact: true }).click();
    await modal.getByRole('img', { name: 'S0492 depth profile' }).focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect(item('Descending')).toContainText('This milestone is out of sequence.');
    await expect(modal.getByRole('button', { name: 'Descending', exact: true })).toHaveAccessibleDescription(
      'This milestone is out of sequence.',
    );
    await expect(item('On Bottom')).not.toContainText('out of sequence');
    const update = modal.getByRole('button', { name: 'Update' });
    await expect(update).toBeDisabled();
    await expect(update).toHaveAccessibleDescription('Update is off until Descending is fixed.');
    await expect(modal.getByText('Update is off until Descending is fixed.')).toBeVisible();
    await expectAccessible(page, '.modal');
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(modal).toBeHidden();
  });

  test('Tweak! shows the form messages and Done only stages the values', async ({ page, adminApi }) => {
    const modal = await openEditor(page);
    await modal.getByRole('button', { name: 'Tweak!' }).click();
    const form = modal.getByRole('form', { name: 'Tweak milestones and stats' });
    // Each time has the calendar; Esc closes it, not the editor around it.
    await form.getByRole('button', { name: 'Choose date and time (UTC)' }).nth(3).click();
    const picker = page.getByRole('dialog', { name: 'Choose date and time (UTC)' });
    await expect(picker.getByRole('grid', { name: 'March 2023' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    await expect(modal).toBeVisible();
    await form.getByRole('textbox', { name: 'North' }).fill('61');
    await form.getByRole('textbox', { name: 'East' }).fill('-181');
    await form.getByRole('textbox', { name: 'Max Depth' }).fill('-1');
    await form.getByRole('textbox', { name: 'Off Bottom (UTC)' }).fill('2023-03-14 22:20:00.000');
    await form.getByRole('textbox', { name: 'On Deck (UTC)' }).fill('2023-03-14 22:00:00.000');
    await form.getByRole('button', { name: 'Done' }).click();
    await expect(form.getByText('Must be a number between +/- 60')).toBeVisible();
    await expect(form.getByText('Must be a number between +/- 180')).toBeVisible();
    await expect(form.getByText('Must be a positive floating point number')).toBeVisible();
    await expect(form.getByText('Stop timestamp must be later than start timestamp')).toBeVisible();
    await form.getByRole('textbox', { name: 'On Deck (UTC)' }).fill('2023-03-15 08:32:32.654');
    await expect(form.getByText('This milestone is out of sequence.')).toBeVisible();
    await form.getByRole('textbox', { name: 'Off Bottom (UTC)' }).fill('2023-03-15 09:00:00.000');
    await expect(form.getByText('This milestone is outside of start/stop timestamps.')).toBeVisible();
    await form.getByRole('textbox', { name: 'Aborted (UTC)' }).fill('2023-03-16 00:00:00.000');
    await expect(form.getByText('Abort timestamp must be between start and stop timestamps')).toBeVisible();
    await form.getByRole('textbox', { name: 'Off Bottom (UTC)' }).fill('2023-03-15 07:40:00.250');
    await form.getByRole('textbox', { name: 'Aborted (UTC)' }).fill('');
    await form.getByRole('textbox', { name: 'North' }).fill('23.6');
    await form.getByRole('textbox', { name: 'East' }).fill('-45.1');
    await form.getByRole('textbox', { name: 'Max Depth' }).fill('2012.5');
    await form.getByRole('button', { name: 'Done' }).click();
    await expect(form).toBeHidden();
    const offBottom = modal.getByRole('button', { name: 'Off Bottom', exact: true }).locator('xpath=..');
    await expect(offBottom.locator('.milestone-value')).toHaveText('2023-03-15T07:40:00.250Z');
    await expect(modal.getByTestId('max-depth')).toHaveText('2012.5');
    // Done staged the values only: nothing was saved.
    const stored = await adminApi.get<Lowering>(`lowerings/${lowering.id}`);
    expect(stored.lowering_additional_meta).toEqual(lowering.lowering_additional_meta);
    await expect(modal.getByRole('button', { name: 'Update' })).toBeEnabled();
  });
});
