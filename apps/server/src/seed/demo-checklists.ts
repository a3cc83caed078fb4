import type { Insertable, Transaction } from 'kysely';
import type { ChecklistItem } from '@bathylog/shared';
import type { DB } from '../db/schema.js';

/**
 * The demo's sample checklists (docs/checklists.md#demo): a pre-dive one whose first item holds while
 * ASNAP is on, and a post-dive one. Added on the demo's first load only, so an admin's edits stay.
 */
const samples: Array<{ id: string; name: string; phase: string; order: number; items: ChecklistItem[] }> = [
  {
    id: '5f00c0ec0000000000000001',
    name: 'Pre-dive',
    phase: 'pre_dive',
    order: 0,
    items: [
      {
        id: 'asnap',
        label: 'ASNAP on',
        kind: 'auto',
        condition: { type: 'custom_var', name: 'asnapStatus', equals: 'On' },
      },
      {
        id: 'disk',
        label: 'At least 10 GB free on the data disk',
        kind: 'auto',
        condition: { type: 'free_disk', min_bytes: 10_000_000_000 },
      },
      { id: 'cameras', label: 'Cameras recording', kind: 'manual' },
      { id: 'comms', label: 'Comms check with the pilots', kind: 'manual' },
      { id: 'ballast', label: 'Ballast and trim checked', kind: 'manual' },
    ],
  },
  {
    id: '5f00c0ec0000000000000002',
    name: 'Post-dive',
    phase: 'post_dive',
    order: 1,
    items: [
      { id: 'samples', label: 'Samples labelled and logged', kind: 'manual' },
      { id: 'video', label: 'Video copied to the archive disk', kind: 'manual' },
      { id: 'summary', label: 'Dive summary written', kind: 'manual' },
    ],
  },
];

export async function insertDemoChecklists(trx: Transaction<DB>, now: number): Promise<void> {
  const rows: Array<Insertable<DB['checklists']>> = samples.map((s) => ({
    id: s.id,
    name: s.name,
    phase: s.phase,
    items: JSON.stringify(s.items),
    sort_order: s.order,
    created_at: now,
    updated_at: now,
  }));
  await trx
    .insertInto('checklists')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}
