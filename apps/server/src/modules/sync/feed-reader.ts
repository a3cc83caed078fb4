import { followRightOf } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import { canOpenRecord, viewerOf } from '../access/access.rules.js';
import { EventAccess } from '../access/event-access.js';
import { mayViewImage } from '../files/image-access.js';
import { SyncFeedRepository } from './sync-feed.repository.js';
import type { TableRecordType } from './sync-records.js';
import { recordingArea, recordingLowering } from './sync-recordings.js';

/**
 * Who reads the change feed, its files and sends comments, and what they may read
 * (docs/security.md#device-keys-and-the-change-feed). A device key needs a follow right that an
 * admin gave it; an admin user follows everything. A `follower` key reads what the one
 * event-access rule lets the key read; a `full_follower` key (or one holding `admin` too) reads
 * everything.
 */
export class FeedReader {
  private constructor(
    private readonly ctx: AppContext,
    private readonly caller: AuthContext,
    /** The events the reader may see (everything for a full follower). */
    readonly access: EventAccess,
    /** Reads every record without asking (full followers, admins, access control off). */
    readonly everything: boolean,
  ) {
    this.repo = new SyncFeedRepository(ctx.database);
  }

  private readonly repo: SyncFeedRepository;

  /** The reader of a request, or 403 for a caller without the follow right. */
  static async of(ctx: AppContext, caller: AuthContext): Promise<FeedReader> {
    if (caller.key) {
      const right = followRightOf(caller.key.roles);
      if (right === 'none') {
        throw new AppError(
          'FORBIDDEN',
          'This device key may not follow this server: an admin gives it a shore follower right under Device Keys',
        );
      }
      if (right === 'everything') return new FeedReader(ctx, caller, EventAccess.everything, true);
    } else if (!caller.isAdmin) {
      throw new AppError('FORBIDDEN', 'Only admins and device keys with a shore follower right may follow this server');
    }
    // An admin (user or key), or any follower while access control is off, opens every record.
    const opensAll = caller.isAdmin || !ctx.config.useAccessControl;
    return new FeedReader(ctx, caller, await EventAccess.for(ctx, caller), opensAll);
  }

  /**
   * Whether the reader may read a feed record (a row as `syncTables` selects it): a cruise or
   * lowering it may open, an event it may see, an aux record of such an event. Templates hold no
   * event data and are read by every follower.
   */
  async mayRead(type: TableRecordType, record: Record<string, unknown>): Promise<boolean> {
    if (this.everything) return true;
    switch (type) {
      case 'cruise':
      case 'lowering':
        return this.mayOpen(type, record);
      case 'event':
        return this.access.maySeeEvent(this.ctx.database.db, { id: String(record.id), ts: Number(record.ts) });
      case 'event_aux_data':
        return (await this.visibleEvents([String(record.event_id)])).has(String(record.event_id));
      default:
        return true;
    }
  }

  private mayOpen(kind: 'cruise' | 'lowering', record: Record<string, unknown>): boolean {
    const raw = record[`${kind}_access_list`];
    const accessList = Array.isArray(raw) ? raw : parseJson<string[]>(typeof raw === 'string' ? raw : '[]', []);
    const hidden = Boolean(Number(record[`${kind}_hidden`] ?? 0));
    return canOpenRecord(viewerOf(this.caller), { hidden, accessList }, this.ctx.config.useAccessControl);
  }

  /**
   * Of these event ids, those of events the reader may see: by each event's origin on a fleet
   * shore (windows hiding one origin's events only), by time alone elsewhere, without the lookup.
   */
  async visibleEvents(ids: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    const times = await this.repo.eventTimes(ids);
    const origins = !this.everything && this.access.scoped.length > 0 ? await this.repo.eventOrigins(ids) : null;
    for (const [id, ts] of times) {
      const visible =
        this.everything || (origins ? this.access.maySee(ts, origins.get(id) ?? null) : this.access.maySee(ts));
      if (visible) out.add(id);
    }
    return out;
  }

  /** Whether the reader may read a lowering's recordings: when it may open the lowering. */
  async mayReadRecording(loweringId: string): Promise<boolean> {
    if (this.everything) return true;
    const row = await this.repo.recordAccess('lowering', loweringId);
    return row
      ? this.mayOpen('lowering', { lowering_hidden: row.hidden, lowering_access_list: row.accessList })
      : false;
  }

  /**
   * Whether the reader may have a file named by its feed path: a cruise's or lowering's file when
   * it may open that record, an image when it belongs to an event it may see (as the image route
   * decides).
   */
  async mayReadFile(rel: string): Promise<boolean> {
    if (this.everything) return true;
    const [area, owner, name] = rel.split('/');
    if (area === 'images' && owner) return mayViewImage(this.ctx, this.access, ['images', owner]);
    if (area === recordingArea && owner) {
      const lowering = await recordingLowering(this.ctx.database.db, owner);
      return lowering !== null && (await this.mayReadRecording(lowering));
    }
    if ((area !== 'cruises' && area !== 'lowerings') || !owner || !name) return false;
    const kind = area === 'cruises' ? 'cruise' : 'lowering';
    const row = await this.repo.recordAccess(kind, owner);
    return row
      ? this.mayOpen(kind, { [`${kind}_hidden`]: row.hidden, [`${kind}_access_list`]: row.accessList })
      : false;
  }
}
