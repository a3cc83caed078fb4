import { describe, expect, it } from 'vitest';
import type { Cruise, Lowering } from '@bathylog/shared';
import { activeCruise, groupByYear, inTimeOrder, latestLowering } from './cruise-menu-state';
import { executeOutputLine } from '../../domain/records/components/execute-modal';

const cruise = (id: string, start: string, stop: string): Cruise => ({
  id,
  cruise_id: id,
  start_ts: start,
  stop_ts: stop,
  cruise_location: '',
  cruise_tags: [],
  cruise_hidden: false,
  cruise_additional_meta: {},
});

const lowering = (id: string, start: string): Lowering => ({
  id,
  lowering_id: id,
  start_ts: start,
  stop_ts: start,
  lowering_location: '',
  lowering_tags: [],
  lowering_hidden: false,
  lowering_additional_meta: {},
});

describe('cruise menu rules', () => {
  const list = [
    cruise('B', '2024-06-01T00:00:00.000Z', '2024-06-30T23:59:59.000Z'),
    cruise('A', '2024-01-01T00:00:00.000Z', '2024-01-10T23:59:59.000Z'),
    // Starts on 31 December in UTC: its year is the UTC year.
    cruise('C', '2022-12-31T23:30:00.000Z', '2023-01-05T00:00:00.000Z'),
  ];

  it('groups cruises by UTC start year, newest year first, server order inside', () => {
    expect(groupByYear(list).map((g) => [g.year, g.cruises.map((c) => c.cruise_id)])).toEqual([
      [2024, ['B', 'A']],
      [2022, ['C']],
    ]);
  });

  it('finds the cruise covering now, if any', () => {
    expect(activeCruise(list, Date.parse('2024-06-15T12:00:00Z'))?.cruise_id).toBe('B');
    expect(activeCruise(list, Date.parse('2024-03-01T00:00:00Z'))).toBeNull();
  });

  it('orders lowerings by time and picks the latest', () => {
    const dives = [lowering('L2', '2024-06-03T00:00:00Z'), lowering('L1', '2024-06-02T00:00:00Z')];
    expect(inTimeOrder(dives).map((l) => l.id)).toEqual(['L1', 'L2']);
    expect(latestLowering(dives)?.id).toBe('L2');
    expect(latestLowering([])).toBeNull();
  });
});

describe('execute output lines', () => {
  it('drops the log prefix up to the first " - " and turns the first tab into two spaces', () => {
    expect(executeOutputLine('2024-01-01 12:00:00 - INFO - exporting S0492')).toBe('INFO - exporting S0492');
    expect(executeOutputLine('a\tb\tc')).toBe('a  b\tc');
    expect(executeOutputLine('Process exited with code: 0')).toBe('Process exited with code: 0');
  });
});
