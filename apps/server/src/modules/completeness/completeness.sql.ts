import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { exemptEventValues, type CompletenessSettings } from './completeness.rules.js';

/**
 * The SQL twin of `judge` (completeness.rules.ts) for one event row: true when the event is
 * `incomplete` at `now` (docs/completeness.md#states). Used by the event lists' `completeness=incomplete`.
 */
export function incompleteCondition(
  dialect: Dialect,
  settings: CompletenessSettings,
  eventId: RawBuilder<unknown>,
  ts: RawBuilder<unknown>,
  eventValue: RawBuilder<unknown>,
  now: number,
): RawBuilder<boolean> {
  if (settings.sources.length === 0) return sql<boolean>`1 = 0`;
  const sources = sql.join(settings.sources);
  const stale = staleCondition(dialect, sql.ref('ca.data_array'), settings.maxAgeSeconds);
  return sql<boolean>`(${ts} <= ${now - settings.graceMs} AND ${eventValue} NOT IN (${sql.join(exemptEventValues)}) AND (
    (SELECT count(*) FROM event_aux_data ca WHERE ca.event_id = ${eventId} AND ca.data_source IN (${sources})) < ${settings.sources.length}
    OR EXISTS (SELECT 1 FROM event_aux_data ca WHERE ca.event_id = ${eventId} AND ca.data_source IN (${sources}) AND ${stale})))`;
}

/** The record's data_array has a `data_age` above `maxAge` seconds (a cheap LIKE first). */
function staleCondition(dialect: Dialect, dataArray: RawBuilder<unknown>, maxAge: number): RawBuilder<boolean> {
  if (dialect === 'sqlite') {
    return sql<boolean>`(${dataArray} LIKE '%data_age%' AND EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(${dataArray}) THEN ${dataArray} ELSE '[]' END) j
      WHERE json_extract(j.value, '$.data_name') = 'data_age' AND CAST(json_extract(j.value, '$.data_value') AS REAL) > ${maxAge}))`;
  }
  return sql<boolean>`(${dataArray} LIKE '%data_age%' AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${dataArray}::jsonb) = 'array' THEN ${dataArray}::jsonb ELSE '[]'::jsonb END) j
      WHERE j->>'data_name' = 'data_age' AND substring(j->>'data_value' from '^\\s*([0-9]+(?:\\.[0-9]*)?)')::float8 > ${maxAge}))`;
}
