import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  auxDataChangeRefused,
  mayChangeAuxData,
  newObjectId,
  recordedFramegrabSource,
  recordingCopyRoles,
  type CameraOffset,
  type CreateRecording,
  type FramegrabJob,
  type FramegrabResult,
  type ImportRecordings,
  type Recording,
  type RecordingCopyInput,
  type RecordingCopyRole,
  type UpdateRecording,
  type VideoLink,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { FrameGrabber, FrameGrabError, type GrabLane } from '../../media/frame-grabber.js';
import { mediaSource, MediaUriError, type MediaSource } from '../../media/media-uri.js';
import { probe, ProbeError, type ProbedMedia } from '../../media/probe.js';
import { makeProxy, ProxyError } from '../../media/proxy-maker.js';
import { proxyKey, storedKeyOf, storedUri } from '../../media/stored-copy.js';
import { VideoIndex } from '../../media/video-index.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventAccess } from '../access/event-access.js';
import { recordChange } from '../audit/audit.js';
import { EventAuxDataService } from '../event-aux-data/event-aux-data.service.js';
import { imageKey } from '../files/attachment-files.js';
import { LoweringsService } from '../lowerings/lowerings.service.js';
import { leftoversOf, removeLeftovers, removeUnusedStored } from './recording-files.js';
import {
  RecordingsRepository,
  type CopyRecord,
  type JobRecord,
  type LoweringSpan,
  type RecordingRecord,
} from './recordings.repository.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function toWireRecording(r: RecordingRecord): Recording {
  return {
    id: r.id,
    lowering_id: r.lowering_id,
    camera: r.camera,
    start_ts: iso(r.start_ts),
    stop_ts: iso(r.start_ts + r.duration_ms),
    duration_ms: r.duration_ms,
    copies: r.copies.map((c) => ({
      id: c.id,
      role: c.role,
      uri: c.uri,
      codec: c.codec,
      size_bytes: c.size_bytes,
      width: c.width,
      height: c.height,
      frame_rate: c.frame_rate,
      interlaced: c.interlaced,
      checksum: c.checksum,
      ...(c.on_ship_only ? { on_ship_only: true } : {}),
    })),
  };
}

/** Which copy a browser plays: the proxy where there is one (docs/video.md#playback). */
const playOrder: readonly RecordingCopyRole[] = ['proxy', 'master', 'hls'];
/** Which copy a frame is grabbed from: the master (full quality) where this server has it. */
const grabOrder: readonly RecordingCopyRole[] = ['master', 'proxy', 'hls'];

/** A copy this server holds, by the order of roles; a copy only the ship holds is never picked. */
function pick(all: readonly CopyRecord[], order: readonly RecordingCopyRole[]): CopyRecord | undefined {
  const copies = all.filter((c) => !c.on_ship_only);
  for (const role of order) {
    const found = copies.find((c) => c.role === role);
    if (found) return found;
  }
  return copies[0];
}

/** `20240101T000000Z` / `20240101T000000.500Z` (ffmpeg's `-strftime 1` names) to epoch ms. */
export function compactUtc(text: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(?:\.(\d{1,3}))?Z$/.exec(text);
  if (!m) return null;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, m[7] ? Number(m[7].padEnd(3, '0')) : 0);
  return Number.isNaN(ms) ? null : ms;
}

/** A recording file name as segment muxers write it: `<camera>_<YYYYMMDDTHHMMSS[.mmm]Z>.<ext>`. */
export const recordingNamePattern =
  /^([A-Za-z0-9][A-Za-z0-9-]{0,39})_(\d{8}T\d{6}(?:\.\d{1,3})?Z)\.(mp4|mov|mkv|m4v|ts|m3u8)$/i;

/** Sealog's frame-grab name: `<lowering>_<camera>_<YYYYMMDD>_<HHMMSSmmm>.jpg`. */
export function framegrabFileName(lowering: string, camera: string, ts: number): string {
  const d = new Date(ts).toISOString(); // 2023-03-14T22:15:39.479Z
  const day = d.slice(0, 10).replaceAll('-', '');
  const time = d.slice(11, 23).replaceAll(':', '').replace('.', '');
  const safe = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 60) || 'x';
  return `${safe(lowering)}_${safe(camera)}_${day}_${time}.jpg`;
}

