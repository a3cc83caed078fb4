import { createLowering, uniqueName } from './support/api';
import { test, expect } from './support/fixtures';
import { expectAccessible } from './support/axe';

/**
 * Checklists (docs/checklists.md): an admin defines one with an automatic item (ASNAP on), runs it
 * for a lowering from the console, sees the automatic item turn green when ASNAP goes on (no
 * reload), ticks the manual item, and the completion event shows in the console's history.
 */

interface CustomVar {
  id: string;
  custom_var_name: string;
}

test('a checklist run: an automatic item turns green live, a skip needs a reason, completion logs an event', async ({
  page,
  adminApi,
}) => {
  const name = `Launch ${uniqueName('c')}`;
  const loweringId = uniqueName('L').toUpperCase();
  const [asnap] = await adminApi.get<CustomVar[]>('custom_vars?name=asnapStatus');
  const setAsnap = (value: 'On' | 'Off') => adminApi.patch(`custom_vars/${asnap!.id}`, { custom_var_value: value });
  await setAsnap('Off');
  const hour = 3600_000;
  await createLowering(adminApi, {
    lowering_id: loweringId,
    start_ts: new Date(Date.now() - hour).toISOString(),
    stop_ts: new Date(Date.now() + hour).toISOString(),
    lowering_location: 'Checklist test',
  });

  try {
    // The admin defines it under System Management → Checklists.
    await page.goto('/');
    await page.getByRole('button', { name: 'System Management' }).click();
    await page.getByRole('link', { name: 'Checklists', exact: true }).click();
    await expect(page).toHaveURL(/\/checklists$/);
    const form = page.getByRole('form', { name: 'Add Checklist' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Phase').selectOption({ label: 'Pre-dive' });
    const first = form.getByTestId('checklist-item-editor-0');
    await first.getByLabel('Label').fill('ASNAP on');
    await first.getByLabel('Kind').selectOption('auto');
    await expect(first.getByLabel('Custom var')).toHaveValue('asnapStatus');
    await expect(first.getByLabel('Equals')).toHaveValue('On');
    await form.getByRole('button', { name: 'Add Item' }).click();
    const second = form.getByTestId('checklist-item-editor-1');
    await second.getByLabel('Label').fill('Cameras recording');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('status')).toContainText(`Checklist ${name} added.`);
    const row = page.getByTestId(`checklist-row-${name}`);
    await expect(row).toContainText('Pre-dive');
    await expect(row).toContainText('ASNAP on (automatic: asnapStatus is On)');
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('checklists-admin.png'), fullPage: true });

    // Run it for the lowering from the console.
    await page.goto('/');
    await page.getByRole('button', { name: 'Checklists' }).click();
    const dialog = page.getByRole('dialog', { name: 'Checklists' });
    await dialog.getByLabel('Lowering').selectOption({ label: loweringId });
    const run = dialog.getByTestId(`checklist-run-${name}`);
    const auto = run.getByTestId('checklist-item-item-1');
    await expect(auto.getByTestId('condition-status')).toHaveText('Condition not met');
    await expect(auto.getByTestId('condition-status')).toHaveClass(/bg-danger/);
    await expect(run.getByTestId('run-state')).toHaveText('Open: 2 to go');
    await expectAccessible(page);

    // ASNAP on: the automatic item turns green without a reload.
    await setAsnap('On');
    await expect(auto.getByTestId('condition-status')).toHaveText('Condition holds');
    await expect(auto.getByTestId('condition-status')).toHaveClass(/bg-success/);
    await expect(run.getByTestId('run-state')).toHaveText('Open: 1 to go');

    // A skip without a reason is refused.
    await run.getByRole('button', { name: 'Skip Cameras recording' }).click();
    const skip = page.getByRole('dialog', { name: 'Skip “Cameras recording”' });
    await skip.getByRole('button', { name: 'Skip Item' }).click();
    await expect(skip.getByText('A reason is needed to skip an item.')).toBeVisible();
    await skip.getByRole('button', { name: 'Cancel' }).click();
    await expect(skip).toHaveCount(0);

    // Focus goes back to the Skip button; ticking the manual item (keyboard: Shift+Tab, Space) completes the run.
    await expect(run.getByRole('button', { name: 'Skip Cameras recording' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(run.getByRole('checkbox', { name: 'Cameras recording' })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(run.getByTestId('run-state')).toHaveText('Complete');
    await expect(run.getByTestId('run-completed')).toContainText('Completed by admin');
    await expect(run.getByTestId('checklist-item-item-2')).toContainText('Done by admin');
    await expect(auto).toContainText('Done by the server (condition held)');
    await page.screenshot({ path: test.info().outputPath('checklists-run.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await expect(dialog).toHaveCount(0);

    // The completion event is in the console's history, live.
    const history = page.getByTestId('event-history-body');
    await expect(
      history.getByTestId('event-line').filter({ hasText: `Pre-dive checklist complete: ${name}` }),
    ).toHaveCount(1);
    await expect(
      history.getByTestId('event-line').filter({ hasText: `Pre-dive checklist complete: ${name}` }),
    ).toContainText('CHECKLIST');
  } finally {
    await setAsnap('Off');
  }
});

test('the lowering card shows only checklists that were run, starts none, and opens them', async ({
  page,
  adminApi,
}) => {
  // A dive from years ago, run before anyone defined checklists: it had none.
  const cruiseId = uniqueName('CK').toUpperCase().slice(0, 12);
  const { insertedId: cruise } = await adminApi.post<{ insertedId: string }>('cruises', {
    cruise_id: cruiseId,
    start_ts: '2021-05-01T00:00:00.000Z',
    stop_ts: '2021-05-10T00:00:00.000Z',
    cruise_location: '',
    cruise_additional_meta: {},
    cruise_tags: [],
    cruise_hidden: false,
  });
  const lowering = await createLowering(adminApi, {
    lowering_id: uniqueName('CKL').toUpperCase().slice(0, 12),
    start_ts: '2021-05-02T10:00:00.000Z',
    stop_ts: '2021-05-02T18:00:00.000Z',
  });
  try {
    await page.goto(`/cruise_menu?cruise=${cruise}&lowering=${lowering}`);
    const line = page.getByTestId('lowering-checklists');
    await expect(line).toContainText(/^Checklists: none run/);
    await expect(line.getByRole('button', { name: 'Open checklists' })).toBeVisible();
    // Showing the card started no run.
    expect(await adminApi.get<unknown[]>(`lowerings/${lowering}/checklists?start=false`)).toEqual([]);

    // Someone runs the demo's pre-dive checklist and ticks one item: that run shows, with its progress.
    const run = await adminApi.post<{ id: string }>(`lowerings/${lowering}/checklists`, {
      checklist_id: '5f00c0ec0000000000000001',
    });
    await adminApi.patch(`lowerings/${lowering}/checklists/${run.id}/items/cameras`, { state: 'done' });
    await page.reload();
    await expect(line).toContainText(/^Checklists: Pre-dive: \d of 5 done/);
    await expect(line).not.toContainText('Post-dive');

    await line.getByRole('button', { name: 'Open checklists' }).click();
    const dialog = page.getByRole('dialog', { name: /^Checklists: / });
    await expect(dialog.getByTestId('checklist-run-Pre-dive')).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  } finally {
    await adminApi.del(`lowerings/${lowering}`);
    await adminApi.del(`cruises/${cruise}`);
  }
});
