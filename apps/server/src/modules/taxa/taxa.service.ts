import type { Readable } from 'node:stream';
import {
  choiceOptionTypes,
  legacyScopeKey,
  legacyValueKey,
  loggedTaxa,
  newObjectId,
  optionNameKey,
  splitCheckboxDefault,
  taxonNamePattern,
  taxonOptionType,
  type LegacyMapping,
  type LegacyValue,
  type PutLegacyMapping,
  type SynonymReportRow,
  type Taxon,
  type TaxonDetail,
  type TaxonHit,
  type TaxonImport,
  type TaxonImportKind,
  type TaxonomyStatus,
  type WormsFetchResult,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../lib/json.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import {
  TaxonomyRepository,
  type LegacyMappingRow,
  type TaxonImportRecord,
  type TaxonInput,
} from '../../taxonomy/taxonomy.repository.js';
import type { EventAccess } from '../access/event-access.js';
import { recordChange } from '../audit/audit.js';
import { EventQueries, type EventScope } from '../events/event-queries.js';
import { EventTemplatesService } from '../event-templates/event-templates.service.js';
import { readJsonRows, readTable, type ImportBatch, type Skipped } from './taxa-import.js';
import { WormsClient, taxonOf } from './worms-client.js';

const iso = (ms: number) => new Date(ms).toISOString();

function toWireImport(r: TaxonImportRecord): TaxonImport {
  return {
    ...r,
    started_at: iso(r.started_at),
    finished_at: r.finished_at === null ? null : iso(r.finished_at),
    state: r.state as TaxonImport['state'],
  };
}

function toWireMapping(m: LegacyMappingRow): LegacyMapping {
  return { ...m, updated_at: iso(m.updated_at) };
}

/** Both sides of a taxon import's summary: what was written and what was left out. */
function skippedMessage(skipped: Skipped): string {
  if (skipped.count === 0) return '';
  return `${skipped.count} row${skipped.count === 1 ? '' : 's'} left out: ${skipped.reasons.join('; ')}`;
}

/**
 * Taxa (docs/taxa.md): searching the ship's offline WoRMS taxonomy, importing it (files or the
 * WoRMS REST service), the vessel's legacy-option mappings and the synonym report.
 */
export class TaxaService {
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return new TaxonomyRepository(this.ctx.database.db);
  }

  search(query: string, limit: number | undefined): Promise<TaxonHit[]> {
    return this.repo.search(query, { limit: limit ?? 20 });
  }

  async get(id: number): Promise<TaxonDetail> {
    const repo = this.repo;
    const taxon = await repo.findByAphiaId(id);
    if (!taxon) throw new AppError('NOT_FOUND', `No taxon found for AphiaID: ${id}`);
    const ancestors = await repo.ancestors(id);
    const acceptedId = taxon.accepted_aphia_id;
    const accepted =
      acceptedId !== null && acceptedId !== taxon.aphia_id ? await repo.findByAphiaId(acceptedId) : undefined;
    return {
      ...taxon,
      ancestors: ancestors.map((a) => ({ aphia_id: a.aphia_id, scientific_name: a.scientific_name, rank: a.rank })),
      accepted: accepted ? { aphia_id: accepted.aphia_id, scientific_name: accepted.scientific_name } : null,
    };
  }

  async status(): Promise<TaxonomyStatus> {
    const repo = this.repo;
    return { taxa: await repo.count(), imports: (await repo.listImports()).map(toWireImport) };
  }

  // ── imports ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Imports one file as it streams in (a table) or a parsed JSON body. Each batch of rows is its
   * own transaction, so event logging never waits behind a long import; the import's row shows
   * how far it got (the admin screen polls it) and ends `done` or `failed`.
   */
  async import(
    caller: AuthContext,
    kind: TaxonImportKind,
    source: string | undefined,
    input: { stream: Readable } | { json: unknown },
  ): Promise<TaxonImport> {
    const now = this.ctx.now();
    const label = source ?? `${kind} ${iso(now).slice(0, 10)}`;
    // A JSON body is checked whole before anything is written.
    const jsonRows = 'json' in input ? readJsonRows(input.json) : null;
    const record: TaxonImportRecord = {
      id: newObjectId(),
      kind,
      source: label,
      started_by: caller.user.username,
      started_at: now,
      finished_at: null,
      state: 'running',
      taxa: 0,
      vernaculars: 0,
      message: '',
    };
    const db = this.ctx.database.db;
    await this.repo.insertImport(record);
    const skipped: Skipped = { count: 0, reasons: [] };
    const write = async (batch: ImportBatch) => {
      await db.transaction().execute(async (trx) => {
        const repo = new TaxonomyRepository(trx);
        if (batch.kind === 'taxa') {
          record.taxa += await repo.upsertTaxa(batch.rows, label, this.ctx.now());
          record.vernaculars += batch.rows.reduce((n, t) => n + (t.vernaculars?.length ?? 0), 0);
        } else if (batch.kind === 'vernaculars') record.vernaculars += await repo.insertVernaculars(batch.rows);
        else {
          await repo.setMarine(batch.rows);
          record.taxa += batch.rows.length;
        }
        await repo.updateImport(record.id, { taxa: record.taxa, vernaculars: record.vernaculars });
      });
    };
    try {
      if (jsonRows) {
        for (let i = 0; i < jsonRows.length; i += 1000)
          await write({ kind: 'taxa', rows: jsonRows.slice(i, i + 1000) });
      } else if ('stream' in input) {
        if (kind === 'json') throw new AppError('BAD_REQUEST', 'A json import is sent as application/json');
        for await (const batch of readTable(kind, input.stream, skipped)) await write(batch);
      }
    } catch (err) {
      const message = err instanceof AppError ? err.message : 'The import stopped on an unexpected error';
      await this.repo.updateImport(record.id, { state: 'failed', finished_at: this.ctx.now(), message });
      if (!(err instanceof AppError)) this.ctx.log.error({ err }, 'taxonomy import failed');
      throw err instanceof AppError ? err : new AppError('INTERNAL', message);
    }
    record.state = 'done';
    record.finished_at = this.ctx.now();
    record.message = skippedMessage(skipped);
    await db.transaction().execute(async (trx) => {
      await new TaxonomyRepository(trx).updateImport(record.id, {
        state: record.state,
        finished_at: record.finished_at,
        message: record.message,
      });
      await recordChange(trx, caller, {
        action: 'import',
        record_type: 'taxonomy',
        record_id: record.id,
        new_value: { kind, source: label, taxa: record.taxa, vernaculars: record.vernaculars, skipped: skipped.count },
      });
    });
    return toWireImport(record);
  }

  /**
   * Fetches names from the WoRMS REST service: each exact match, its accepted name when it is
   * unaccepted, their vernacular names and every ancestor. Ancestors known only from the
   * classification (id, name, rank) never replace a full record already held.
   */
  async fetchFromWorms(caller: AuthContext, names: readonly string[]): Promise<WormsFetchResult> {
    // The route's schema checks names too; the CLI comes here directly. A name is put into the
    // request path, so nothing but a taxon name's characters may reach it.
    const bad = names.find((n) => !taxonNamePattern.test(n));
    if (bad !== undefined) throw new AppError('BAD_REQUEST', `"${bad.slice(0, 60)}" is not a scientific name`);
    const client = new WormsClient(this.ctx.config.worms.url, this.ctx.config.worms.timeoutMs);
    const source = `WoRMS REST ${iso(this.ctx.now()).slice(0, 10)}`;
    const full = new Map<number, TaxonInput>();
    const found: WormsFetchResult['found'] = [];
    for (const name of [...new Set(names)]) {
      const records = (await client.recordsByName(name)).filter(
        (r) => r.scientificname.toLowerCase() === name.toLowerCase(),
      );
      found.push({ name, aphia_ids: records.map((r) => r.AphiaID) });
      for (const r of records) full.set(r.AphiaID, taxonOf(r));
    }
    for (const t of [...full.values()]) {
      const accepted = t.accepted_aphia_id;
      if (accepted && accepted !== t.aphia_id && !full.has(accepted)) {
        const record = await client.recordById(accepted);
        if (record) full.set(record.AphiaID, taxonOf(record));
      }
    }
    const partial = new Map<number, TaxonInput>();
    for (const t of [...full.values()]) {
      t.vernaculars = await client.vernaculars(t.aphia_id);
      const chain = await client.classification(t.aphia_id);
      chain.forEach((node, i) => {
        if (full.has(node.aphia_id)) {
          // The classification names the accepted parent: keep the record's own when it has one.
          const own = full.get(node.aphia_id)!;
          own.parent_aphia_id ??= i > 0 ? chain[i - 1]!.aphia_id : null;
          return;
        }
        partial.set(node.aphia_id, {
          aphia_id: node.aphia_id,
          scientific_name: node.name,
          rank: node.rank,
          parent_aphia_id: i > 0 ? chain[i - 1]!.aphia_id : null,
        });
      });
    }
    const db = this.ctx.database.db;
    let written = 0;
    await db.transaction().execute(async (trx) => {
      const repo = new TaxonomyRepository(trx);
      const held = await repo.findManyByAphiaId([...partial.keys()]);
      const missing = [...partial.values()].filter((t) => !held.has(t.aphia_id));
      written += await repo.upsertTaxa(missing, source, this.ctx.now());
      written += await repo.upsertTaxa([...full.values()], source, this.ctx.now());
      await recordChange(trx, caller, {
        action: 'import',
        record_type: 'taxonomy',
        record_id: null,
        new_value: { kind: 'worms-rest', source, names, taxa: written },
      });
    });
    return { found, taxa: written, source };
  }

  // ── legacy mappings ─────────────────────────────────────────────────────────────────────────

  async legacyMappings(): Promise<LegacyMapping[]> {
    return (await this.repo.listLegacyMappings()).map(toWireMapping);
  }

  async putLegacyMapping(caller: AuthContext, body: PutLegacyMapping): Promise<LegacyMapping> {
    const db = this.ctx.database.db;
    return db.transaction().execute(async (trx) => {
      const repo = new TaxonomyRepository(trx);
      if (!(await repo.findByAphiaId(body.aphia_id)))
        throw new AppError('BAD_REQUEST', `aphia_id ${body.aphia_id} is not in the taxonomy: import or fetch it first`);
      const before = (await repo.listLegacyMappings()).find(
        (m) =>
          legacyScopeKey(m.scope) === legacyScopeKey(body.scope) &&
          legacyValueKey(m.value) === legacyValueKey(body.value),
      );
      const id = before?.id ?? newObjectId();
      await repo.putLegacyMapping({
        id,
        scope: body.scope,
        value: body.value,
        aphia_id: body.aphia_id,
        qualifier: body.qualifier ?? '',
        created_by: caller.user.username,
        now: this.ctx.now(),
      });
      const after = (await repo.findLegacyMapping(id))!;
      await recordChange(trx, caller, {
        action: before ? 'update' : 'create',
        record_type: 'taxon_legacy_mapping',
        record_id: id,
        old_value: before ? toWireMapping(before) : null,
        new_value: toWireMapping(after),
      });
      return toWireMapping(after);
    });
  }

  async deleteLegacyMapping(caller: AuthContext, id: string): Promise<void> {
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new TaxonomyRepository(trx);
      const before = await repo.findLegacyMapping(id);
      if (!before) throw new AppError('NOT_FOUND', `No legacy mapping found for id: ${id}`);
      await repo.deleteLegacyMapping(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'taxon_legacy_mapping',
        record_id: id,
        old_value: toWireMapping(before),
      });
    });
  }

  /** The choice values the templates offer (morphotype buttons), each with its mapping if any. */
  async legacyValues(caller: AuthContext): Promise<LegacyValue[]> {
    let templates: Awaited<ReturnType<EventTemplatesService['list']>> = [];
    try {
      templates = await new EventTemplatesService(this.ctx).list(caller, {});
    } catch (err) {
      if (!(err instanceof AppError && err.statusCode === 404)) throw err;
    }
    const mappings = await this.repo.listLegacyMappings();
    const find = (scope: string, value: string) =>
      mappings.find(
        (m) => legacyScopeKey(m.scope) === legacyScopeKey(scope) && legacyValueKey(m.value) === legacyValueKey(value),
      );
    const out: LegacyValue[] = [];
    const seen = new Set<string>();
    for (const t of templates) {
      for (const o of t.event_options) {
        if (o.event_option_type === taxonOptionType) continue;
        const values = choiceOptionTypes.includes(o.event_option_type)
          ? o.event_option_values
          : o.event_option_type === 'static text'
            ? splitCheckboxDefault(o.event_option_default_value ?? '')
            : [];
        for (const value of values) {
          const key = `${legacyScopeKey(o.event_option_name)}\n${legacyValueKey(value)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const mapping = find(o.event_option_name, value) ?? find(t.event_value, value);
          out.push({
            template: t.event_value,
            option: o.event_option_name,
            value,
            mapping: mapping ? toWireMapping(mapping) : null,
          });
        }
      }
    }
    return out;
  }

  // ── the synonym report ──────────────────────────────────────────────────────────────────────

  /**
   * Names logged in a cruise or lowering (picks and mapped legacy values) whose AphiaID the
   * taxonomy no longer calls accepted, names differently, or does not hold. The events keep the
   * name chosen; the report says what WoRMS calls it now.
   */
  async synonymReport(caller: AuthContext, scope: EventScope, access: EventAccess): Promise<SynonymReportRow[]> {
    const queries = new EventQueries(this.ctx);
    const notFound = new AppError('NOT_FOUND', 'No cruise or lowering found for that id');
    const window = await queries.window(caller, scope, notFound);
    const resolved = await queries.resolve({}, window, 'substring', access);
    const repo = this.repo;
    const legacyCache = new Map<string, Awaited<ReturnType<TaxonomyRepository['legacyMapping']>>>();
    const legacy = async (scopeName: string, value: string) => {
      const key = `${legacyScopeKey(scopeName)}\n${legacyValueKey(value)}`;
      if (!legacyCache.has(key)) legacyCache.set(key, await repo.legacyMapping(scopeName, value));
      return legacyCache.get(key);
    };
    const uses = new Map<
      string,
      {
        name: string;
        aphia_id: number;
        via: SynonymReportRow['via'];
        option: string;
        events: number;
        first: number;
        last: number;
      }
    >();
    const use = (u: { name: string; aphia_id: number; via: SynonymReportRow['via']; option: string }, ts: number) => {
      const key = `${u.via}\n${u.option}\n${u.name}\n${u.aphia_id}`;
      const found = uses.get(key);
      if (found) {
        found.events++;
        found.first = Math.min(found.first, ts);
        found.last = Math.max(found.last, ts);
      } else uses.set(key, { ...u, events: 1, first: ts, last: ts });
    };
    for await (const rows of queries.rows(resolved, { order: 'asc' })()) {
      for (const row of rows) {
        const options = parseJson<Array<{ event_option_name: string; event_option_value: string }>>(
          row.event_options,
          [],
        );
        const picked = loggedTaxa(options);
        for (const t of picked)
          use({ name: t.name, aphia_id: t.aphia_id, via: 'taxon option', option: t.option }, row.ts);
        const contractNames = new Set(
          picked.flatMap((t) => [
            t.option,
            `${t.option}_aphia_id`,
            `${t.option}_qualifier`,
            `${t.option}_count`,
            `${t.option}_abundance`,
          ]),
        );
        for (const o of options) {
          const optionKey = optionNameKey(o.event_option_name);
          if (contractNames.has(optionKey) || o.event_option_value.trim() === '') continue;
          const mapped =
            (await legacy(o.event_option_name, o.event_option_value)) ??
            (await legacy(row.event_value, o.event_option_value));
          if (mapped)
            use(
              {
                name: o.event_option_value,
                aphia_id: mapped.aphiaId,
                via: 'legacy mapping',
                option: `${o.event_option_name}: ${o.event_option_value}`,
              },
              row.ts,
            );
        }
      }
    }
    const taxa = await repo.findManyByAphiaId([...uses.values()].map((u) => u.aphia_id));
    const accepted = await repo.findManyByAphiaId(
      [...taxa.values()].map((t) => t.accepted_aphia_id).filter((id): id is number => id !== null),
    );
    const out: SynonymReportRow[] = [];
    for (const u of uses.values()) {
      const taxon: Taxon | undefined = taxa.get(u.aphia_id);
      const currentName = taxon?.scientific_name ?? null;
      const renamed = u.via === 'taxon option' && currentName !== null && currentName !== u.name;
      const changed = !taxon || taxon.status !== 'accepted' || renamed;
      if (!changed) continue;
      const acceptedId = taxon?.accepted_aphia_id ?? null;
      out.push({
        name: u.name,
        aphia_id: u.aphia_id,
        via: u.via,
        option: u.option,
        status: taxon?.status ?? null,
        current_name: renamed ? currentName : null,
        accepted_aphia_id: acceptedId !== null && acceptedId !== u.aphia_id ? acceptedId : null,
        accepted_name:
          acceptedId !== null && acceptedId !== u.aphia_id ? (accepted.get(acceptedId)?.scientific_name ?? null) : null,
        events: u.events,
        first_ts: iso(u.first),
        last_ts: iso(u.last),
      });
    }
    out.sort((a, b) => a.name.localeCompare(b.name) || a.option.localeCompare(b.option));
    return out;
  }
}