/** Rows of a CSV import: `camera,start_ts,uri,role`, one copy per row; rows of one camera and start are one recording. */
function parseCsv(text: string): CreateRecording[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const header = lines
    .shift()
    ?.split(',')
    .map((h) => h.trim().replace(/^"|"$/g, ''));
  const need = ['camera', 'start_ts', 'uri', 'role'];
  if (!header || need.some((n) => !header.includes(n))) {
    throw new AppError('BAD_REQUEST', 'csv: the first line must name the columns camera,start_ts,uri,role');
  }
  const byKey = new Map<string, CreateRecording>();
  lines.forEach((line, i) => {
    const cells = line.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    const cell = (name: string) => cells[header.indexOf(name)] ?? '';
    const row = i + 2;
    const camera = cell('camera');
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(camera))
      throw new AppError('BAD_REQUEST', `csv line ${row}: camera must be 1-40 letters, digits, _ or -`);
    const start = Date.parse(cell('start_ts'));
    if (!/^\d{4}-\d{2}-\d{2}T/.test(cell('start_ts')) || Number.isNaN(start))
      throw new AppError('BAD_REQUEST', `csv line ${row}: start_ts must be a valid ISO 8601 date`);
    const role = cell('role') as RecordingCopyRole;
    if (!recordingCopyRoles.includes(role))
      throw new AppError('BAD_REQUEST', `csv line ${row}: role must be one of ${recordingCopyRoles.join(', ')}`);
    const uri = cell('uri');
    if (!uri) throw new AppError('BAD_REQUEST', `csv line ${row}: uri is empty`);
    const key = `${camera}\n${start}`;
    const rec = byKey.get(key) ?? { camera, start_ts: start, copies: [] };
    rec.copies.push({ uri, role });
    byKey.set(key, rec);
  });
  if (byKey.size === 0) throw new AppError('BAD_REQUEST', 'csv: no recordings');
  return [...byKey.values()];
}

/** One frame grabber per server: its limit on ffmpeg runs holds across every request and job. */
export function frameGrabberFor(ctx: AppContext): FrameGrabber {
  const v = ctx.config.video;
  return new FrameGrabber({
    ffmpeg: v.ffmpeg,
    cacheDir: path.join(ctx.paths.data, 'cache', 'frames'),
    cacheBytes: v.frameCacheMb * 1024 * 1024,
    concurrency: v.framegrabConcurrency,
    timeoutMs: v.framegrabTimeoutMs,
  });
}

/**
 * Where a copy is: a file or URL (MediaSource), or a key of the file store (a proxy the server made
 * or copied from a ship, docs/video.md#proxies).
 */
type CopySource = MediaSource | { kind: 'stored'; key: string };

/** How long a URL signed for ffmpeg to read a copy in a bucket lasts (a proxy is made within it). */
const signedReadSeconds = 3600;

/** A job left `running` without an update for this long died with its process: a new one may start. */
const staleJobMs = 60_000;

/**
 * Video recordings (docs/video.md): registered per lowering and camera by admins and cruise
 * managers (the API, a list import, the folder watcher), each copy probed by ffprobe; resolved by
 * time for events; served with range requests under the lowering's access rule; frames grabbed
 * for one event or every event of a lowering and stored as normal frame grabs.
 */
