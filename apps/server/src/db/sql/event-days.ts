/**
 * Events per UTC day (`event_value_days`, migration 010): the day of a time, in TypeScript and as
 * SQLite SQL. Migration 010 generates its triggers from it: its SQL must stay as it
 * is (db/migrations/frozen.test.ts).
 */

/** A UTC day in ms; day d holds ts in [d × dayMs, (d + 1) × dayMs). */
export const eventDayMs = 86_400_000;

/** The day of an epoch-ms time (floor, also before 1970). */
export function eventDay(ts: number): number {
  return Math.floor(ts / eventDayMs);
}

/** `eventDay` as an SQLite expression (its integer `/` truncates toward zero). */
export function sqliteDay(ts: string): string {
  return `(CASE WHEN ${ts} >= 0 THEN ${ts} / ${eventDayMs} ELSE -((-${ts} - 1) / ${eventDayMs}) - 1 END)`;
}
