import { sql } from 'kysely';
import { hasAnyScope, mayUseAdminOnlyTemplates, type Scope, type WsChannel } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../lib/json.js';
import { readsArchive, type AuthContext } from '../../plugins/auth.js';
import { followsShips } from '../../origins/record-origins.js';
import type { ChannelAccess } from '../../realtime/channel-access.js';
import { originOf, shipRestriction, type RecordKind } from './access.repository.js';
import { archiveViewsAt } from './archive-cache.js';
import type { AccessFields } from './access.rules.js';
import type { ArchiveView } from './archive.js';
import { EventAccess, eventOrigin, mayOpenAll } from './event-access.js';

/**
 * Who may receive what on the socket. Subscribing needs the channel's read scope (the same scopes
 * the matching REST reads need); cruise, lowering and admin-only template records are further
 * filtered per delivery so that a non-admin never receives a record the REST API would not show
 * them (hidden, or not on the access list when access control is on). Event and aux-data
 * payloads follow the event rule (event-access.ts): with access control on, a
 * non-admin receives one only when they may open every cruise and lowering holding its event's ts.
 * With the public archive on, an archive reader receives only what its archive view opens
 * (archive.ts); a ship's restricted copy reaches admins only.
 */
export interface ChannelRule {
  /** The subscriber needs one of these scopes; empty = any authenticated user. */
  scopes: readonly Scope[];
  /** Which record table a delivery filter looks at, when any. */
  record?: 'cruise' | 'lowering' | 'template' | 'event' | 'aux';
  /** The payload key holding that record's id, when not `id` (a checklist run names its lowering). */
  idKey?: string;
}

const events: ChannelRule = { scopes: ['admin', 'read_events'], record: 'event' };
const auxData: ChannelRule = { scopes: ['admin', 'read_events'], record: 'aux' };
const templates: ChannelRule = { scopes: ['admin', 'read_event_templates'], record: 'template' };
const cruises: ChannelRule = { scopes: ['admin', 'read_cruises'], record: 'cruise' };
const lowerings: ChannelRule = { scopes: ['admin', 'read_lowerings'], record: 'lowering' };

export const channelRules: Record<WsChannel, ChannelRule> = {
  newEvents: events,
  updateEvents: events,
  deleteEvents: events,
  newEventAuxData: auxData,
  updateEventAuxData: auxData,
  deleteEventAuxData: auxData,
  newEventTemplates: templates,
  updateEventTemplates: templates,
  deleteEventTemplates: templates,
  updateCustomVars: { scopes: [] },
  newCruises: cruises,
  updateCruises: cruises,
  newLowerings: lowerings,
  updateLowerings: lowerings,
  // A lowering's checklist run goes to those who may open that lowering (docs/checklists.md#live-updates).
  checklists: { ...lowerings, idKey: 'lowering_id' },
  // An event's completeness follows its event, as its aux data does (the payload names the event).
  completeness: auxData,
  // Who may list users: admins and cruise managers (docs/roles-and-access.md).
  updateUsers: { scopes: ['admin', 'read_users'] },
  // The followed ships' state (docs/ship-to-shore.md#status): admins only.
  ships: { scopes: ['admin'] },
  // Managers' health holds operators' error messages: admins only (docs/aux-managers.md#health).
  auxManagers: { scopes: ['admin'] },
};

export function maySubscribe(auth: AuthContext, channel: WsChannel): boolean {
  const rule = channelRules[channel];
  return rule.scopes.length === 0 || hasAnyScope(auth.scopes, rule.scopes);
}

/** What a delivery filter needs to know about a published record. */
export interface RecordVisibility {
  /** Record not found (e.g. deleted meanwhile): only admins receive it. */
  missing: boolean;
  hidden: boolean;
  adminOnly: boolean;
  accessList: string[];
  /** Event and aux payloads: the cruises and lowerings whose window holds the event's ts. */
  containing?: AccessFields[];
  /** A copied cruise or lowering with an access list: admins only. */
  shipRestricted?: boolean;
  /** The published cruise or lowering, or the event's time: what the archive rule looks at. */
  ref?: { kind: RecordKind; id: string } | { ts: number; origin?: string | null };
  /**
   * With the archive on: the archive view of a subscriber who reads the archive (`readsArchive`),
   * undefined for others. Records are read once per publication, views made once per member.
   */
  archiveFor?: (auth: AuthContext) => ArchiveView | undefined;
}

