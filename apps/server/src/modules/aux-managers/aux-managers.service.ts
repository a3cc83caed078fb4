import { createHash } from 'node:crypto';
import {
  newObjectId,
  toIso,
  type AuxBackfillOutcome,
  type AuxBackfillRequest,
  type AuxBackfillResult,
  type AuxDataItem,
  type AuxManager,
  type AuxManagerCounters,
  type AuxManagerHealth,
  type AuxManagerState,
  type AuxManagerStatus,
  type AuxProvenance,
  type CreateAuxManager,
  type UpdateAuxManager,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { recordOrigin } from '../../origins/record-origins.js';
import { sourceKinds } from '../../aux-sources/index.js';
import type { AuxSource, Provenance, ReadingResult } from '../../aux-sources/source.js';
import { EventAccess } from '../access/event-access.js';
import { recordChange } from '../audit/audit.js';
import { CompletenessService } from '../completeness/completeness.service.js';
import { EventAuxDataService } from '../event-aux-data/event-aux-data.service.js';
import { ConfigProblem, dataSourceOf, parseManagerConfig, type ManagerConfig } from './aux-config.js';
import { buildDataArray } from './aux-lookup.js';
import { readManagersFile } from './aux-managers-file.js';
import { maskSecrets, secretsOf, unmaskSecrets } from './aux-secrets.js';
import {
  AuxManagersRepository,
  type AuxHealthRow,
  type AuxManagerRow,
  type ManagedEvent,
} from './aux-managers.repository.js';

/** Sealog's aux-data scripts look 20 s back; so do the managers unless told otherwise. */
export const defaultMaxAgeMs = 20_000;
export const defaultTimeoutMs = 5_000;
/** Events one backfill answers row by row (the totals count them all). */
const backfillRowLimit = 5_000;
/** Requests one manager has in flight during a backfill. */
const backfillConcurrency = 4;

/** The managers write as this user: the audit trail and the record's author say who. */
export const auxManagerActor = 'aux-managers';
const systemCaller = {
  user: { id: '000000000000000000000000', username: auxManagerActor },
  scopes: ['admin'],
  isAdmin: true,
  key: null,
  route: 'aux-managers',
} as unknown as AuthContext;

export const emptyCounters = (): AuxManagerCounters => ({
  written: 0,
  skipped_stale: 0,
  no_data: 0,
  excluded: 0,
  external: 0,
  errors: 0,
  timeouts: 0,
});

/** A manager as the runtime uses it: its row and its checked configuration (or why it does not hold). */
export interface ManagerDefinition {
  row: AuxManagerRow;
  config: ManagerConfig | null;
  problem: string | null;
}

/** What one event got from one manager (the counters and the backfill table name these). */
export type Outcome = Exclude<AuxBackfillOutcome, 'error'>;

export interface ResolveOptions {
  backfill: boolean;
  dryRun: boolean;
  signal: AbortSignal;
}

function hashOf(dataArray: string | AuxDataItem[]): string {
  let canonical: string;
  try {
    canonical = JSON.stringify(typeof dataArray === 'string' ? JSON.parse(dataArray) : dataArray);
  } catch {
    canonical = String(dataArray);
  }
  return createHash('sha256').update(canonical).digest('hex');
}

function problemMessage(err: unknown): string {
  return err instanceof ConfigProblem ? err.message : 'the configuration cannot be read';
}

const isoOrNull = (v: number | null | undefined) => (v === null || v === undefined ? null : toIso(v));

/**
 * Built-in aux-data managers (docs/aux-managers.md): their definitions (admins), how one event's record is
 * built and written through the aux-data service (the same path as POST /event_aux_data, so its channels
 * fire), provenance, health as the leader stored it, and backfill.
 */
export class AuxManagersService {
  private readonly auxData: EventAuxDataService;

  constructor(private readonly ctx: AppContext) {
    this.auxData = new EventAuxDataService(ctx);
  }

  private get repo() {
    return new AuxManagersRepository(this.ctx.database.db);
  }

  /** Every manager with its configuration checked (a broken one is listed with its problem). */
  async definitions(): Promise<ManagerDefinition[]> {
    return (await this.repo.list()).map((row) => this.define(row));
  }

  async definition(id: string): Promise<ManagerDefinition | undefined> {
    const row = await this.repo.findById(id);
    return row && this.define(row);
  }

  private define(row: AuxManagerRow): ManagerDefinition {
    try {
      return { row, config: parseManagerConfig(row.kind, row.config_yaml), problem: null };
    } catch (err) {
      return { row, config: null, problem: problemMessage(err) };
    }
  }

  /** Makes a definition's source (not started). */
  createSource(def: ManagerDefinition): AuxSource {
    const config = def.config!;
    return sourceKinds[def.row.kind]!.create(
      config.source,
      { measurements: config.measurements, filters: config.filters },
      { log: this.ctx.log },
    );
  }

  historical(kind: string): boolean {
    // Only InfluxDB among the built-in kinds answers for any past time; a live kind says so on its instance.
    return kind === 'influx';
  }

  private toHealth(row: AuxManagerRow, health: AuxHealthRow | undefined, problem: string | null): AuxManagerHealth {
    const state: AuxManagerState = !row.enabled
      ? 'disabled'
      : problem
        ? 'error'
        : ((health?.state as AuxManagerState | undefined) ?? 'stale');
    let counters = emptyCounters();
    try {
      if (health) counters = { ...counters, ...(JSON.parse(health.counters) as Partial<AuxManagerCounters>) };
    } catch {
      // A counters column that does not parse reads as zeros.
    }
    return {
      id: row.id,
      name: row.name,
      data_source: dataSourceOf(row.kind, row.config_yaml),
      required: row.required === 1,
      state,
      last_value_ts: isoOrNull(health?.last_value_ts),
      last_success: isoOrNull(health?.last_success_at),
      last_error: problem ?? health?.last_error ?? null,
      last_error_ts: problem ? isoOrNull(row.updated_at) : isoOrNull(health?.last_error_at),
      counters,
      updated: isoOrNull(health?.updated_at),
    };
  }

  /** The YAML as answered and audited: credentials masked. */
  private masked(def: ManagerDefinition): string {
    return maskSecrets(def.row.config_yaml, def.config ? secretsOf(def.config.source) : []);
  }

  private async toWire(def: ManagerDefinition, health?: AuxHealthRow): Promise<AuxManager> {
    const { row } = def;
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      data_source: def.config?.dataSource ?? '',
      enabled: row.enabled === 1,
      required: row.required === 1,
      max_age_seconds: row.max_age_ms / 1000,
      timeout_seconds: row.timeout_ms / 1000,
      historical: this.historical(row.kind),
      config_yaml: this.masked(def),
      from_file: row.file_hash !== null,
      health: this.toHealth(row, health, def.problem),
    };
  }

  async list(): Promise<AuxManager[]> {
    const [defs, health] = await Promise.all([this.definitions(), this.repo.listHealth()]);
    const byId = new Map(health.map((h) => [h.manager_id, h]));
    return Promise.all(defs.map((d) => this.toWire(d, byId.get(d.row.id))));
  }

  async get(id: string): Promise<AuxManager> {
    const def = await this.definition(id);
    if (!def) throw new AppError('NOT_FOUND', `No aux-data manager found for id: ${id}`);
    const health = (await this.repo.listHealth()).find((h) => h.manager_id === id);
    return this.toWire(def, health);
  }

  /** The health of one manager as the wire carries it (the runner publishes this). */
  healthOf(row: AuxManagerRow, health: AuxHealthRow, problem: string | null): AuxManagerHealth {
    return this.toHealth(row, health, problem);
  }

  /** Required managers that are not ok: the footer's warning, for every reader (names and states only). */
  async status(): Promise<AuxManagerStatus> {
    const managers = await this.list();
    return {
      unhealthy: managers
        .filter((m) => m.required && m.health.state !== 'ok')
        .map((m) => ({ name: m.name, data_source: m.health.data_source, state: m.health.state })),
    };
  }

  private checkConfig(kind: string, yamlText: string): ManagerConfig {
    try {
      return parseManagerConfig(kind, yamlText);
    } catch (err) {
      throw new AppError('BAD_REQUEST', `config_yaml: ${problemMessage(err)}`);
    }
  }

  private async assertFreeName(name: string, id?: string): Promise<void> {
    const holder = await this.repo.findByName(name);
    if (holder && holder.id !== id) throw new AppError('CONFLICT', `An aux-data manager named ${name} already exists`);
  }

  private async assertFreeSource(dataSource: string, id?: string): Promise<void> {
    for (const def of await this.definitions())
      if (def.row.id !== id && def.config?.dataSource === dataSource)
        throw new AppError(
          'CONFLICT',
          `config_yaml: data_source: the manager ${def.row.name} already writes ${dataSource} (one manager per data source)`,
        );
  }

  private changed(managerId: string): void {
    this.ctx.bus.publish(internalChannels.auxManagersChanged, { managerId });
  }

  async create(
    caller: AuthContext | null,
    body: CreateAuxManager,
    fileHash: string | null = null,
  ): Promise<AuxManager> {
    const config = this.checkConfig(body.kind, body.config_yaml);
    await this.assertFreeName(body.name);
    await this.assertFreeSource(config.dataSource);
    const now = this.ctx.now();
    const row: AuxManagerRow = {
      id: newObjectId(),
      name: body.name,
      kind: body.kind,
      enabled: body.enabled === false ? 0 : 1,
      required: body.required ? 1 : 0,
      max_age_ms: Math.round((body.max_age_seconds ?? defaultMaxAgeMs / 1000) * 1000),
      timeout_ms: Math.round((body.timeout_seconds ?? defaultTimeoutMs / 1000) * 1000),
      config_yaml: body.config_yaml,
      file_hash: fileHash,
      created_at: now,
      updated_at: now,
    };
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new AuxManagersRepository(trx).insert(row);
      if (caller)
        await recordChange(trx, caller, {
          action: 'create',
          record_type: 'aux_manager',
          record_id: row.id,
          new_value: { name: row.name, kind: row.kind, config_yaml: this.masked({ row, config, problem: null }) },
        });
    });
    this.changed(row.id);
    return this.get(row.id);
  }

  async update(
    caller: AuthContext | null,
    id: string,
    body: UpdateAuxManager,
    fileHash?: string | null,
  ): Promise<AuxManager> {
    const existing = await this.repo.findById(id);
    if (!existing) throw new AppError('NOT_FOUND', `No aux-data manager found for id: ${id}`);
    const before = this.define(existing);
    if (body.config_yaml !== undefined) {
      const stored = before.config ? secretsOf(before.config.source) : [];
      body = { ...body, config_yaml: unmaskSecrets(body.config_yaml, existing.config_yaml, stored) };
      const config = this.checkConfig(existing.kind, body.config_yaml!);
      await this.assertFreeSource(config.dataSource, id);
    }
    if (body.name !== undefined) await this.assertFreeName(body.name, id);
    const patch: Partial<AuxManagerRow> = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
      ...(body.required !== undefined ? { required: body.required ? 1 : 0 } : {}),
      ...(body.max_age_seconds !== undefined ? { max_age_ms: Math.round(body.max_age_seconds * 1000) } : {}),
      ...(body.timeout_seconds !== undefined ? { timeout_ms: Math.round(body.timeout_seconds * 1000) } : {}),
      ...(body.config_yaml !== undefined ? { config_yaml: body.config_yaml } : {}),
      ...(fileHash !== undefined ? { file_hash: fileHash } : {}),
      updated_at: this.ctx.now(),
    };
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new AuxManagersRepository(trx).update(id, patch);
      if (caller)
        await recordChange(trx, caller, {
          action: 'update',
          record_type: 'aux_manager',
          record_id: id,
          old_value: { name: existing.name, enabled: existing.enabled === 1, config_yaml: this.masked(before) },
          new_value: {
            ...body,
            ...(body.config_yaml !== undefined
              ? { config_yaml: this.masked(this.define({ ...existing, config_yaml: body.config_yaml })) }
              : {}),
          },
        });
    });
    this.changed(id);
    return this.get(id);
  }

  async remove(caller: AuthContext, id: string): Promise<void> {
    const existing = await this.repo.findById(id);
    if (!existing) throw new AppError('NOT_FOUND', `No aux-data manager found for id: ${id}`);
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new AuxManagersRepository(trx).delete(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'aux_manager',
        record_id: id,
        old_value: { name: existing.name, kind: existing.kind, config_yaml: this.masked(this.define(existing)) },
      });
    });
    this.changed(id);
  }

  /**
   * Reads the managers file at start (docs/aux-managers.md#the-managers-file): a manager it names is created,
   * or replaced when its entry changed since the last start; an unchanged entry leaves the client's edits.
   * An invalid file stops the start with the key named.
   */
  async syncFile(file: string): Promise<void> {
    for (const m of readManagersFile(file)) {
      const existing = await this.repo.findByName(m.name);
      const fields = {
        enabled: m.enabled ?? true,
        required: m.required ?? false,
        max_age_seconds: m.max_age_seconds ?? defaultMaxAgeMs / 1000,
        timeout_seconds: m.timeout_seconds ?? defaultTimeoutMs / 1000,
        config_yaml: m.config_yaml,
      };
      if (!existing) {
        try {
          await this.create(null, { name: m.name, kind: m.kind, ...fields }, m.hash);
        } catch (err) {
          // Another process read the same file first.
          if (!(await this.repo.findByName(m.name))) throw err;
        }
      } else if (existing.file_hash !== m.hash) {
        if (existing.kind !== m.kind) await this.repo.update(existing.id, { kind: m.kind });
        await this.update(null, existing.id, fields, m.hash);
      }
    }
  }

  async saveHealth(row: AuxHealthRow): Promise<void> {
    await this.repo.saveHealth(row);
  }

  /** Where an event's records came from (the managers' records only; others were written by their own clients). */
  async provenance(eventId: string, access: EventAccess): Promise<AuxProvenance[]> {
    const repo = this.repo;
    const event = await repo.eventById(eventId);
    if (!event) throw new AppError('NOT_FOUND', `No event found for id: ${eventId}`);
    // An event the caller may not see is answered as one that does not exist.
    if (!(await access.maySeeEvent(this.ctx.database.db, event)))
      throw new AppError('NOT_FOUND', `No event found for id: ${eventId}`);
    const out: AuxProvenance[] = [];
    for (const w of await repo.listWrites(eventId)) {
      const record = await repo.auxRecord(eventId, w.data_source);
      out.push({
        event_id: w.event_id,
        data_source: w.data_source,
        manager: w.manager_name,
        source_kind: w.source_kind,
        provenance: w.provenance as Provenance,
        value_ts: isoOrNull(w.value_ts),
        written: toIso(w.written_at),
        current: !!record && hashOf(record.data_array) === w.data_hash,
      });
    }
    return out;
  }

  /**
   * One event's record from one manager (docs/aux-managers.md#one-event): the source's reading at the event's
   * time, the lookup rules, then the write through the aux-data service, unless another writer owns the record.
   * A record this manager wrote for an earlier time of the event is removed when the new time has no data.
   */
  async resolve(
    def: ManagerDefinition,
    source: AuxSource,
    event: ManagedEvent,
    opts: ResolveOptions,
    prefetched?: ReadingResult,
  ): Promise<{ outcome: Outcome; valueTs?: number }> {
    const config = def.config!;
    if (config.excludeEventValues.includes(event.event_value)) return { outcome: 'excluded' };
    // A record copied from a ship is read-only here (docs/ship-to-shore.md#read-only-on-shore): its ship stamps it.
    if (await recordOrigin(this.ctx, 'event', event.id)) return { outcome: 'excluded' };
    if (opts.backfill && !source.historical) return { outcome: 'not_backfillable' };
    const keys = Object.keys(config.lookup);
    const result =
      prefetched ??
      (await source.readingAt({
        at: event.ts,
        maxAgeMs: def.row.max_age_ms,
        keys,
        interpolate: keys.filter((k) => config.lookup[k]!.interpolate),
        signal: opts.signal,
        imagesDir: this.ctx.paths.images,
        eventId: event.id,
      }));
    const repo = this.repo;
    const record = await repo.auxRecord(event.id, config.dataSource);
    const written = record ? await repo.findWrite(event.id, config.dataSource) : undefined;
    const ours = !record || (!!written && written.data_hash === hashOf(record.data_array));

    if (result.kind !== 'reading' || result.reading.ts < event.ts - def.row.max_age_ms) {
      // A record of this manager built for another time of the event is wrong now: it goes.
      if (record && ours && written && written.event_ts !== event.ts && !opts.dryRun) {
        await this.auxData.remove(systemCaller, record.id, EventAccess.everything);
        await repo.deleteWrite(event.id, config.dataSource);
      }
      if (result.kind === 'not_backfillable') return { outcome: 'not_backfillable' };
      return { outcome: result.kind === 'no_data' ? 'no_data' : 'stale' };
    }
    const dataArray = buildDataArray(config.lookup, result.reading.values);
    if (!dataArray) return { outcome: 'no_data' };
    if (!ours) return { outcome: 'external' };
    const hash = hashOf(dataArray);
    if (record && written && written.data_hash === hash && written.event_ts === event.ts)
      return { outcome: 'unchanged', valueTs: result.reading.ts };
    if (opts.dryRun) return { outcome: 'written', valueTs: result.reading.ts };
    await this.auxData.create(
      systemCaller,
      { event_id: event.id, data_source: config.dataSource, data_array: dataArray },
      EventAccess.everything,
    );
    await repo.saveWrite({
      event_id: event.id,
      data_source: config.dataSource,
      event_ts: event.ts,
      manager_id: def.row.id,
      manager_name: def.row.name,
      source_kind: def.row.kind,
      provenance: opts.backfill ? 'backfilled' : result.provenance,
      value_ts: result.reading.ts,
      data_hash: hash,
      written_at: this.ctx.now(),
    });
    return { outcome: 'written', valueTs: result.reading.ts };
  }

  /** A lowering's or cruise's id from its id or its name (the CLI takes either). */
  async recordId(kind: 'lowering' | 'cruise', ref: string): Promise<string> {
    const id = await this.repo.recordIdByRef(kind, ref);
    if (!id) throw new AppError('NOT_FOUND', `No ${kind} found for ${ref.slice(0, 100)}`);
    return id;
  }

  /** The events a backfill names, oldest first, in pages. */
  private async *backfillEvents(body: AuxBackfillRequest): AsyncGenerator<ManagedEvent[]> {
    const repo = this.repo;
    const named = [body.event_ids, body.lowering_id, body.cruise_id].filter((v) => v !== undefined).length;
    if (named !== 1) throw new AppError('BAD_REQUEST', 'name exactly one of event_ids, lowering_id, cruise_id');
    if (body.event_ids) {
      // Ids of events that do not exist (or no longer) are left out: the answer counts the events found.
      yield await repo.eventsByIds([...new Set(body.event_ids)]);
      return;
    }
    const window = body.lowering_id
      ? await repo.loweringWindow(body.lowering_id)
      : await repo.cruiseWindow(body.cruise_id!);
    if (!window)
      throw new AppError(
        'NOT_FOUND',
        body.lowering_id ? 'lowering_id: no lowering found for that id' : 'cruise_id: no cruise found for that id',
      );
    let after: { ts: number; id: string } | null = null;
    for (;;) {
      const page = await repo.eventsInWindow(window.start_ts, window.stop_ts, after, 1000);
      if (page.length === 0) return;
      yield page;
      const last = page[page.length - 1]!;
      after = { ts: last.ts, id: last.id };
    }
  }

  /**
   * Backfill (docs/aux-managers.md#backfill): every named event through every chosen manager; a dry run (the
   * default) writes nothing and says per event what a run would do. Idempotent: a record already holding what
   * the source says is `unchanged`. Only historical sources answer; live-only ones say `not_backfillable`.
   */
  async backfill(body: AuxBackfillRequest): Promise<AuxBackfillResult> {
    const dryRun = body.dry_run !== false;
    const defs = (await this.definitions()).filter((d) =>
      body.manager_ids ? body.manager_ids.includes(d.row.id) : d.row.enabled === 1,
    );
    if (body.manager_ids && defs.length !== new Set(body.manager_ids).size)
      throw new AppError('NOT_FOUND', 'manager_ids: no aux-data manager found for one of the ids');
    const totals: Record<string, number> = {};
    const rows: AuxBackfillResult['rows'] = [];
    const touched = new Set<string>();
    let events = 0;
    const sources = new Map<string, AuxSource>();
    try {
      for (const def of defs) {
        if (!def.config) continue;
        const source = this.createSource(def);
        if (source.historical) await source.start();
        sources.set(def.row.id, source);
      }
      for await (const page of this.backfillEvents(body)) {
        events += page.length;
        for (const def of defs) {
          const source = sources.get(def.row.id);
          // A source that reads a span at once answers the whole page in one request (InfluxDB).
          let batch: ReadingResult[] | null = null;
          let batchError: string | null = null;
          if (source?.historical && source.readingsAt) {
            try {
              const keys = Object.keys(def.config!.lookup);
              batch = await source.readingsAt(
                page.map((e) => e.ts),
                {
                  maxAgeMs: def.row.max_age_ms,
                  keys,
                  interpolate: keys.filter((k) => def.config!.lookup[k]!.interpolate),
                  signal: AbortSignal.timeout(Math.max(def.row.timeout_ms, 60_000)),
                  imagesDir: this.ctx.paths.images,
                },
              );
            } catch (err) {
              batchError = operatorMessage(err);
            }
          }
          const outcomes = await mapLimited(page, backfillConcurrency, async (event, i) => {
            if (!source) return { outcome: 'error' as const, message: `config_yaml: ${def.problem}` };
            if (batchError) return { outcome: 'error' as const, message: batchError };
            try {
              const signal = AbortSignal.timeout(def.row.timeout_ms);
              return await this.resolve(def, source, event, { backfill: true, dryRun, signal }, batch?.[i]);
            } catch (err) {
              return { outcome: 'error' as const, message: operatorMessage(err) };
            }
          });
          page.forEach((event, i) => {
            const r = outcomes[i]!;
            totals[r.outcome] = (totals[r.outcome] ?? 0) + 1;
            if (r.outcome === 'written' && !dryRun) touched.add(event.id);
            if (rows.length < backfillRowLimit)
              rows.push({
                event_id: event.id,
                ts: toIso(event.ts),
                event_value: event.event_value,
                manager: def.row.name,
                data_source: def.config?.dataSource ?? '',
                outcome: r.outcome,
                ...('message' in r && r.message ? { message: r.message } : {}),
              });
          });
        }
      }
    } finally {
      await Promise.all([...sources.values()].map((s) => (s.historical ? s.stop() : Promise.resolve())));
    }
    // Old events' aux data is not published live: the completeness marks are judged again here.
    if (touched.size > 0) await new CompletenessService(this.ctx).refresh([...touched]).catch(() => {});
    return { dry_run: dryRun, events, totals, rows };
  }
}

/** A message for operators from a failure: the source's own (it holds no secret), or a plain one. */
export function operatorMessage(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return 'the source did not answer in time';
  if (err instanceof Error && err.constructor.name !== 'Error' && err.message) return err.message.slice(0, 300);
  return 'the source failed';
}

/** `fn` over `items` with at most `limit` running at once; results in order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
