import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { clientSettingsSchema, type Cruise } from '@bathylog/shared';
import { SettingsProvider } from '../../../lib/settings';
import { ActiveCruiseChoice, useActiveCruise } from './active-cruise';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function cruise(id: string, cruiseId: string, start: string): Cruise {
  return {
    id,
    cruise_id: cruiseId,
    start_ts: start,
    stop_ts: '2099-12-31T23:59:59.000Z',
    cruise_location: '',
    cruise_tags: [],
    cruise_hidden: false,
    cruise_access_list: [],
    cruise_additional_meta: {},
  } as unknown as Cruise;
}

const newer = cruise('6981f0c4a1b2c3d4e5f60702', 'AT50-02', '2026-11-20T00:00:00.000Z');
const older = cruise('6981f0c4a1b2c3d4e5f60701', 'AT50-01', '2026-11-01T00:00:00.000Z');

/** The cruises covering now, as the server lists them (newest start first). */
function serve(cruises: Cruise[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(cruises), { status: 200, headers: { 'content-type': 'application/json' } }),
    ),
  );
}

function Managed() {
  const active = useActiveCruise();
  return (
    <>
      <ActiveCruiseChoice active={active} />
      <p data-testid="managed">{active.chosen?.cruise_id ?? 'none'}</p>
    </>
  );
}

function renderManaged() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <SettingsProvider settings={clientSettingsSchema.parse({})}>
      <QueryClientProvider client={client}>
        <Managed />
      </QueryClientProvider>
    </SettingsProvider>,
  );
}

describe('the cruise active now', () => {
  it('warns when two cruises cover today and lets the user manage the other one; the choice is kept', async () => {
    serve([newer, older]);
    renderManaged();
    const warning = await screen.findByTestId('overlapping-cruises');
    expect(warning.textContent).toContain('2 cruises cover today (AT50-02, AT50-01): their dates overlap.');
    expect(screen.getByTestId('managed').textContent).toBe('AT50-02');
    fireEvent.change(screen.getByRole('combobox', { name: 'Cruise to manage' }), { target: { value: older.id } });
    expect(screen.getByTestId('managed').textContent).toBe('AT50-01');
    // Another screen (or a reload) manages the same cruise.
    cleanup();
    renderManaged();
    await screen.findByTestId('overlapping-cruises');
    expect(screen.getByTestId('managed').textContent).toBe('AT50-01');
  });

  it('says nothing when one cruise covers today', async () => {
    serve([newer]);
    renderManaged();
    await vi.waitFor(() => expect(screen.getByTestId('managed').textContent).toBe('AT50-02'));
    expect(screen.queryByTestId('overlapping-cruises')).toBeNull();
  });
});
