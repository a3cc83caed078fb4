import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { clientSettingsSchema, type Cruise } from '@bathylog/shared';
import { SettingsProvider } from '../../lib/settings';
import { CruiseForm, overlappingCruises } from './cruise-form';

afterEach(cleanup);

const leg1 = {
  id: '6981f0c4a1b2c3d4e5f60701',
  cruise_id: 'AT50-01',
  start_ts: '2026-11-01T00:00:00.000Z',
  stop_ts: '2026-11-20T23:59:59.000Z',
} as Cruise;

describe('overlapping cruise dates', () => {
  it('finds the cruises sharing a day with the typed dates, never the cruise itself', () => {
    expect(overlappingCruises('2026-11-20', '2026-11-30', [leg1], null)).toEqual([leg1]);
    expect(overlappingCruises('2026-11-21', '2026-11-30', [leg1], null)).toEqual([]);
    expect(overlappingCruises('2026-11-02', '2026-11-03', [leg1], leg1.id)).toEqual([]);
    expect(overlappingCruises('', '2026-11-03', [leg1], null)).toEqual([]);
  });

  it('warns in the form while the dates overlap another cruise', async () => {
    render(
      <SettingsProvider settings={clientSettingsSchema.parse({})}>
        <QueryClientProvider client={new QueryClient()}>
          <CruiseForm cruise={null} isAdmin onSaved={vi.fn(async () => undefined)} others={[leg1]} />
        </QueryClientProvider>
      </SettingsProvider>,
    );
    fireEvent.input(screen.getByLabelText('Start Date (UTC)'), { target: { value: '2026-12-01' } });
    fireEvent.input(screen.getByLabelText('Stop Date (UTC)'), { target: { value: '2026-12-10' } });
    expect(screen.queryByTestId('cruise-overlap')).toBeNull();
    fireEvent.input(screen.getByLabelText('Start Date (UTC)'), { target: { value: '2026-11-15' } });
    const warning = await screen.findByTestId('cruise-overlap');
    expect(warning.textContent).toContain('These dates overlap AT50-01 (2026-11-01 → 2026-11-20).');
  });
});
