import { toIso, type Lowering } from '@bathylog/shared';
import type { RecordWireOptions } from '../records/records.repository.js';
import type { LoweringRecord } from './lowerings.repository.js';

/** The wire shape of a lowering (key order as Sealog wrote it, id last: docs/wire.md#identifiers). */
export function toWireLowering(l: LoweringRecord, opts: RecordWireOptions): Lowering {
  const meta: Record<string, unknown> = { ...l.lowering_additional_meta };
  delete meta.lowering_files;
  if (opts.files) meta.lowering_files = opts.files;
  return {
    lowering_id: l.lowering_id,
    start_ts: toIso(l.start_ts),
    stop_ts: toIso(l.stop_ts),
    lowering_additional_meta: meta as Lowering['lowering_additional_meta'],
    lowering_location: l.lowering_location,
    lowering_tags: l.lowering_tags,
    lowering_hidden: l.lowering_hidden,
    ...(opts.useAccessControl ? { lowering_access_list: l.lowering_access_list } : {}),
    ...(opts.publicArchive
      ? {
          lowering_public: l.lowering_public,
          lowering_embargo_until: l.lowering_embargo_until === null ? null : toIso(l.lowering_embargo_until),
        }
      : {}),
    id: l.id,
  };
}
