import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Selectable } from 'kysely';
import { defaultThumbnailWidth, syncPageEnvelopeSchema, type SyncPageEnvelope } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { sleep, TokenBucket } from '../lib/token-bucket.js';
import { internalChannels } from '../realtime/internal-channels.js';
import { thumbnailKey } from '../modules/files/thumbnails.js';
import { ShipsService, type ShipRow } from '../modules/sync/ships.service.js';
import { applyChanges, thumbnailPriority } from '../modules/sync/sync-apply.js';
import { feedFileKey } from '../modules/sync/sync-files.js';
import { ShipAnswerError, ShipHttpError, shipRequest, shownShipError } from './ship-client.js';

/** Uncapped pages and file chunks are this large; a cap makes them smaller (a quarter second each). */
const largePage = 512 * 1024;
const largeChunk = 4 * 1024 * 1024;
const maxBackoffMs = 60_000;
/** Files fetched at once (thumbnails, or whole files each in ranged chunks). */
const filesAtOnce = 4;
/**
 * How long a caught-up follower asks the ship to wait for the next change: below the ship's own
 * limit and well below the time links and proxies keep a quiet connection.
 */
const waitSeconds = 20;
/** Comments' acknowledgements and errors are small. */
const smallAnswer = 64 * 1024;
/** A thumbnail is a small JPEG. */
const thumbnailAllowance = 4 * 1024 * 1024;

/**
 * The most a change page asked with `max_bytes` may bring, as sent and inflated: the page plus one
 * record past it (a page holds at least one change), a record being at most what the API takes in
 * one request (the body limit; JSON escapes can make its text several times longer)
 * (docs/ship-to-shore.md#the-shore).
 */
export function pageAllowance(maxBytes: number, bodyLimitMb: number): number {
  return 4 * maxBytes + 8 * Math.round(bodyLimitMb * 1024 * 1024);
}

/**
 * Follows one ship (docs/ship-to-shore.md#the-shore): sends the comments waiting for it, asks for
 * changes after its cursor and applies each page, then fetches queued files (thumbnails first,
 * then whole files, in ranged chunks that resume), all within the ship's bandwidth cap. Polls
 * while nothing arrives; backs off while the ship cannot be reached.
 */
export class ShipFollower {
  private readonly abort = new AbortController();
  private wake: AbortController = new AbortController();
  private bucket: TokenBucket;
  private rate: number | null;
  private done: Promise<void> | null = null;
  private lastAnnounced = '';
  /** Whether the ship waits for changes when asked to (false once it refused the parameter). */
  private longPoll = true;
  /** Files being fetched, by path: a pool beside the change requests (see fillFiles). */
  private readonly files = new Map<string, Promise<void>>();
  /** The first error of a file fetch, handed to the loop (the ship is then offline). */
  private fileFailure: { reason: unknown } | null = null;
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** What the last change page brought over the link (the next is taken from the cap at this size). */
  private lastPageBytes = 1024;
  /** The last page left no records to fetch: the ship is followed once the files are in too. */
  private recordsCaughtUp = false;

  constructor(
    private readonly ctx: AppContext,
    readonly shipId: string,
    rate: number | null,
  ) {
    this.rate = rate;
    this.bucket = new TokenBucket(rate);
    // Every request in flight (files a few at once, each in several ranges) listens for the stop.
    setMaxListeners(filesAtOnce * 4 + 16, this.abort.signal);
  }

  private get ships() {
    return new ShipsService(this.ctx);
  }

  private request(
    ship: ShipRow,
    req: Parameters<typeof shipRequest>[3],
    signal: AbortSignal | undefined,
  ): ReturnType<typeof shipRequest> {
    return shipRequest(ship.url, ship.device_key, this.bucket, req, signal, {
      allowPrivateHosts: this.ctx.config.sync.allowPrivateHosts,
    });
  }

  start(): void {
    this.done ??= this.run();
  }

