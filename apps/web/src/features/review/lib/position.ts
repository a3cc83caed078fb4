import { positionRecordOf, readAuxPosition, type EventAuxData } from '@bathylog/shared';
import type { MapPosition } from '../../../components/maps/dive-map';

/**
 * Where the selected event was (docs/screens.md#track-and-position): its record of the track's source (or,
 * before the track is known, the first configured source it has), by the one position rule.
 * null when it has none, the record cannot be read, or the fix is zero.
 */
export function eventPosition(
  auxData: ReadonlyArray<Pick<EventAuxData, 'data_source' | 'data_array'>>,
  sources: readonly string[],
): MapPosition | null {
  const record = positionRecordOf(auxData, sources);
  if (!record) return null;
  const reading = readAuxPosition(record);
  if (!reading.ok || reading.position.lat === null || reading.position.lon === null) return null;
  return { lat: reading.position.lat, lon: reading.position.lon };
}
