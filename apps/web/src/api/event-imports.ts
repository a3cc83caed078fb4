import { api } from './client';

/**
 * The admin tasks' calls (docs/screens.md#tasks): event and aux-data records from export files, and the
 * wipe of every event and aux-data record.
 */

/** POST /events with a record's own id, time and author (import). */
export async function postEventRecord(body: Record<string, unknown>): Promise<void> {
  await api.post('events', body);
}

/**
 * POST /event_aux_data is an upsert: 201 when it created the record, 204 (no body) when it
 * replaced the data of an existing one. Answers which of the two happened.
 */
export async function postAuxDataRecord(body: Record<string, unknown>): Promise<'created' | 'replaced'> {
  const res = await api.post<{ insertedId?: string } | undefined>('event_aux_data', body);
  return res?.insertedId ? 'created' : 'replaced';
}

/** DELETE /events/all: every event and every aux-data record. */
export async function wipeAllEvents(): Promise<void> {
  await api.delete('events/all');
}
