import {
  eventCommentOptionName,
  toIso,
  type EventOption,
  type SyncChangesPage,
  type SyncComment,
  type SyncStatus,
  wsChannels,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import { recordChange } from '../audit/audit.js';
import { toWireEvent } from '../events/event-output.js';
import type { FeedReader } from './feed-reader.js';
import { SyncFeedService } from './sync-feed.service.js';
import { internalChannels } from '../../realtime/internal-channels.js';

/**
 * Channels whose messages mean the feed may have grown (docs/ship-to-shore.md#waiting-for-changes):
 * every record channel (new, update, delete). One too many only costs a read of the feed.
 */
const feedChannels = wsChannels.filter((channel) => /^(new|update|delete)[A-Z]/.test(channel));
/** After a change is heard, the feed is read again this often for a while (a commit may still be on its way). */
const recheckMs = 200;
const recheckForMs = 2000;

/**
 * The ship side besides the feed: who follows (each shore's device key, its cursor and last
 * contact), and comments written on shore (docs/ship-to-shore.md#comments-from-shore).
 */
export class SyncShipService {
  readonly feed: SyncFeedService;

  constructor(private readonly ctx: AppContext) {
    this.feed = new SyncFeedService(ctx);
  }

  /** A device key asked for changes after `cursor`: it follows from there. */
  async noteFollower(caller: AuthContext, cursor: string | undefined): Promise<void> {
    if (!caller.key) return;
    const row = { key_id: caller.key.id, cursor: cursor ?? null, last_contact: this.ctx.now() };
    await this.ctx.database.db
      .insertInto('sync_followers')
      .values(row)
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ cursor: row.cursor, last_contact: row.last_contact }))
      .execute();
  }

  /**
   * The changes after `after`; when there are none, waits up to `waitMs` for one (a message on a
   * record channel, then the feed read again) so a follower hears of it at once without polling.
   * What the follower may read is asked again at each read (`readerOf`), so a record restricted
   * while it waits is already left out of the page that answers it.
   */
  async changes(
    readerOf: () => Promise<FeedReader>,
    after: string | undefined,
    maxBytes: number | undefined,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<SyncChangesPage> {
    if (waitMs <= 0) return this.feed.changes(await readerOf(), after, maxBytes);
    const deadline = Date.now() + waitMs;
    let heardAt = 0;
    let wake: (() => void) | null = null;
    // Listening before the first read: a change committed meanwhile is not missed.
    const heard = () => {
      heardAt = Date.now();
      wake?.();
    };
    const offs = [
      ...feedChannels.map((channel) => this.ctx.bus.subscribe(channel, heard)),
      this.ctx.bus.subscribe(internalChannels.recordingsChanged, heard),
    ];
    try {
      let page = await this.feed.changes(await readerOf(), after, maxBytes);
      while (page.changes.length === 0 && !page.more && !signal.aborted && Date.now() < deadline) {
        // Heard of a change lately: look again soon; otherwise sleep until the next one.
        const recent = heardAt > 0 && Date.now() - heardAt < recheckForMs;
        const ms = Math.min(deadline - Date.now(), recent ? recheckMs : deadline - Date.now());
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = null;
            resolve();
          };
          const timer = setTimeout(done, ms);
          signal.addEventListener('abort', done, { once: true });
          if (!recent) wake = done;
        });
        if (signal.aborted) break;
        page = await this.feed.changes(await readerOf(), after, maxBytes);
      }
      return page;
    } finally {
      for (const off of offs) off();
    }
  }

  async status(): Promise<SyncStatus> {
    const db = this.ctx.database.db;
    const rows = await db
      .selectFrom('sync_followers')
      .leftJoin('device_keys', 'device_keys.id', 'sync_followers.key_id')
      .select(['sync_followers.key_id', 'sync_followers.cursor', 'sync_followers.last_contact', 'device_keys.name'])
      .orderBy('device_keys.name')
      .execute();
    const followers: SyncStatus['followers'] = [];
    for (const r of rows) {
      const behind = await this.feed.behind(r.cursor).catch(() => ({ records: 0, bytes: 0 }));
      followers.push({
        key_id: r.key_id,
        key_name: r.name ?? r.key_id,
        last_contact: toIso(Number(r.last_contact)),
        cursor: r.cursor,
        behind_records: behind.records,
        behind_bytes: behind.bytes,
      });
    }
    return { role: 'ship', head: await this.feed.head(), followers };
  }

  /**
   * A comment written on shore: it becomes the event's comment here, as the Event Details comment
   * does, on an event the follower may read (another is answered as a missing one). The audit
   * trail records the key (or admin) that sent it as the actor, named `<shore user> (via <key>)`:
   * the shore names its user, the ship vouches only for the key
   * (docs/security.md#device-keys-and-the-change-feed).
   */
  async comment(caller: AuthContext, reader: FeedReader, body: SyncComment): Promise<void> {
    const id = body.event_id.toLowerCase();
    const by = { ...caller, user: { ...caller.user, username: shoreAuthor(caller, body.author) } };
    const event = await this.ctx.database.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
      if (!existing || !reader.access.maySee(Number(existing.ts))) {
        throw new AppError('NOT_FOUND', `No event record found for id: ${id}`);
      }
      const options = parseJson<EventOption[]>(existing.event_options, []).filter(
        (o) => o.event_option_name !== eventCommentOptionName,
      );
      if (body.text.trim() !== '')
        options.push({ event_option_name: eventCommentOptionName, event_option_value: body.text });
      const patch = { event_options: JSON.stringify(options) };
      await trx.updateTable('events').set(patch).where('id', '=', id).execute();
      const updated = toWireEvent({ ...existing, ...patch, ts: Number(existing.ts) });
      await recordChange(trx, by, {
        action: 'comment',
        record_type: 'event',
        record_id: id,
        old_value: toWireEvent(existing),
        new_value: updated,
      });
      return updated;
    });
    this.ctx.bus.publish('updateEvents', event);
  }
}

/** The audit trail's name for a comment from shore: the shore's user, through the key (or admin) that sent it. */
export function shoreAuthor(caller: AuthContext, author: string): string {
  return `${author} (via ${caller.user.username})`;
}