/** The archive views of one publication's subscribers, from one read of the records (kept between publications). */
async function archiveViews(ctx: AppContext): Promise<(auth: AuthContext) => ArchiveView | undefined> {
  const viewOf = await archiveViewsAt(ctx.database.db, ctx.now());
  return (auth) => (readsArchive(ctx.config, auth) ? viewOf(auth.key ? null : auth.user.id) : undefined);
}

const flag = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

function listOf(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') {
    const parsed = parseJson<unknown>(v, undefined);
    if (Array.isArray(parsed)) return parsed.map(String);
  }
  return undefined;
}

function recordId(payload: Record<string, unknown>): string | undefined {
  const id = payload.id ?? payload._id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Reads hidden/access/admin-only facts of a published record: from the payload when it carries
 * them (API objects carry the hidden flag, and the access list when access control is on),
 * otherwise from the database. Called once per publication, not once per socket.
 */
export async function recordVisibility(
  ctx: AppContext,
  rule: ChannelRule,
  payload: unknown,
): Promise<RecordVisibility | undefined> {
  if (!rule.record) return undefined;
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const id = rule.idKey ? (typeof p[rule.idKey] === 'string' ? (p[rule.idKey] as string) : undefined) : recordId(p);
  const visibility = await plainVisibility(ctx, rule, p, id);
  if (!ctx.config.publicArchive || rule.record === 'template') return visibility;
  // Archive readers receive by the archive rule: it needs the record, or the event's time.
  const base = visibility ?? { missing: false, hidden: false, adminOnly: false, accessList: [] };
  const ref =
    rule.record === 'event' || rule.record === 'aux'
      ? base.ref
      : id !== undefined
        ? { kind: rule.record, id }
        : undefined;
  return { ...base, ...(ref ? { ref } : {}), archiveFor: await archiveViews(ctx) };
}

async function plainVisibility(
  ctx: AppContext,
  rule: ChannelRule,
  p: Record<string, unknown>,
  id: string | undefined,
): Promise<RecordVisibility | undefined> {
  if (rule.record === 'event' || rule.record === 'aux') return eventVisibility(ctx, rule.record, p);
  const db = ctx.database.db;
  if (rule.record === 'template') {
    if ('admin_only' in p) return { missing: false, hidden: false, adminOnly: flag(p.admin_only), accessList: [] };
    const row = id
      ? await db.selectFrom('event_templates').select('admin_only').where('id', '=', id).executeTakeFirst()
      : undefined;
    // A deleted template is published after it is gone: its payload is all we know.
    return { missing: false, hidden: false, adminOnly: row ? flag(row.admin_only) : false, accessList: [] };
  }
  // Cruises and lowerings: the same facts under the kind's column names.
  const kind = rule.record as RecordKind;
  const hiddenKey = `${kind}_hidden`;
  const fromPayload = listOf(p[`${kind}_access_list`]);
  if (!rule.idKey && hiddenKey in p && (fromPayload || !ctx.config.useAccessControl)) {
    const accessList = fromPayload ?? [];
    const base = { missing: false, hidden: flag(p[hiddenKey]), adminOnly: false, accessList };
    // Without access control the payload carries no list: the row says whether a copy is restricted.
    return id ? withShipRestriction(ctx, kind, id, base, !fromPayload) : base;
  }
  const row = id
    ? ((await db
        .selectFrom(kind === 'cruise' ? 'cruises' : 'lowerings')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()) as Record<string, unknown> | undefined)
    : undefined;
  if (!row) return { missing: true, hidden: true, adminOnly: false, accessList: [] };
  const base = {
    missing: false,
    hidden: flag(row[hiddenKey]),
    adminOnly: false,
    accessList: listOf(row[`${kind}_access_list`]) ?? [],
  };
  return id ? withShipRestriction(ctx, kind, id, base, false) : base;
}

/** Adds `shipRestricted` for a copied cruise or lowering with an access list. */
async function withShipRestriction(
  ctx: AppContext,
  kind: RecordKind,
  id: string,
  visibility: RecordVisibility,
  readList: boolean,
): Promise<RecordVisibility> {
  let accessList = visibility.accessList;
  if (readList) {
    const row = (await ctx.database.db
      .selectFrom(kind === 'cruise' ? 'cruises' : 'lowerings')
      .select(`${kind}_access_list as list`)
      .where('id', '=', id)
      .executeTakeFirst()) as { list: string } | undefined;
    accessList = listOf(row?.list) ?? [];
  }
  const { shipRestricted } = await shipRestriction(ctx.database.db, kind, id, { accessList });
  return shipRestricted ? { ...visibility, shipRestricted } : visibility;
}

/**
 * An event or aux-data payload: the records holding its event's time. An aux payload names its
 * event; one whose event is gone (or a payload without a time) goes to admins only.
 */
async function eventVisibility(
  ctx: AppContext,
  kind: 'event' | 'aux',
  p: Record<string, unknown>,
): Promise<RecordVisibility | undefined> {
  const db = ctx.database.db;
  let ts: number | undefined;
  const eventId = kind === 'event' ? p.id : p.event_id;
  if (kind === 'event') {
    ts = typeof p.ts === 'string' ? Date.parse(p.ts) : typeof p.ts === 'number' ? p.ts : undefined;
  } else if (typeof eventId === 'string') {
    const event = await db.selectFrom('events').select('ts').where('id', '=', eventId).executeTakeFirst();
    ts = event ? Number(event.ts) : undefined;
  }
  if (ts === undefined || Number.isNaN(ts)) return { missing: true, hidden: true, adminOnly: false, accessList: [] };
  // On a fleet shore a record judges the events of its own origin only; elsewhere time alone decides.
  const origin = typeof eventId === 'string' && (await followsShips(ctx)) ? await eventOrigin(db, eventId) : undefined;
  // With access control off only copied records with a list restrict (`shipRestricted`).
  const holding = async (kind: 'cruise' | 'lowering') => {
    const table = kind === 'cruise' ? 'cruises' : 'lowerings';
    const rows = await db
      .selectFrom(table)
      .select([`${kind}_access_list as list`, originOf(kind, sql.ref(`${table}.id`)).as('origin')])
      .where('start_ts', '<=', ts)
      .where('stop_ts', '>=', ts)
      .execute()
      .then((all) => (origin === undefined ? all : all.filter((r) => (r.origin ?? null) === origin)));
    return rows.map((r) => {
      const accessList = listOf(r.list) ?? [];
      return { hidden: false, accessList, shipRestricted: r.origin !== null && accessList.length > 0 };
    });
  };
  // Both at once: this lookup is on the way of every delivery of the publication.
  const [cruises, lowerings] = await Promise.all([holding('cruise'), holding('lowering')]);
  return {
    missing: false,
    hidden: false,
    adminOnly: false,
    accessList: [],
    containing: [...cruises, ...lowerings],
    ref: origin === undefined ? { ts } : { ts, origin },
  };
}

/** Whether this subscriber may receive this publication right now. */
export function mayReceive(
  auth: AuthContext,
  channel: WsChannel,
  visibility: RecordVisibility | undefined,
  useAccessControl: boolean,
): boolean {
  if (!maySubscribe(auth, channel)) return false;
  if (auth.isAdmin || !visibility) return true;
  if (visibility.missing) return false;
  const archive = visibility.archiveFor?.(auth);
  if (archive) {
    // What the archive reader could read over REST: an open record (a stub's payload would carry
    // what its stub leaves out), an event it may see. Access lists are in the view already.
    const ref = visibility.ref;
    if (!ref) return false;
    if ('ts' in ref) return EventAccess.ofArchive(archive, ref.origin !== undefined).maySee(ref.ts, ref.origin);
    return archive.state(ref.kind, ref.id) === 'open';
  }
  if (visibility.hidden || visibility.shipRestricted) return false;
  if (visibility.adminOnly && !mayUseAdminOnlyTemplates(auth.user.roles)) return false;
  if (visibility.containing) return mayOpenAll(auth, visibility.containing, useAccessControl);
  const rule = channelRules[channel];
  if (useAccessControl && (rule.record === 'cruise' || rule.record === 'lowering')) {
    return visibility.accessList.includes(auth.user.id);
  }
  return true;
}

/** The socket server's filter (realtime/nes-server.ts), handed to it by the app. */
export const channelAccess: ChannelAccess<RecordVisibility> = {
  maySubscribe,
  visibility: (ctx, channel, payload) => recordVisibility(ctx, channelRules[channel], payload),
  mayReceive,
  adminsOnly: { missing: true, hidden: true, adminOnly: true, accessList: [] },
};
