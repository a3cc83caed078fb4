import type { RecordOrigin } from '@bathylog/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { internalChannels } from '../realtime/internal-channels.js';

/**
 * A record's origin: this server, or the ship it was copied from (docs/ship-to-shore.md#read-only-on-shore).
 * The ship-to-shore follower records each copy in `sync_origins`; this layer, below the modules,
 * answers where a record came from and guards every route that changes one (origin-guard.ts).
 *
 * The record types whose origin is looked up: answers mark cruises, lowerings and events; the
 * read-only rule also guards aux data and templates.
 */
export type OriginRecordType = 'cruise' | 'lowering' | 'event' | 'event_aux_data' | 'event_template';

/** Ids per lookup: well under every engine's bound-parameter limit. */
const idsPerQuery = 900;
/** How long "this server follows no ship" is believed without a change of the ships being heard. */
const noShipsTtlMs = 10_000;

interface ShipsKnown {
  any: boolean;
  at: number;
}

const known = new WeakMap<AppContext, ShipsKnown>();
const listening = new WeakSet<AppContext>();

/**
 * Whether this server follows any ship or holds records copied from one (those of a ship it no
 * longer follows stay read-only): a server that does neither (a ship's own console) skips every
 * origin lookup. Remembered per server, forgotten when the ships change.
 */
export async function followsShips(ctx: AppContext, db: Kysely<DB> = ctx.database.db): Promise<boolean> {
  if (!listening.has(ctx)) {
    listening.add(ctx);
    ctx.bus.subscribe(internalChannels.shipsChanged, () => known.delete(ctx));
  }
  const seen = known.get(ctx);
  if (seen && (seen.any || ctx.now() - seen.at < noShipsTtlMs)) return seen.any;
  const any =
    (await db.selectFrom('sync_ships').select('id').limit(1).executeTakeFirst()) !== undefined ||
    (await db.selectFrom('sync_origins').select('ship_id').limit(1).executeTakeFirst()) !== undefined;
  known.set(ctx, { any, at: ctx.now() });
  return any;
}

/** The ship one record was copied from, if any (none looked up on a server that follows no ship). */
export async function recordOrigin(
  ctx: AppContext,
  type: OriginRecordType,
  id: string,
): Promise<RecordOrigin | undefined> {
  return (await recordOrigins(ctx, type, [id.toLowerCase()])).get(id.toLowerCase());
}

/**
 * The origins of the listed records copied from a ship, by id: one query for a page of ids (never
 * one per record), none at all on a server that follows no ship.
 */
export async function recordOrigins(
  ctx: AppContext,
  type: OriginRecordType,
  ids: readonly string[],
): Promise<Map<string, RecordOrigin>> {
  const out = new Map<string, RecordOrigin>();
  if (ids.length === 0 || !(await followsShips(ctx))) return out;
  for (let i = 0; i < ids.length; i += idsPerQuery) {
    // A ship no longer followed keeps its records read-only under the name it had (sync_former_ships).
    const rows = await ctx.database.db
      .selectFrom('sync_origins')
      .leftJoin('sync_ships', 'sync_ships.id', 'sync_origins.ship_id')
      .leftJoin('sync_former_ships', 'sync_former_ships.id', 'sync_origins.ship_id')
      .select(['sync_origins.record_id', 'sync_origins.ship_id', 'sync_ships.name', 'sync_former_ships.name as former'])
      .where('sync_origins.record_type', '=', type)
      .where('sync_origins.record_id', 'in', ids.slice(i, i + idsPerQuery))
      .execute();
    for (const r of rows) {
      out.set(r.record_id, { ship_id: r.ship_id, ship_name: r.name ?? r.former ?? 'a ship no longer followed' });
    }
  }
  return out;
}

/** `,"origin":{…}` to close an event's pre-serialised JSON with, or '' for the server's own record. */
export function originJson(origin: RecordOrigin | undefined): string {
  return origin ? `,"origin":${JSON.stringify({ ship_id: origin.ship_id, ship_name: origin.ship_name })}` : '';
}

/** A JSON list of cruises or lowerings with the origin of each copied from a ship; CSV as it is. */
export async function withOrigins<R extends { kind: 'json' | 'csv'; body: unknown }>(
  ctx: AppContext,
  type: OriginRecordType,
  read: R,
): Promise<R> {
  if (read.kind !== 'json' || !Array.isArray(read.body)) return read;
  const records = read.body as Array<{ id: string }>;
  const origins = await recordOrigins(
    ctx,
    type,
    records.map((r) => r.id),
  );
  if (origins.size === 0) return read;
  return { ...read, body: records.map((r) => (origins.has(r.id) ? { ...r, origin: origins.get(r.id) } : r)) };
}

/**
 * Which of these ids are records copied from a ship, read in `db` (a bulk delete's transaction):
 * a bulk delete on a shore leaves them out (docs/ship-to-shore.md#bulk-deletes-on-shore).
 */
export async function copiedIds(
  ctx: AppContext,
  db: Kysely<DB>,
  type: OriginRecordType,
  ids: readonly string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  // Read in the transaction too: on SQLite a read beside it would wait for it to end.
  if (ids.length === 0 || !(await followsShips(ctx, db))) return out;
  for (let i = 0; i < ids.length; i += idsPerQuery) {
    const rows = await db
      .selectFrom('sync_origins')
      .select('record_id')
      .where('record_type', '=', type)
      .where('record_id', 'in', ids.slice(i, i + idsPerQuery))
      .execute();
    for (const r of rows) out.add(r.record_id);
  }
  return out;
}
