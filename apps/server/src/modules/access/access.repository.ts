import { sql, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import type { Viewer } from './access.rules.js';
import type { ArchiveRecord } from './archive.js';

export type RecordKind = 'cruise' | 'lowering';

type ListColumn = 'cruise_access_list' | 'lowering_access_list' | 'cruise_tags' | 'lowering_tags';

/**
 * True when a JSON string-array column holds `value` exactly. Lists are written with
 * JSON.stringify, so the element appears as its JSON text; a plain substring test on that text is
 * exact (case-sensitive, no wildcards) on both engines. The one dialect-specific query here.
 */
export function jsonListContains(dialect: Dialect, column: ListColumn, value: string): RawBuilder<SqlBool> {
  const needle = JSON.stringify(value);
  return dialect === 'postgres'
    ? sql<SqlBool>`strpos(${sql.ref(column)}, ${needle}) > 0`
    : sql<SqlBool>`instr(${sql.ref(column)}, ${needle}) > 0`;
}

/**
 * The list filter for a non-admin (see access.rules.ts `isListedFor`), as SQL. Admins get no
 * condition (undefined).
 */
export function listedForCondition(
  dialect: Dialect,
  kind: RecordKind,
  viewer: Viewer,
  useAccessControl: boolean,
): RawBuilder<SqlBool> | undefined {
  if (viewer.isAdmin) return undefined;
  if (viewer.archive) {
    const ids = viewer.archive.listed(kind);
    return ids.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`id in (${sql.join(ids)})`;
  }
  const hidden = sql.ref(`${kind}_hidden`);
  const list = sql.ref(`${kind}_access_list`);
  // A copied record with a list is for admins only (`shipRestricted` in access.rules.ts).
  const notShipRestricted = sql<SqlBool>`(${list} = '[]' or not ${copiedRecord(kind, sql.ref('id'))})`;
  if (!useAccessControl) return sql<SqlBool>`(${hidden} = 0 and ${notShipRestricted})`;
  const member = jsonListContains(dialect, `${kind}_access_list`, viewer.userId);
  return sql<SqlBool>`(${notShipRestricted} and (${member} or (${hidden} = 0 and ${list} = '[]')))`;
}

/** The ship the record (its id column given) was copied from (sync_origins); null: made here. */
export function originOf(kind: RecordKind, id: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<
    string | null
  >`(select o.ship_id from sync_origins o where o.record_type = ${kind} and o.record_id = ${id})`;
}

/** True when the record (its id column given) was copied from a followed ship (sync_origins). */
export function copiedRecord(kind: RecordKind, id: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from sync_origins o where o.record_type = ${kind} and o.record_id = ${id})`;
}

/**
 * The record with its ship restriction read (`AccessFields.shipRestricted`): a copied record with a
 * non-empty access list. Reads the database only for a record that has a list.
 */
export async function shipRestriction<F extends { accessList: readonly string[] }>(
  db: Kysely<DB> | Transaction<DB>,
  kind: RecordKind,
  id: string,
  fields: F,
): Promise<F & { shipRestricted: boolean }> {
  if (fields.accessList.length === 0) return { ...fields, shipRestricted: false };
  const row = await db
    .selectFrom('sync_origins')
    .select('ship_id')
    .where('record_type', '=', kind)
    .where('record_id', '=', id)
    .executeTakeFirst();
  return { ...fields, shipRestricted: row !== undefined };
}

/** Adds and removes user ids in an access list, keeping order and never duplicating an id. */
export function applyAccessChange(
  list: readonly string[],
  change: { add?: readonly string[]; remove?: readonly string[] },
): string[] {
  const removed = new Set(change.remove ?? []);
  const out = list.filter((id) => !removed.has(id));
  for (const id of change.add ?? []) if (!out.includes(id)) out.push(id);
  return out;
}

/** Access lists of cruises and lowerings: JSON arrays of user ids. */
export class AccessListsRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  /** The ids among `ids` that are existing users. */
  async existingUserIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Applies an add/remove change to the access lists of the given cruises or lowerings. */
  async changeLists(
    kind: RecordKind,
    recordIds: readonly string[],
    change: { add?: readonly string[]; remove?: readonly string[] },
  ): Promise<void> {
    if (recordIds.length === 0) return;
    if (kind === 'cruise') {
      const rows = await this.db
        .selectFrom('cruises')
        .select(['id', 'cruise_access_list'])
        .where('id', 'in', [...recordIds])
        .execute();
      for (const row of rows) {
        const list = applyAccessChange(parseJson<string[]>(row.cruise_access_list, []), change);
        await this.db
          .updateTable('cruises')
          .set({ cruise_access_list: JSON.stringify(list) })
          .where('id', '=', row.id)
          .execute();
      }
    } else {
      const rows = await this.db
        .selectFrom('lowerings')
        .select(['id', 'lowering_access_list'])
        .where('id', 'in', [...recordIds])
        .execute();
      for (const row of rows) {
        const list = applyAccessChange(parseJson<string[]>(row.lowering_access_list, []), change);
        await this.db
          .updateTable('lowerings')
          .set({ lowering_access_list: JSON.stringify(list) })
          .where('id', '=', row.id)
          .execute();
      }
    }
  }

  /** Removes a deleted user from every cruise and lowering access list. */
  async removeUserEverywhere(userId: string): Promise<void> {
    const needle = `%"${userId}"%`;
    const cruises = await this.db
      .selectFrom('cruises')
      .select(['id', 'cruise_access_list'])
      .where('cruise_access_list', 'like', needle)
      .execute();
    for (const c of cruises) {
      const list = parseJson<string[]>(c.cruise_access_list, []).filter((u) => u !== userId);
      await this.db
        .updateTable('cruises')
        .set({ cruise_access_list: JSON.stringify(list) })
        .where('id', '=', c.id)
        .execute();
    }
    const lowerings = await this.db
      .selectFrom('lowerings')
      .select(['id', 'lowering_access_list'])
      .where('lowering_access_list', 'like', needle)
      .execute();
    for (const l of lowerings) {
      const list = parseJson<string[]>(l.lowering_access_list, []).filter((u) => u !== userId);
      await this.db
        .updateTable('lowerings')
        .set({ lowering_access_list: JSON.stringify(list) })
        .where('id', '=', l.id)
        .execute();
    }
  }
}

/** What stands for a stored access list that cannot be read: no user id (a hex ObjectId) equals it. */
const unreadableList = '(unreadable access list)';

/**
 * A stored access list as the rules read it. One that cannot be read (not JSON, not a list) shuts
 * everyone but admins out, as the SQL conditions do (a list other than `[]` without the caller),
 * and is never read as no list at all.
 */
function storedAccessList(raw: string | null): string[] {
  if (raw === null || raw === '' || raw === '[]') return [];
  const parsed = parseJson<unknown>(raw, undefined);
  if (!Array.isArray(parsed) || parsed.length === 0) return [unreadableList];
  return parsed.map((u) => (typeof u === 'string' ? u : unreadableList));
}

/** Every cruise and lowering as the archive rule reads them (modules/access/archive.ts). */
export async function archiveRecords(db: Kysely<DB> | Transaction<DB>): Promise<ArchiveRecord[]> {
  // Copied records are named in sync_origins (ship-to-shore) with their ship; the archive closes
  // those with a list, and a closed cruise's time is opened only by dives of its own origin.
  const origin = (kind: RecordKind, table: 'cruises' | 'lowerings') => originOf(kind, sql.ref(`${table}.id`));
  const cruises = await db
    .selectFrom('cruises')
    .select([
      'id',
      'start_ts',
      'stop_ts',
      'cruise_hidden as hidden',
      'cruise_public as pub',
      'cruise_embargo_until as until',
      'cruise_access_list as list',
      origin('cruise', 'cruises').as('origin'),
    ])
    .execute();
  const lowerings = await db
    .selectFrom('lowerings')
    .select([
      'id',
      'start_ts',
      'stop_ts',
      'lowering_hidden as hidden',
      'lowering_public as pub',
      'lowering_embargo_until as until',
      'lowering_access_list as list',
      origin('lowering', 'lowerings').as('origin'),
    ])
    .execute();
  const of =
    (kind: RecordKind) =>
    (r: (typeof cruises)[number] | (typeof lowerings)[number]): ArchiveRecord => ({
      kind,
      id: r.id,
      start: Number(r.start_ts),
      stop: Number(r.stop_ts),
      hidden: !!r.hidden,
      isPublic: r.pub === null ? null : !!r.pub,
      embargoUntil: r.until === null ? null : Number(r.until),
      accessList: storedAccessList(r.list),
      copied: r.origin !== null,
      origin: r.origin,
    });
  return [...cruises.map(of('cruise')), ...lowerings.map(of('lowering'))];
}
