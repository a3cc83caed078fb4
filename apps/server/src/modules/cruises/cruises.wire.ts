import { toIso, type Cruise } from '@bathylog/shared';
import type { RecordWireOptions } from '../records/records.repository.js';
import type { CruiseRecord } from './cruises.repository.js';

/** The wire shape of a cruise (key order as Sealog wrote it, id last: docs/wire.md#identifiers). */
export function toWireCruise(c: CruiseRecord, opts: RecordWireOptions): Cruise {
  const meta: Record<string, unknown> = { ...c.cruise_additional_meta };
  delete meta.cruise_files;
  if (opts.files) meta.cruise_files = opts.files;
  return {
    cruise_id: c.cruise_id,
    cruise_location: c.cruise_location,
    start_ts: toIso(c.start_ts),
    stop_ts: toIso(c.stop_ts),
    cruise_additional_meta: meta as Cruise['cruise_additional_meta'],
    cruise_tags: c.cruise_tags,
    cruise_hidden: c.cruise_hidden,
    ...(opts.useAccessControl ? { cruise_access_list: c.cruise_access_list } : {}),
    ...(opts.publicArchive
      ? {
          cruise_public: c.cruise_public ?? false,
          cruise_embargo_until: c.cruise_embargo_until === null ? null : toIso(c.cruise_embargo_until),
        }
      : {}),
    id: c.id,
  };
}