  /** Something changed (the ship's row, a comment to send): look again now. */
  poke(): void {
    this.wake.abort();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.wake.abort();
    await this.done;
    await Promise.allSettled([this.filling, ...this.files.values()]);
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async pause(ms: number): Promise<void> {
    if (this.wake.signal.aborted) this.wake = new AbortController();
    await sleep(ms, AbortSignal.any([this.abort.signal, this.wake.signal]));
  }

  private async run(): Promise<void> {
    let backoff = this.ctx.config.sync.pollIntervalMs;
    let caughtUp = false;
    while (!this.stopped) {
      const ship = await this.ctx.database.db
        .selectFrom('sync_ships')
        .selectAll()
        .where('id', '=', this.shipId)
        .executeTakeFirst()
        .catch(() => undefined);
      if (!ship || ship.enabled !== 1) return;
      const rate = ship.bandwidth_kbps === null ? null : (Number(ship.bandwidth_kbps) * 1000) / 8;
      if (rate !== this.rate) {
        this.rate = rate;
        this.bucket = new TokenBucket(rate);
      }
      try {
        if (this.fileFailure) {
          const { reason } = this.fileFailure;
          this.fileFailure = null;
          throw reason;
        }
        await this.sendComments(ship);
        const asked = Date.now();
        const page = await this.fetchPage(ship, caughtUp);
        const waited = caughtUp && this.longPoll ? Date.now() - asked : 0;
        backoff = this.ctx.config.sync.pollIntervalMs;
        const queued = await this.queuedCount();
        await this.setState(
          ship,
          {
            state: page.more || queued > 0 ? 'catching_up' : 'following',
            last_contact: this.ctx.now(),
            last_error: null,
            head: page.head,
            behind_records: page.head_records_behind ?? 0,
            behind_bytes: page.head_bytes_behind ?? 0,
          },
          page.changes.length > 0,
        );
        // Files follow beside the change requests; once the records are in, the next request waits
        // on the ship for a change while the files go on.
        if (queued > 0) this.fillFiles(ship);
        caughtUp = !page.more;
        this.recordsCaughtUp = caughtUp;
        if (page.more && page.changes.length > 0) continue;
        // "More" with nothing in it is asked again after a pause, not at once: a ship answering
        // so forever would otherwise keep the shore busy asking.
        if (page.more) {
          await this.pause(this.ctx.config.sync.pollIntervalMs);
          continue;
        }
        // A request that waited on the ship for a change was the pause; one answered at once was not.
        if (page.changes.length === 0) await this.pause(this.ctx.config.sync.pollIntervalMs - waited);
      } catch (err) {
        if (this.stopped) return;
        // Woken while waiting on the ship (a comment to send, the ship's row changed): go round again.
        if (this.wake.signal.aborted) {
          this.wake = new AbortController();
          continue;
        }
        // A ship from before waiting was added refuses the parameter: poll it as before.
        if (caughtUp && this.longPoll && err instanceof ShipHttpError && err.status === 400) {
          this.longPoll = false;
          continue;
        }
        const refused = err instanceof ShipHttpError && (err.status === 401 || err.status === 403);
        const message = shownShipError(err);
        this.ctx.log.warn(
          { shipId: this.shipId, err: err instanceof ShipHttpError ? err.detail : String(err) },
          'a followed ship failed',
        );
        await this.setState(ship, { state: refused ? 'refused' : 'offline', last_error: message }, false).catch(
          () => undefined,
        );
        await this.pause(refused ? maxBackoffMs : backoff);
        backoff = Math.min(maxBackoffMs, backoff * 2);
      }
    }
  }

  private async setState(ship: ShipRow, patch: Partial<ShipRow>, changed: boolean): Promise<void> {
    await this.ctx.database.db.updateTable('sync_ships').set(patch).where('id', '=', ship.id).execute();
    const key = `${patch.state}|${patch.last_error ?? ''}`;
    if (changed || key !== this.lastAnnounced) {
      this.lastAnnounced = key;
      await this.ships.announce(ship.id);
    }
  }

  private async queuedCount(): Promise<number> {
    const row = await this.ctx.database.db
      .selectFrom('sync_file_queue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ship_id', '=', this.shipId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private get chunk(): number {
    return this.rate === null ? largeChunk : this.bucket.capacity;
  }

  /** Ranged requests in flight at once under a cap (each a quarter second of it). */
  private get parallel(): number {
    return this.rate === null ? 1 : 4;
  }

  private async sendComments(ship: ShipRow): Promise<void> {
    const db = this.ctx.database.db;
    const comments = await db
      .selectFrom('sync_comment_queue')
      .selectAll()
      .where('ship_id', '=', ship.id)
      .orderBy('created_at')
      .execute();
    for (const c of comments) {
      const body = { event_id: c.event_id, text: c.text, author: c.author };
      try {
        await this.request(
          ship,
          {
            method: 'POST',
            path: '/sync/comments',
            body,
            expect: 300,
            maxBytes: smallAnswer,
          },
          this.abort.signal,
        );
      } catch (err) {
        // An event deleted on the ship meanwhile: nothing to comment on; anything else is retried.
        if (!(err instanceof ShipHttpError && err.status === 404)) throw err;
      }
      await db.deleteFrom('sync_comment_queue').where('id', '=', c.id).execute();
    }
  }

  /** The next page of changes; once caught up, the ship holds the request until there is one. */
  private async fetchPage(ship: ShipRow, caughtUp: boolean): Promise<SyncPageEnvelope> {
    const wait = caughtUp && this.longPoll;
    // A waiting request mostly brings an event or two: a small page (more follow at once). A page is
    // taken from the cap at the size the last one came (compressed); what came on top is booked after.
    const maxBytes = wait ? 4096 : this.rate === null ? largePage : Math.max(4096, this.chunk * 8);
    const query = new URLSearchParams({
      max_bytes: String(maxBytes),
      ...(ship.cursor ? { after: ship.cursor } : {}),
      ...(wait ? { wait: String(waitSeconds) } : {}),
    });
    if (this.wake.signal.aborted) this.wake = new AbortController();
    const res = await this.request(
      ship,
      {
        method: 'GET',
        path: `/sync/changes?${query}`,
        expect: Math.min(maxBytes, this.lastPageBytes),
        maxBytes: pageAllowance(maxBytes, this.ctx.config.bodyLimitMb),
      },
      wait ? AbortSignal.any([this.abort.signal, this.wake.signal]) : this.abort.signal,
    );
    this.lastPageBytes = Math.max(1024, res.wireBytes);
    // The envelope is checked here (a page without one is not applied, and its cursor never
    // stored); each change is checked on its own when applied, so one bad record stops nothing else.
    let json: unknown;
    try {
      json = JSON.parse(res.body.toString('utf8'));
    } catch {
      json = null;
    }
    const parsed = syncPageEnvelopeSchema.safeParse(json);
    if (!parsed.success) throw new ShipAnswerError('The ship answered no change page');
    const page = parsed.data;
    await applyChanges(this.ctx, ship, page.changes, page.next);
    return page;
  }

  /**
   * Keeps a few queued files being fetched at once, each next one started as soon as one ends, so a
   * long round trip does not leave the link idle between small files (every request still waits
   * for its share of the cap). Thumbnails all come before any whole file; two versions of one path
   * are never fetched together. Runs beside the change requests until the queue is empty or a fetch
   * fails (the loop then hears of it).
   */
  private fillFiles(ship: ShipRow): void {
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = this.topUpFiles(ship)
      .catch((reason: unknown) => {
        this.fileFailure ??= { reason };
      })
      .finally(() => {
        this.filling = null;
        if (this.fillAgain) {
          this.fillAgain = false;
          this.fillFiles(ship);
        }
      });
  }

  private async topUpFiles(ship: ShipRow): Promise<void> {
    if (this.stopped || this.fileFailure || this.files.size >= filesAtOnce) return;
    const db = this.ctx.database.db;
    // The queue still holds the files under way (an entry goes once its file is in place).
    const queued = await db
      .selectFrom('sync_file_queue')
      .selectAll()
      .where('ship_id', '=', ship.id)
      .orderBy('priority')
      .orderBy('added_at')
      .orderBy('path')
      .limit(filesAtOnce * 3)
      .execute();
    if (queued.length === 0) {
      if (this.files.size === 0) await this.filesDone(ship);
      return;
    }
    const first = queued[0]!.priority;
    for (const item of queued) {
      if (this.files.size >= filesAtOnce) break;
      if (item.priority === first && !this.files.has(item.path)) this.startFile(ship, item);
    }
  }

  private startFile(ship: ShipRow, item: Selectable<DB['sync_file_queue']>): void {
    const fetched = this.ownsFile(ship, item.path).then((owns) =>
      // A file queued that is not (or no longer) the ship's is dropped, never fetched over the
      // shore's own or another ship's (docs/security.md#a-followed-ship).
      !owns
        ? true
        : item.priority === thumbnailPriority
          ? this.fetchThumbnail(ship, item)
          : this.fetchChunk(ship, item),
    );
    const done = fetched
      .then(async (finished) => {
        if (!finished) return;
        await this.ctx.database.db
          .deleteFrom('sync_file_queue')
          .where('ship_id', '=', ship.id)
          .where('path', '=', item.path)
          .where('priority', '=', item.priority)
          .where('sha256', '=', item.sha256)
          .execute();
      })
      .catch((reason: unknown) => {
        if (this.stopped) return;
        this.fileFailure ??= { reason };
        // The loop may be waiting on the ship: wake it to hear of the failure.
        this.poke();
      })
      .finally(() => {
        this.files.delete(item.path);
        this.fillFiles(ship);
      });
    this.files.set(item.path, done);
  }

  private async ownsFile(ship: ShipRow, rel: string): Promise<boolean> {
    const origin = await this.ctx.database.db
      .selectFrom('sync_origins')
      .select('ship_id')
      .where('record_type', '=', 'file')
      .where('record_id', '=', rel)
      .executeTakeFirst();
    return origin?.ship_id === ship.id;
  }

  /** Every queued file is in: once the records are too, the ship is followed. */
  private async filesDone(ship: ShipRow): Promise<void> {
    if (!this.recordsCaughtUp || this.stopped) return;
    await this.setState(ship, { state: 'following' }, true);
  }

  private async fetchThumbnail(ship: ShipRow, item: { path: string; sha256: string }): Promise<boolean> {
    const key = feedFileKey(item.path);
    if (!key || !item.path.startsWith('images/')) return true;
    try {
      const res = await this.request(
        ship,
        {
          method: 'GET',
          path: `/sync/files/${item.sha256}?width=${defaultThumbnailWidth}`,
          expect: this.chunk,
          maxBytes: thumbnailAllowance,
        },
        this.abort.signal,
      );
      await this.ctx.store.put(thumbnailKey(key, defaultThumbnailWidth), res.body, { contentType: 'image/jpeg' });
    } catch (err) {
      // Gone on the ship, or no thumbnail can be made of it: the whole file still follows.
      if (!(
        err instanceof ShipHttpError &&
        err.status >= 400 &&
        err.status < 500 &&
        err.status !== 401 &&
        err.status !== 403
      )) {
        throw err;
      }
    }
    return true;
  }

  /** Fetches ranged chunks of a file into `<file>.sync-part`; true once it is in place, verified. */
  private async fetchChunk(ship: ShipRow, item: { path: string; sha256: string; size: number }): Promise<boolean> {
    const key = feedFileKey(item.path);
    if (!key) return true;
    const size = Number(item.size);
    // Assembled in a local file (beside the final one in the local folder, in the staging folder
    // with a bucket), so an interrupted download resumes where it stopped.
    const part = this.ctx.store.stagingPath(key, `.${item.sha256.slice(0, 12)}.sync-part`);
    await mkdir(path.dirname(part), { recursive: true });
    let have = (await stat(part).catch(() => null))?.size ?? 0;
    while (have < size && !this.stopped) {
      // Several ranges in flight (each taken from the bucket before it is sent) hide the link's
      // round trip; they are written in order, the contiguous ones that arrived.
      const ranges: Array<[number, number]> = [];
      for (let pos = have; pos < size && ranges.length < this.parallel;) {
        const end = Math.min(size, pos + this.chunk) - 1;
        ranges.push([pos, end]);
        pos = end + 1;
      }
      const results = await Promise.allSettled(
        ranges.map((range) =>
          this.request(
            ship,
            {
              method: 'GET',
              path: `/sync/files/${item.sha256}`,
              range,
              expect: range[1] - range[0] + 1,
              maxBytes: range[1] - range[0] + 1,
            },
            this.abort.signal,
          ),
        ),
      );
      const handle = await open(part, 'a');
      let failure: unknown = null;
      try {
        for (const [i, result] of results.entries()) {
          if (result.status === 'rejected') {
            failure = result.reason;
            break;
          }
          if (result.value.body.length !== ranges[i]![1] - ranges[i]![0] + 1) {
            failure = new Error('The ship answered a short range');
            break;
          }
          await handle.write(result.value.body);
          have += result.value.body.length;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (failure) {
        if (failure instanceof ShipHttpError && (failure.status === 404 || failure.status === 416)) {
          await rm(part, { force: true });
          return true;
        }
        throw failure;
      }
    }
    if (have < size) return false;
    const hash = createHash('sha256');
    const handle = await open(part, 'r');
    try {
      for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (hash.digest('hex') !== item.sha256) {
      // A wrong file (changed on the ship meanwhile): start again; the feed brings the new checksum.
      await rm(part, { force: true });
      return false;
    }
    await this.ctx.store.putFile(key, part);
    const info = await this.ctx.store.stat(key);
    if (!info) return false;
    const row = { path: item.path, sha256: item.sha256, size: info.size, mtime: Math.floor(info.mtimeMs) };
    await this.ctx.database.db
      .insertInto('sync_file_hashes')
      .values(row)
      .onConflict((oc) => oc.column('path').doUpdateSet({ sha256: row.sha256, size: row.size, mtime: row.mtime }))
      .execute();
    return true;
  }
}

/** Every enabled ship's follower, started and stopped with the singleton jobs (leader only). */
export class ShipFollowers {
  private readonly followers = new Map<string, ShipFollower>();
  private unsubscribe: (() => void) | null = null;
  private running = false;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.ctx.bus.subscribe(internalChannels.shipsChanged, ({ shipId }) => {
      this.refresh(shipId).catch((err: unknown) => this.ctx.log.error({ err }, 'ship follower failed'));
    });
    const ships = await this.ctx.database.db.selectFrom('sync_ships').select('id').where('enabled', '=', 1).execute();
    for (const s of ships) await this.refresh(s.id);
  }

  private async refresh(shipId: string): Promise<void> {
    if (!this.running) return;
    const row = await this.ctx.database.db
      .selectFrom('sync_ships')
      .select(['id', 'enabled', 'bandwidth_kbps'])
      .where('id', '=', shipId)
      .executeTakeFirst();
    const current = this.followers.get(shipId);
    if (!row || row.enabled !== 1) {
      if (current) {
        this.followers.delete(shipId);
        await current.stop();
      }
      return;
    }
    if (current) {
      current.poke();
      return;
    }
    const rate = row.bandwidth_kbps === null ? null : (Number(row.bandwidth_kbps) * 1000) / 8;
    const follower = new ShipFollower(this.ctx, shipId, rate);
    this.followers.set(shipId, follower);
    follower.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    const all = [...this.followers.values()];
    this.followers.clear();
    await Promise.all(all.map((f) => f.stop()));
  }
}
