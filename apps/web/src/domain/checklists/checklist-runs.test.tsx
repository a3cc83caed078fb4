import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ChecklistRun } from '@bathylog/shared';
import { ChecklistRuns } from './checklist-runs';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const loweringId = '6981f0c4a1b2c3d4e5f60718';

function makeRun(over: Partial<ChecklistRun> = {}): ChecklistRun {
  return {
    id: '6981f0c4a1b2c3d4e5f60719',
    checklist_id: '6981f0c4a1b2c3d4e5f6071a',
    lowering_id: loweringId,
    name: 'Launch checks',
    phase: 'pre_dive',
    state: 'open',
    completed_at: null,
    completed_by: null,
    items: [
      { id: 'ballast', label: 'Ballast checked', kind: 'manual', state: 'open', by: null, at: null, reason: null },
      { id: 'lights', label: 'Lights on', kind: 'manual', state: 'open', by: null, at: null, reason: null },
    ],
    ...over,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The lowering's runs on GET; each PATCH (a tick) waits until the test answers it. */
function serve(runs: ChecklistRun[]) {
  const ticks: Array<{ url: string; body: unknown; answer: (res: Response) => void }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'GET') return Promise.resolve(json(200, runs));
      return new Promise<Response>((answer) =>
        ticks.push({ url: String(url), body: JSON.parse(String(init!.body)), answer }),
      );
    }),
  );
  return ticks;
}

function renderRuns() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ChecklistRuns loweringId={loweringId} />
    </QueryClientProvider>,
  );
}

describe('ChecklistRuns', () => {
  it('shows a tick at once, saving, and keeps it once the server has it', async () => {
    const ticks = serve([makeRun()]);
    renderRuns();
    const box = (await screen.findByLabelText('Ballast checked')) as HTMLInputElement;
    fireEvent.click(box);
    // Before any answer: ticked, marked as saving, and not clickable again.
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Saving…');
    await vi.waitFor(() => expect(ticks).toHaveLength(1));
    expect(ticks[0]!.body).toEqual({ state: 'done' });
    const run = makeRun();
    run.items[0] = { ...run.items[0]!, state: 'done', by: 'pilot', at: '2023-03-14T10:00:00.000Z' };
    ticks[0]!.answer(json(200, run));
    await vi.waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect((screen.getByLabelText('Ballast checked') as HTMLInputElement).checked).toBe(true);
    expect(box.disabled).toBe(false);
  });

  it('puts a refused tick back and says why', async () => {
    const ticks = serve([makeRun()]);
    renderRuns();
    fireEvent.click(await screen.findByLabelText('Lights on'));
    expect((screen.getByLabelText('Lights on') as HTMLInputElement).checked).toBe(true);
    await vi.waitFor(() => expect(ticks).toHaveLength(1));
    ticks[0]!.answer(json(403, { statusCode: 403, error: 'Forbidden', message: 'This lowering is locked' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('"Lights on" was not ticked: This lowering is locked');
    expect((screen.getByLabelText('Lights on') as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('names the phase beside the checklist only when the name does not already say it', async () => {
    serve([makeRun(), makeRun({ id: '6981f0c4a1b2c3d4e5f6071b', name: 'Pre-dive' })]);
    renderRuns();
    const named = await screen.findByRole('region', { name: /^Launch checks/ });
    expect(within(named).getByRole('heading').textContent).toBe('Launch checks (Pre-dive)');
    expect(screen.getByRole('region', { name: /^Pre-dive/ }).querySelector('h3')!.textContent).toBe('Pre-dive');
  });
});