export class RecordingsService {
  private readonly lowerings: LoweringsService;
  private readonly aux: EventAuxDataService;
  /** Jobs this process runs, by lowering id. */
  private static readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    readonly grabber: FrameGrabber,
  ) {
    this.lowerings = new LoweringsService(ctx);
    this.aux = new EventAuxDataService(ctx);
  }

  private get repo() {
    return new RecordingsRepository(this.ctx.database.db);
  }

  private async lowering(caller: AuthContext | null, id: string, action: 'retrieve' | 'edit'): Promise<LoweringSpan> {
    if (caller) await this.lowerings.assertOpenable(caller, id, action);
    const found = await this.repo.lowering(id);
    if (!found) throw new AppError('NOT_FOUND', `No lowering record found for id: ${id}`);
    return found;
  }

  async list(caller: AuthContext, loweringId: string): Promise<Recording[]> {
    await this.lowering(caller, loweringId, 'retrieve');
    return (await this.repo.listByLowering(loweringId)).map(toWireRecording);
  }

  async get(caller: AuthContext, id: string): Promise<Recording> {
    return toWireRecording(await this.openRecording(caller, id));
  }

  private async openRecording(caller: AuthContext, id: string): Promise<RecordingRecord> {
    const found = await this.repo.findById(id);
    if (!found) throw new AppError('NOT_FOUND', `No recording found for id: ${id}`);
    await this.lowerings.assertOpenable(caller, found.lowering_id, 'retrieve');
    return found;
  }

  /** Each copy checked (where it is) and probed; `field` names the body's list in errors. */
  private async probeCopies(
    copies: readonly RecordingCopyInput[],
    recordingId: string,
    field: string,
  ): Promise<{ copies: CopyRecord[]; duration_ms: number }> {
    const roles = new Set<string>();
    const probed: Array<{ copy: RecordingCopyInput; media: ProbedMedia; source: MediaSource }> = [];
    for (const [i, copy] of copies.entries()) {
      if (roles.has(copy.role)) throw new AppError('BAD_REQUEST', `${field}.${i}.role: ${copy.role} is given twice`);
      roles.add(copy.role);
      let source: MediaSource;
      try {
        source = await mediaSource(copy.uri, this.ctx.paths.data);
      } catch (err) {
        if (err instanceof MediaUriError) throw new AppError('BAD_REQUEST', `${field}.${i}.uri ${err.message}`);
        throw err;
      }
      try {
        probed.push({ copy, source, media: await probe(this.ctx.config.video.ffprobe, source) });
      } catch (err) {
        if (err instanceof ProbeError) throw new AppError('BAD_REQUEST', `${field}.${i}.uri: ${err.message}`);
        throw err;
      }
    }
    // The recording lasts as long as its best copy says (a proxy may be cut a frame shorter).
    const bestRole = grabOrder.find((role) => probed.some((p) => p.copy.role === role));
    const best = probed.find((p) => p.copy.role === bestRole) ?? probed[0]!;
    const duration_ms = best.media.duration_ms;
    const out: CopyRecord[] = [];
    for (const p of probed) {
      const size = p.source.kind === 'file' ? (await stat(p.source.path)).size : null;
      out.push({
        id: newObjectId(),
        recording_id: recordingId,
        role: p.copy.role,
        uri: p.copy.uri,
        codec: p.media.codec,
        size_bytes: size,
        width: p.media.width,
        height: p.media.height,
        frame_rate: p.media.frame_rate,
        interlaced: p.media.interlaced,
        checksum: null,
      });
    }
    return { copies: out, duration_ms };
  }

  private async assertUrisFree(copies: readonly { uri: string }[], except?: string): Promise<void> {
    const taken = await this.repo.uriTaken(
      copies.map((c) => c.uri),
      except,
    );
    if (taken !== undefined) throw new AppError('CONFLICT', `A recording copy is already registered for ${taken}`);
  }

  private async build(loweringId: string, body: CreateRecording, field: string): Promise<RecordingRecord> {
    const id = body.id ?? newObjectId();
    if (body.id && (await this.repo.findById(body.id)))
      throw new AppError('CONFLICT', `A recording with id ${body.id} exists`);
    const { copies, duration_ms } = await this.probeCopies(body.copies, id, field);
    return {
      id,
      lowering_id: loweringId,
      camera: body.camera,
      start_ts: body.start_ts,
      duration_ms,
      created_at: Date.now(),
      copies,
    };
  }

  async create(caller: AuthContext | null, loweringId: string, body: CreateRecording): Promise<Recording> {
    await this.lowering(caller, loweringId, 'edit');
    await this.assertUrisFree(body.copies);
    const record = await this.build(loweringId, body, 'copies');
    await this.store(caller, [record]);
    return toWireRecording(record);
  }

  /** Every recording stored in one transaction with its audit row, or none. */
  private async store(caller: AuthContext | null, records: readonly RecordingRecord[]): Promise<void> {
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        const repo = new RecordingsRepository(trx);
        for (const record of records) {
          await repo.insert(record);
          await recordChange(trx, caller, {
            action: 'create',
            record_type: 'recording',
            record_id: record.id,
            new_value: toWireRecording(record),
          });
        }
      });
    } catch (err) {
      // Two registrations of one file at once: the unique URI index lets one win.
      await this.assertUrisFree(records.flatMap((r) => r.copies).filter((c) => c));
      throw err;
    }
    for (const record of records) {
      this.changed(record.id);
      this.checksumLater(record);
    }
  }

  /** A shore waiting on this ship's change feed hears of it (docs/video.md#ship-to-shore). */
  private changed(recordingId: string): void {
    this.ctx.bus.publish(internalChannels.recordingsChanged, { recordingId });
  }

  /** Local copies get their sha256 after the answer (a master may be many gigabytes). */
  private checksumLater(record: RecordingRecord): void {
    void (async () => {
      for (const copy of record.copies) {
        if (copy.checksum) continue;
        let source: MediaSource;
        try {
          source = await mediaSource(copy.uri, this.ctx.paths.data);
        } catch {
          continue;
        }
        if (source.kind !== 'file') continue;
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(source.path)) hash.update(chunk as Buffer);
        await this.ctx.database.db
          .updateTable('recording_copies')
          .set({ checksum: `sha256:${hash.digest('hex')}` })
          .where('id', '=', copy.id)
          .execute();
      }
    })().catch((err: unknown) => this.ctx.log.warn({ err }, 'recording checksum failed'));
  }

  async importList(caller: AuthContext, loweringId: string, body: ImportRecordings): Promise<Recording[]> {
    await this.lowering(caller, loweringId, 'edit');
    const list = 'csv' in body ? parseCsv(body.csv) : body.recordings;
    const uris = list.flatMap((r) => r.copies.map((c) => c.uri));
    const dup = uris.find((u, i) => uris.indexOf(u) !== i);
    if (dup !== undefined) throw new AppError('BAD_REQUEST', `recordings: ${dup} is listed twice`);
    await this.assertUrisFree(list.flatMap((r) => r.copies));
    const records: RecordingRecord[] = [];
    for (const [i, r] of list.entries()) records.push(await this.build(loweringId, r, `recordings.${i}.copies`));
    await this.store(caller, records);
    return records.map(toWireRecording);
  }

  async update(caller: AuthContext, id: string, body: UpdateRecording): Promise<Recording> {
    const stored = await this.openRecording(caller, id);
    await this.lowerings.assertOpenable(caller, stored.lowering_id, 'edit');
    let next: RecordingRecord = {
      ...stored,
      ...(body.camera !== undefined ? { camera: body.camera } : {}),
      ...(body.start_ts !== undefined ? { start_ts: body.start_ts } : {}),
    };
    if (body.copies) {
      // A copy the server keeps in its store (a proxy it made) is kept by naming its URI again.
      const kept = body.copies.flatMap((c) => {
        const own = storedKeyOf(c.uri) ? stored.copies.find((s) => s.uri === c.uri && !s.on_ship_only) : undefined;
        return own ? [{ ...own, role: c.role }] : [];
      });
      const given = body.copies.filter((c) => !kept.some((k) => k.uri === c.uri));
      const roles = body.copies.map((c) => c.role);
      const twice = roles.find((r, i) => roles.indexOf(r) !== i);
      if (twice) throw new AppError('BAD_REQUEST', `copies: ${twice} is given twice`);
      await this.assertUrisFree(given, id);
      const probed = given.length > 0 ? await this.probeCopies(given, id, 'copies') : null;
      next = {
        ...next,
        copies: [...(probed?.copies ?? []), ...kept],
        duration_ms: probed?.duration_ms ?? stored.duration_ms,
      };
    }
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new RecordingsRepository(trx).replace(next);
      await recordChange(trx, caller, {
        action: 'update',
        record_type: 'recording',
        record_id: id,
        old_value: toWireRecording(stored),
        new_value: toWireRecording(next),
      });
    });
    this.changed(id);
    if (body.copies) {
      this.checksumLater(next);
      // A stored proxy the new list leaves out is nobody's now.
      await removeUnusedStored(this.ctx, id);
    }
    return toWireRecording(next);
  }

  async remove(caller: AuthContext, id: string): Promise<void> {
    const stored = await this.openRecording(caller, id);
    await this.lowerings.assertOpenable(caller, stored.lowering_id, 'edit');
    const left = await this.ctx.database.db.transaction().execute(async (trx) => {
      const found = await leftoversOf(trx, [stored]);
      await new RecordingsRepository(trx).remove(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'recording',
        record_id: id,
        old_value: toWireRecording(stored),
      });
      return found;
    });
    this.changed(id);
    await removeLeftovers(this.ctx, caller, left);
  }

  // ---- proxies -----------------------------------------------------------------------------

  /** Proxies being made in this process, by recording id. */
  private static readonly making = new Map<string, Promise<void>>();

  /** Resolves when the recording's proxy being made in this process is stored (or failed). */
  static proxySettled(recordingId: string): Promise<void> {
    return RecordingsService.making.get(recordingId) ?? Promise.resolve();
  }

  /**
   * Starts making the recording's proxy from its best copy on this server (docs/video.md#proxies):
   * ffmpeg in the background lane (one at a time, low priority), the file streamed into the store,
   * then the proxy copy added to the recording. Answers the recording as it is now (202).
   */
  async startProxy(caller: AuthContext, id: string): Promise<Recording> {
    const stored = await this.openRecording(caller, id);
    await this.lowerings.assertOpenable(caller, stored.lowering_id, 'edit');
    if (stored.copies.some((c) => c.role === 'proxy'))
      throw new AppError('CONFLICT', `Recording ${id} has a proxy: delete its proxy copy (PATCH) to make a new one`);
    if (!pick(stored.copies, grabOrder))
      throw new AppError('BAD_REQUEST', `Recording ${id} has no copy on this server to make a proxy from`);
    const { copy: from, source: input } = await this.grabInput(stored.copies);
    // One host makes it: the claim is in the database every host shares, renewed while ffmpeg works.
    const now = Date.now();
    if (RecordingsService.making.has(id) || !(await this.repo.claimProxy(id, now, now - staleJobMs)))
      throw new AppError('CONFLICT', `The proxy of recording ${id} is being made`);
    const renew = setInterval(() => {
      this.repo.markProxyClaim(id, Date.now()).catch((err: unknown) => this.ctx.log.warn({ err }, 'proxy claim'));
    }, staleJobMs / 3);
    renew.unref();
    const run = this.makeProxy(caller, stored, from, input)
      .catch((err: unknown) => this.ctx.log.warn({ err, recordingId: id }, 'proxy not made'))
      .finally(async () => {
        clearInterval(renew);
        RecordingsService.making.delete(id);
        await this.repo
          .markProxyClaim(id, null)
          .catch((err: unknown) => this.ctx.log.warn({ err }, 'proxy claim not released'));
      });
    RecordingsService.making.set(id, run);
    return toWireRecording(stored);
  }

  private async makeProxy(
    caller: AuthContext,
    recording: RecordingRecord,
    from: CopyRecord,
    input: MediaSource,
  ): Promise<void> {
    const copyId = newObjectId();
    const key = proxyKey(recording.id, copyId);
    const folder = path.join(this.ctx.paths.data, 'cache', 'proxies');
    await mkdir(folder, { recursive: true });
    const tmp = path.join(folder, `${copyId}.mp4`);
    try {
      const v = this.ctx.config.video;
      // Encoding runs well under real time on one thread; the time-out only ends a stuck ffmpeg.
      const timeoutMs = Math.max(600_000, recording.duration_ms * 4);
      await this.grabber.background(() =>
        makeProxy({ ffmpeg: v.ffmpeg, source: input, deinterlace: from.interlaced, out: tmp, timeoutMs }),
      );
      const media = await probe(v.ffprobe, { kind: 'file', path: tmp });
      const size = (await stat(tmp)).size;
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(tmp)) hash.update(chunk as Buffer);
      const copy: CopyRecord = {
        id: copyId,
        recording_id: recording.id,
        role: 'proxy',
        uri: storedUri(key),
        codec: media.codec,
        size_bytes: size,
        width: media.width,
        height: media.height,
        frame_rate: media.frame_rate,
        interlaced: false,
        checksum: `sha256:${hash.digest('hex')}`,
      };
      // Streamed into the store (S3: multipart); nothing under the key until the whole file is there.
      await this.ctx.store.putFile(key, tmp);
      const stored = await this.ctx.database.db.transaction().execute(async (trx) => {
        const repo = new RecordingsRepository(trx);
        const now = await repo.findById(recording.id);
        // Deleted meanwhile, or given a proxy by a PATCH: this file is nobody's.
        if (!now || now.copies.some((c) => c.role === 'proxy')) return null;
        const next = { ...now, copies: [...now.copies, copy] };
        await repo.replace(next);
        await recordChange(trx, caller, {
          action: 'update',
          record_type: 'recording',
          record_id: recording.id,
          old_value: toWireRecording(now),
          new_value: toWireRecording(next),
        });
        return next;
      });
      if (!stored) {
        await this.ctx.store.delete(key);
        return;
      }
      this.changed(recording.id);
    } catch (err) {
      if (err instanceof ProxyError || err instanceof ProbeError) {
        this.ctx.log.warn({ recordingId: recording.id, reason: err.message }, 'proxy not made');
        return;
      }
      throw err;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async offsets(caller: AuthContext, loweringId: string): Promise<CameraOffset[]> {
    await this.lowering(caller, loweringId, 'retrieve');
    return this.repo.offsets(loweringId);
  }

  async setOffset(caller: AuthContext, loweringId: string, camera: string, offsetMs: number): Promise<CameraOffset> {
    await this.lowering(caller, loweringId, 'edit');
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new RecordingsRepository(trx).setOffset(loweringId, camera, offsetMs);
      await recordChange(trx, caller, {
        action: 'update',
        record_type: 'camera_clock_offset',
        record_id: loweringId,
        new_value: { camera, offset_ms: offsetMs },
      });
    });
    return { camera, offset_ms: offsetMs };
  }

  /** Each camera's recording and offset at a moment of the lowering. */
  async resolveAt(caller: AuthContext, loweringId: string, ts: number): Promise<VideoLink[]> {
    await this.lowering(caller, loweringId, 'retrieve');
    return (await this.index(ts, ts)).at(ts);
  }

  private index(lo: number, hi: number): Promise<VideoIndex> {
    return VideoIndex.load(this.ctx.database.db, lo, hi, this.ctx.config.publicUrl ?? '');
  }

  /** Each camera's recording and offset at an event the caller may see. */
  async videoOfEvent(eventId: string, access: EventAccess): Promise<VideoLink[]> {
    const event = await this.visibleEvent(eventId, access);
    return (await this.index(event.ts, event.ts)).at(event.ts);
  }

  private async visibleEvent(
    eventId: string,
    access: EventAccess,
  ): Promise<{ id: string; ts: number; created_by: string | null }> {
    const event = await this.repo.eventById(eventId);
    if (!event || !(await access.maySeeEvent(this.ctx.database.db, event)))
      throw new AppError('NOT_FOUND', `No event record found for id: ${eventId}`);
    return event;
  }

  /** The lowering a recording belongs to (the origin guard of its write routes). */
  async loweringOf(recordingId: string): Promise<string | undefined> {
    return (await this.repo.findById(recordingId))?.lowering_id;
  }

  /**
   * The copy a link opens: the named role, else the one a browser plays best (the proxy). Under
   * the lowering's access rule.
   */
  async media(
    caller: AuthContext,
    recordingId: string,
    role?: RecordingCopyRole,
  ): Promise<{ copy: string; role: RecordingCopyRole; source: CopySource }> {
    const recording = await this.openRecording(caller, recordingId);
    const copy = role
      ? recording.copies.find((c) => c.role === role && !c.on_ship_only)
      : pick(recording.copies, playOrder);
    if (!copy) throw new AppError('NOT_FOUND', `No ${role ?? ''} copy of recording ${recordingId} on this server`);
    return { copy: copy.id, role: copy.role, source: await this.sourceOf(copy) };
  }

  /**
   * A local copy's file to serve, by name: the copy's own file, or for an HLS copy a file its
   * playlist (or a variant playlist it lists) names beside it. Nothing else in the folder is
   * reachable: the neighbours may be another lowering's recordings.
   */
  async mediaFile(
    caller: AuthContext,
    recordingId: string,
    copyId: string,
    name: string,
  ): Promise<{ kind: 'file'; path: string } | { kind: 'stored'; key: string }> {
    const recording = await this.openRecording(caller, recordingId);
    const copy = recording.copies.find((c) => c.id === copyId);
    if (!copy) throw new AppError('NOT_FOUND', 'Not Found');
    const source = await this.sourceOf(copy);
    if (source.kind === 'stored' && name === source.key.split('/').at(-1)) return source;
    if (source.kind !== 'file') throw new AppError('NOT_FOUND', 'Not Found');
    if (name === path.basename(source.path)) return source;
    if (copy.role !== 'hls' || !(await playlistNames(source.path)).has(name))
      throw new AppError('NOT_FOUND', 'Not Found');
    try {
      const sibling = await mediaSource(path.join(path.dirname(source.path), name), this.ctx.paths.data);
      if (sibling.kind === 'file') return sibling;
    } catch {
      // answered below
    }
    throw new AppError('NOT_FOUND', 'Not Found');
  }

  private async sourceOf(copy: CopyRecord): Promise<CopySource> {
    if (copy.on_ship_only) throw new AppError('NOT_FOUND', 'This copy of the recording stays on the ship');
    const key = storedKeyOf(copy.uri);
    if (key) {
      // A proxy copied from a ship is listed before its file has arrived.
      if (!(await this.ctx.store.stat(key)))
        throw new AppError('NOT_FOUND', 'The recording file is not on this server');
      return { kind: 'stored', key };
    }
    try {
      return await mediaSource(copy.uri, this.ctx.paths.data);
    } catch {
      // A registered file that went missing (a copy never sent to this shore, a moved disk).
      throw new AppError('NOT_FOUND', 'The recording file is not on this server');
    }
  }

  /**
   * What ffmpeg reads for a copy: a file or URL as it is, a stored copy by its local path (the
   * local store) or, in a bucket, by a URL signed for the run (ffmpeg reads only the ranges it
   * needs), named by its key so its frames are cached across runs.
   */
  private async inputOf(copy: CopyRecord): Promise<MediaSource> {
    const source = await this.sourceOf(copy);
    if (source.kind !== 'stored') return source;
    const peer = await this.ctx.store.peerSource(source.key, signedReadSeconds);
    if (!peer) throw new AppError('NOT_FOUND', 'The recording file is not on this server');
    return 'path' in peer ? { kind: 'file', path: peer.path } : { kind: 'url', url: peer.url, name: copy.uri };
  }

  /**
   * The copy a frame is grabbed from and what ffmpeg reads for it: the first of `grabOrder` this
   * host can read (a master on another host's disk gives way to the proxy in the bucket).
   */
  private async grabInput(copies: readonly CopyRecord[]): Promise<{ copy: CopyRecord; source: MediaSource }> {
    let missing: AppError | undefined;
    for (const role of grabOrder) {
      for (const copy of copies.filter((c) => c.role === role && !c.on_ship_only)) {
        try {
          return { copy, source: await this.inputOf(copy) };
        } catch (err) {
          if (!(err instanceof AppError) || err.statusCode !== 404) throw err;
          missing ??= err;
        }
      }
    }
    throw missing ?? new AppError('NOT_FOUND', 'The recording file is not on this server');
  }

  // ---- frame grabs -------------------------------------------------------------------------

  /**
   * Grabs each camera's frame at the event's time and stores them as one normal frame-grab record
   * (its own data source, Sealog's camera_name / filename pairs; files in the images folder).
   */
  async grabEvent(
    caller: AuthContext,
    eventId: string,
    access: EventAccess,
    lane: GrabLane = 'interactive',
  ): Promise<FramegrabResult> {
    const event = await this.visibleEvent(eventId, access);
    // The aux-data rule, before any ffmpeg work: the frame becomes the event's aux data.
    if (!caller.isAdmin && !mayChangeAuxData(caller.user, { created_by: event.created_by }))
      throw new AppError('FORBIDDEN', auxDataChangeRefused);
    return this.grabAt(caller, event, access, lane, await this.index(event.ts, event.ts));
  }

  private async grabAt(
    caller: AuthContext,
    event: { id: string; ts: number },
    access: EventAccess,
    lane: GrabLane,
    index: VideoIndex,
  ): Promise<FramegrabResult> {
    const resolved = index.at(event.ts);
    if (resolved.length === 0) return { event_id: event.id, state: 'no_recording', frames: [] };
    const frames: Array<{ camera: string; filename: string }> = [];
    const errors: string[] = [];
    for (const r of resolved) {
      const recording = await this.repo.findById(r.recording_id);
      const lowering = recording && (await this.repo.lowering(recording.lowering_id));
      if (!recording || !lowering || !pick(recording.copies, grabOrder)) continue;
      try {
        const { copy, source } = await this.grabInput(recording.copies);
        const grabbed = await this.grabber.grab({
          source,
          offset_ms: r.offset_ms,
          deinterlace: copy.interlaced,
          lane,
        });
        const name = framegrabFileName(lowering.lowering_id, r.camera, event.ts);
        // Through the store like every frame grab (a bucket with S3 storage); the cache keeps its copy.
        await this.ctx.store.put(imageKey(name), createReadStream(grabbed.file), { contentType: 'image/jpeg' });
        frames.push({ camera: r.camera, filename: name });
      } catch (err) {
        if (err instanceof FrameGrabError || err instanceof AppError) errors.push(`${r.camera}: ${err.message}`);
        else throw err;
      }
    }
    if (frames.length === 0) {
      return { event_id: event.id, state: 'failed', message: errors.join('; ') || 'no frame', frames };
    }
    await this.aux.create(
      caller,
      {
        event_id: event.id,
        data_source: recordedFramegrabSource,
        data_array: frames.flatMap((f) => [
          { data_name: 'camera_name', data_value: f.camera },
          { data_name: 'filename', data_value: f.filename },
        ]),
      },
      access,
    );
    return {
      event_id: event.id,
      state: 'grabbed',
      frames,
      ...(errors.length ? { message: errors.join('; ') } : {}),
    };
  }

  /** The lowering's latest frame job, or none. */
  async job(caller: AuthContext, loweringId: string, results: 'all' | 'failed' = 'all'): Promise<FramegrabJob | null> {
    await this.lowering(caller, loweringId, 'retrieve');
    const job = await this.repo.latestJob(loweringId);
    return job ? toWireJob(job, results) : null;
  }

  /**
   * Starts the lowering-wide job: every event without a frame (a record of any image source) gets
   * one, in time order, through the frame grabber's batch lane. One job per lowering at a time.
   */
  async startJob(caller: AuthContext, loweringId: string, access: EventAccess): Promise<FramegrabJob> {
    const lowering = await this.lowering(caller, loweringId, 'edit');
    const latest = await this.repo.latestJob(loweringId);
    if (
      RecordingsService.running.has(loweringId) ||
      (latest?.state === 'running' && Date.now() - latest.updated_at < staleJobMs)
    ) {
      throw new AppError('CONFLICT', 'A frame job for this lowering is running');
    }
    const sources = [
      ...new Set([
        ...this.ctx.config.client.imagesAuxDataSources.filter((s) => s !== 'eventFileAttachments'),
        recordedFramegrabSource,
      ]),
    ];
    const events = (await this.repo.eventsWithin(lowering.start_ts, lowering.stop_ts, sources)).filter(
      (e) => !e.has_image && access.maySee(e.ts),
    );
    const now = Date.now();
    const job: JobRecord = {
      id: newObjectId(),
      lowering_id: loweringId,
      state: 'running',
      total: events.length,
      results: [],
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    await this.repo.insertJob(job);
    const run = this.runJob(caller, job, events, access, lowering).finally(() =>
      RecordingsService.running.delete(loweringId),
    );
    RecordingsService.running.set(loweringId, run);
    return toWireJob(job);
  }

  /** Resolves when the lowering's job in this process ends (tests, the bench). */
  static settled(loweringId: string): Promise<void> {
    return RecordingsService.running.get(loweringId) ?? Promise.resolve();
  }

  private async runJob(
    caller: AuthContext,
    job: JobRecord,
    events: ReadonlyArray<{ id: string; ts: number }>,
    access: EventAccess,
    lowering: LoweringSpan,
  ): Promise<void> {
    const results: FramegrabResult[] = [];
    job.results = results;
    try {
      const index = await this.index(lowering.start_ts, lowering.stop_ts);
      let lastSave = Date.now();
      // The grabber runs the batch lane one ffmpeg at a time; a second worker stores one event's
      // frame while the next is grabbed.
      const width = 2;
      let next = 0;
      const worker = async () => {
        while (next < events.length) {
          const event = events[next++]!;
          let result: FramegrabResult;
          try {
            result = await this.grabAt(caller, event, access, 'batch', index);
          } catch (err) {
            result = {
              event_id: event.id,
              state: 'failed',
              message: err instanceof AppError ? err.message : 'frame grab failed',
              frames: [],
            };
          }
          results.push(result);
          if (Date.now() - lastSave > 1000) {
            lastSave = Date.now();
            job.updated_at = lastSave;
            await this.repo.updateJob(job);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(width, Math.max(1, events.length)) }, worker));
      job.state = 'done';
    } catch (err) {
      this.ctx.log.warn({ err }, 'frame job failed');
      job.state = 'failed';
    }
    job.finished_at = Date.now();
    job.updated_at = job.finished_at;
    await this.repo.updateJob(job);
  }

  // ---- the folder watcher ------------------------------------------------------------------

  /**
   * Registers a file the watcher found, by its name (`cam1_20240101T000000Z.mp4`) as the master
   * copy (an `.m3u8` as an HLS copy) of the lowering holding its start. Returns false when no
   * lowering holds it yet (the watcher tries again later); a file registered before is skipped.
   */
  async registerFound(relPath: string): Promise<'registered' | 'known' | 'no_lowering' | 'unnamed'> {
    const m = recordingNamePattern.exec(path.basename(relPath));
    const start = m ? compactUtc(m[2]!) : null;
    if (!m || start === null) return 'unnamed';
    if (await this.repo.uriTaken([relPath])) return 'known';
    const lowering = (await this.repo.loweringsAt(start))[0];
    if (!lowering) return 'no_lowering';
    const role: RecordingCopyRole = m[3]!.toLowerCase() === 'm3u8' ? 'hls' : 'master';
    await this.create(null, lowering.id, { camera: m[1]!, start_ts: start, copies: [{ uri: relPath, role }] });
    return 'registered';
  }
}

