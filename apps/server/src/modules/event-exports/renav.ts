import type { EventItem } from '../events/event-output.js';

/** Which aux sources hold post-processed (renav) and realtime navigation (config `renav`). */
export interface RenavSources {
  sources: readonly string[];
  realtimeSources: readonly string[];
}

/**
 * An export item with `use_renav=true` (docs/sealog-clients.md#exports-with-renav): when the event
 * holds a record of a renav source, its realtime navigation records are left out, so the export
 * shows one navigation, the post-processed one; an event without renav keeps its realtime
 * navigation. Other aux records are untouched.
 */
export function preferRenav(item: EventItem, renav: RenavSources): EventItem {
  const aux = item.aux;
  if (!aux || !aux.some((a) => renav.sources.includes(a.data_source))) return item;
  return { ...item, aux: aux.filter((a) => !renav.realtimeSources.includes(a.data_source)) };
}
