import { describe, expect, it } from 'vitest';
import type { Ship } from '@bathylog/shared';
import { mergeShip } from './ships';

const ship = (id: string, state: Ship['state']): Ship => ({
  id,
  name: id,
  url: `https://${id}.example.org`,
  enabled: true,
  bandwidth_kbps: null,
  state,
  last_contact: null,
  last_error: null,
  cursor: null,
  behind_records: 0,
  behind_bytes: 0,
  queued_files: 0,
  queued_bytes: 0,
  records: { cruises: 0, lowerings: 0, events: 0, aux_data: 0, files: 0 },
  refused_changes: 0,
  refusals: [],
});

describe('mergeShip (a ships channel push into the cached list)', () => {
  it('replaces the ship in place and keeps the others', () => {
    const list = [ship('a', 'offline'), ship('b', 'following')];
    expect(mergeShip(list, ship('a', 'following'))).toEqual([ship('a', 'following'), ship('b', 'following')]);
    expect(list[0]!.state).toBe('offline');
  });

  it('adds a ship another admin added, and leaves a list not yet read alone', () => {
    expect(mergeShip([ship('a', 'offline')], ship('c', 'catching_up'))).toEqual([
      ship('a', 'offline'),
      ship('c', 'catching_up'),
    ]);
    expect(mergeShip(undefined, ship('c', 'catching_up'))).toBeUndefined();
  });
});