/** The plain file names a playlist lists (and those its variant playlists list), for serving its segments. */
async function playlistNames(file: string): Promise<Set<string>> {
  const names = new Set<string>();
  const read = async (p: string, depth: number) => {
    let text: string;
    try {
      text = await readFile(p, 'utf8');
    } catch {
      return;
    }
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (!line || line.startsWith('#') || line.includes('/') || line.includes('\\')) continue;
      if (names.has(line)) continue;
      names.add(line);
      if (depth < 1 && line.toLowerCase().endsWith('.m3u8')) await read(path.join(path.dirname(p), line), depth + 1);
    }
  };
  await read(file, 0);
  return names;
}

function toWireJob(job: JobRecord, shown: 'all' | 'failed' = 'all'): FramegrabJob {
  const results = job.results as FramegrabResult[];
  const count = (state: FramegrabResult['state']) => results.filter((r) => r.state === state).length;
  return {
    id: job.id,
    lowering_id: job.lowering_id,
    state: job.state,
    total: job.total,
    done: results.length,
    grabbed: count('grabbed'),
    no_recording: count('no_recording'),
    failed: count('failed'),
    created_at: iso(job.created_at),
    finished_at: job.finished_at === null ? null : iso(job.finished_at),
    results: shown === 'all' ? results : results.filter((r) => r.state === 'failed'),
  };
}
