import {
  legacyScopeKey,
  legacyValueKey,
  taxonSearchKey,
  type Taxon,
  type TaxonHit,
  type TaxonQualifier,
  type TaxonVernacular,
} from '@bathylog/shared';
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The ship's offline WoRMS taxonomy (docs/taxa.md), below the modules: the taxa module imports
 * and searches it, exports read names, ranks and ancestors from it. Queries only; no rules.
 */

type Db = Kysely<DB> | Transaction<DB>;

/** A taxon to store; `source` is the import's version label. */
export interface TaxonInput {
  aphia_id: number;
  scientific_name: string;
  authority?: string | null;
  rank?: string | null;
  status?: string | null;
  accepted_aphia_id?: number | null;
  parent_aphia_id?: number | null;
  is_marine?: boolean | null;
  vernaculars?: Array<{ name: string; language?: string }>;
}

export interface VernacularInput {
  aphia_id: number;
  name: string;
  language?: string;
}

/** A legacy value's taxon: what `legacyMapping` answers. */
export interface LegacyTaxon {
  aphiaId: number;
  qualifier: TaxonQualifier;
}

export interface LegacyMappingRow {
  id: string;
  scope: string;
  value: string;
  aphia_id: number;
  qualifier: TaxonQualifier;
  created_by: string;
  updated_at: number;
  scientific_name: string | null;
}

export interface TaxonImportRecord {
  id: string;
  kind: string;
  source: string;
  started_by: string;
  started_at: number;
  finished_at: number | null;
  state: string;
  taxa: number;
  vernaculars: number;
  message: string;
}

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const chunkSize = 400;
/** Beyond this many ids a lookup is split (IN lists stay short on both engines). */
const idChunk = 500;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `column` contains `term`. PostgreSQL: LIKE, which its trigram indexes serve. SQLite scans either
 * way; `instr` skips LIKE's pattern matching and case folding (keys are folded already), a third
 * of the time per row.
 */
function contains(db: Db, column: string, term: string): RawBuilder<boolean> {
  const ref = sql.ref(column);
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<boolean>`${ref} LIKE ${`%${escapeLike(term)}%`} ESCAPE '\\'`
    : sql<boolean>`instr(${ref}, ${term}) > 0`;
}

function toTaxon(row: DB['taxa'], vernaculars: TaxonVernacular[]): Taxon {
  return {
    aphia_id: Number(row.aphia_id),
    scientific_name: row.scientific_name,
    authority: row.authority,
    rank: row.taxon_rank,
    status: row.status,
    accepted_aphia_id: row.accepted_aphia_id === null ? null : Number(row.accepted_aphia_id),
    parent_aphia_id: row.parent_aphia_id === null ? null : Number(row.parent_aphia_id),
    is_marine: row.is_marine === null ? null : Number(row.is_marine) === 1,
    vernaculars,
    source: row.source,
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const matchOrder = { exact: 0, prefix: 1, substring: 2, vernacular: 3 } as const;

export class TaxonomyRepository {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('taxa')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async findByAphiaId(id: number): Promise<Taxon | undefined> {
    return (await this.findManyByAphiaId([id])).get(id);
  }

  /** The taxa of these ids that the taxonomy holds, by AphiaID (ids it lacks are absent). */
  async findManyByAphiaId(ids: readonly number[]): Promise<Map<number, Taxon>> {
    const unique = [...new Set(ids.filter((id) => Number.isSafeInteger(id)))];
    const rows: DB['taxa'][] = [];
    for (const part of chunks(unique, idChunk)) {
      rows.push(...(await this.db.selectFrom('taxa').selectAll().where('aphia_id', 'in', part).execute()));
    }
    const vernaculars = await this.vernacularsOf(rows.map((r) => Number(r.aphia_id)));
    return new Map(rows.map((r) => [Number(r.aphia_id), toTaxon(r, vernaculars.get(Number(r.aphia_id)) ?? [])]));
  }

  /**
   * The taxon's ancestors, root first (`Biota`, `Animalia`, …, its parent), without the taxon itself.
   * Stops at a parent the taxonomy lacks, and at a cycle (a damaged import never loops).
   */
  async ancestors(id: number): Promise<Taxon[]> {
    const chain: Taxon[] = [];
    const seen = new Set<number>([id]);
    let current = await this.findByAphiaId(id);
    while (current?.parent_aphia_id !== null && current?.parent_aphia_id !== undefined) {
      const parentId = current.parent_aphia_id;
      if (seen.has(parentId) || chain.length > 100) break;
      seen.add(parentId);
      const parent = await this.findByAphiaId(parentId);
      if (!parent) break;
      chain.push(parent);
      current = parent;
    }
    return chain.reverse();
  }

  /**
   * Taxa by scientific name (exact, then prefix, then substring) and by vernacular name, best
   * first; within a kind, accepted names first, then by name. A query of digits finds that AphiaID.
   */
  async search(query: string, { limit = 20 }: { limit?: number } = {}): Promise<TaxonHit[]> {
    const term = taxonSearchKey(query);
    if (term === '') return [];
    const hits = new Map<number, { row: DB['taxa']; match: TaxonHit['match']; vernacular?: string }>();
    const add = (rows: DB['taxa'][], match: (row: DB['taxa']) => TaxonHit['match'], vernacular?: string[]) =>
      rows.forEach((row, i) => {
        const id = Number(row.aphia_id);
        if (!hits.has(id)) hits.set(id, { row, match: match(row), vernacular: vernacular?.[i] });
      });

    // Digits are an AphiaID: names hold none, so only the id and the name prefix are looked up.
    const digits = /^[0-9]{1,10}$/.test(term);
    if (digits) {
      const row = await this.db.selectFrom('taxa').selectAll().where('aphia_id', '=', Number(term)).executeTakeFirst();
      if (row) add([row], () => 'exact');
    }
    // Prefix: a range on the name index (byte order on both engines).
    const prefixRows = await this.db
      .selectFrom('taxa')
      .selectAll()
      .where('name_key', '>=', term)
      .where('name_key', '<', `${term}\uffff`)
      .orderBy('name_key')
      .limit(limit * 3)
      .execute();
    add(prefixRows, (row) => (row.name_key === term ? 'exact' : 'prefix'));

    // Substring and vernacular matches are read unsorted (a sort would make SQLite walk the name
    // index row by row) up to a cap, in AphiaID order, and ranked below.
    if (!digits && hits.size < limit && term.length >= 3) {
      // Ids first: SQLite then scans the narrow name index, not the table's rows.
      const found = await this.db
        .selectFrom('taxa')
        .select('aphia_id')
        .where(contains(this.db, 'name_key', term))
        .where(sql<boolean>`NOT (name_key >= ${term} AND name_key < ${`${term}\uffff`})`)
        .limit(limit * 5)
        .execute();
      const substringRows = found.length
        ? await this.db
            .selectFrom('taxa')
            .selectAll()
            .where(
              'aphia_id',
              'in',
              found.map((r) => Number(r.aphia_id)),
            )
            .execute()
        : [];
      add(substringRows, () => 'substring');
    }
    if (!digits && hits.size < limit * 2 && term.length >= 2) {
      // Vernacular names first, then their taxa by id: a join lets SQLite walk every taxon instead.
      const matches = await this.db
        .selectFrom('taxon_vernaculars')
        .select(['aphia_id', 'vernacular_name', 'name_key'])
        .where(
          term.length >= 3
            ? contains(this.db, 'name_key', term)
            : sql<boolean>`name_key >= ${term} AND name_key < ${`${term}\uffff`}`,
        )
        .limit(limit * 5)
        .execute();
      matches.sort((a, b) => (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0));
      const ids = [...new Set(matches.map((m) => Number(m.aphia_id)))].filter((id) => !hits.has(id));
      const rows = ids.length
        ? await this.db.selectFrom('taxa').selectAll().where('aphia_id', 'in', ids).execute()
        : [];
      const byId = new Map(rows.map((r) => [Number(r.aphia_id), r]));
      const firstMatch = new Map<number, string>();
      for (const m of matches)
        if (!firstMatch.has(Number(m.aphia_id))) firstMatch.set(Number(m.aphia_id), m.vernacular_name);
      const ordered = ids.map((id) => byId.get(id)).filter((r): r is DB['taxa'] => r !== undefined);
      add(
        ordered,
        () => 'vernacular',
        ordered.map((r) => firstMatch.get(Number(r.aphia_id))!),
      );
    }

    const ranked = [...hits.values()]
      .sort(
        (a, b) =>
          matchOrder[a.match] - matchOrder[b.match] ||
          Number(b.row.status === 'accepted') - Number(a.row.status === 'accepted') ||
          (a.row.name_key < b.row.name_key ? -1 : a.row.name_key > b.row.name_key ? 1 : 0),
      )
      .slice(0, limit);
    const vernaculars = await this.vernacularsOf(ranked.map((h) => Number(h.row.aphia_id)));
    return ranked.map((h) => {
      const hit: TaxonHit = { ...toTaxon(h.row, vernaculars.get(Number(h.row.aphia_id)) ?? []), match: h.match };
      if (h.vernacular !== undefined) hit.matched_vernacular = h.vernacular;
      return hit;
    });
  }

  private async vernacularsOf(ids: readonly number[]): Promise<Map<number, TaxonVernacular[]>> {
    const out = new Map<number, TaxonVernacular[]>();
    for (const part of chunks([...new Set(ids)], idChunk)) {
      const rows = await this.db
        .selectFrom('taxon_vernaculars')
        .select(['aphia_id', 'vernacular_name', 'language'])
        .where('aphia_id', 'in', part)
        .orderBy('aphia_id')
        .orderBy('language')
        .orderBy('vernacular_name')
        .execute();
      for (const r of rows) {
        const id = Number(r.aphia_id);
        const list = out.get(id) ?? [];
        list.push({ name: r.vernacular_name, language: r.language });
        out.set(id, list);
      }
    }
    return out;
  }

  /**
   * Stores taxa, replacing any record of the same AphiaID (a newer export wins); a taxon given
   * with `vernaculars` gets exactly those. Returns the number of taxa written.
   */
  async upsertTaxa(taxa: readonly TaxonInput[], source: string, now: number): Promise<number> {
    for (const part of chunks(taxa, chunkSize)) {
      await this.db
        .insertInto('taxa')
        .values(
          part.map((t) => ({
            aphia_id: t.aphia_id,
            scientific_name: t.scientific_name,
            name_key: taxonSearchKey(t.scientific_name),
            authority: t.authority ?? null,
            taxon_rank: t.rank ?? null,
            status: t.status ?? null,
            accepted_aphia_id: t.accepted_aphia_id ?? null,
            parent_aphia_id: t.parent_aphia_id ?? null,
            is_marine: t.is_marine === null || t.is_marine === undefined ? null : t.is_marine ? 1 : 0,
            source,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.column('aphia_id').doUpdateSet((eb) => ({
            scientific_name: eb.ref('excluded.scientific_name'),
            name_key: eb.ref('excluded.name_key'),
            authority: eb.ref('excluded.authority'),
            taxon_rank: eb.ref('excluded.taxon_rank'),
            status: eb.ref('excluded.status'),
            accepted_aphia_id: eb.ref('excluded.accepted_aphia_id'),
            parent_aphia_id: eb.ref('excluded.parent_aphia_id'),
            is_marine: eb.ref('excluded.is_marine'),
            source: eb.ref('excluded.source'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
      const withVernaculars = part.filter((t) => t.vernaculars !== undefined);
      if (withVernaculars.length > 0) {
        await this.db
          .deleteFrom('taxon_vernaculars')
          .where(
            'aphia_id',
            'in',
            withVernaculars.map((t) => t.aphia_id),
          )
          .execute();
        await this.insertVernaculars(
          withVernaculars.flatMap((t) => (t.vernaculars ?? []).map((v) => ({ aphia_id: t.aphia_id, ...v }))),
        );
      }
    }
    return taxa.length;
  }

  /** Adds vernacular names; one already stored (same taxon, name and language) is kept. */
  async insertVernaculars(rows: readonly VernacularInput[]): Promise<number> {
    const clean = rows.filter((r) => r.name.trim() !== '');
    for (const part of chunks(clean, chunkSize)) {
      await this.db
        .insertInto('taxon_vernaculars')
        .values(
          part.map((r) => ({
            aphia_id: r.aphia_id,
            vernacular_name: r.name.trim(),
            language: r.language?.trim() ?? '',
            name_key: taxonSearchKey(r.name),
          })),
        )
        .onConflict((oc) => oc.columns(['aphia_id', 'vernacular_name', 'language']).doNothing())
        .execute();
    }
    return clean.length;
  }

  /** Sets the marine flag of taxa already stored (WoRMS DwC's `speciesprofile.txt`). */
  async setMarine(flags: ReadonlyArray<{ aphia_id: number; is_marine: boolean }>): Promise<void> {
    for (const value of [true, false]) {
      const ids = flags.filter((f) => f.is_marine === value).map((f) => f.aphia_id);
      for (const part of chunks(ids, idChunk)) {
        await this.db
          .updateTable('taxa')
          .set({ is_marine: value ? 1 : 0 })
          .where('aphia_id', 'in', part)
          .execute();
      }
    }
  }

  // ── legacy option values ─────────────────────────────────────────────────────────────────────

  /**
   * The taxon a legacy option value maps to: `scope` is the option's name (`morphotype`) or the
   * template's event value (`CORAL`); both are matched as Sealog normalises option names, the
   * value case-insensitively. Undefined when the vessel mapped nothing for them.
   */
  async legacyMapping(scope: string, value: string): Promise<LegacyTaxon | undefined> {
    const row = await this.db
      .selectFrom('taxon_legacy_mappings')
      .select(['aphia_id', 'qualifier'])
      .where('scope_key', '=', legacyScopeKey(scope))
      .where('value_key', '=', legacyValueKey(value))
      .executeTakeFirst();
    return row && { aphiaId: Number(row.aphia_id), qualifier: row.qualifier as TaxonQualifier };
  }

  async listLegacyMappings(): Promise<LegacyMappingRow[]> {
    const rows = await this.db
      .selectFrom('taxon_legacy_mappings as m')
      .leftJoin('taxa as t', 't.aphia_id', 'm.aphia_id')
      .select([
        'm.id',
        'm.scope',
        'm.value',
        'm.aphia_id',
        'm.qualifier',
        'm.created_by',
        'm.updated_at',
        't.scientific_name',
      ])
      .orderBy('m.scope_key')
      .orderBy('m.value_key')
      .execute();
    return rows.map((r) => ({
      ...r,
      aphia_id: Number(r.aphia_id),
      qualifier: r.qualifier as TaxonQualifier,
      updated_at: Number(r.updated_at),
      scientific_name: r.scientific_name ?? null,
    }));
  }

  async findLegacyMapping(id: string): Promise<LegacyMappingRow | undefined> {
    return (await this.listLegacyMappings()).find((m) => m.id === id);
  }

  /** Sets the mapping of one scope and value (replacing the one there), keeping its id. */
  async putLegacyMapping(m: {
    id: string;
    scope: string;
    value: string;
    aphia_id: number;
    qualifier: TaxonQualifier;
    created_by: string;
    now: number;
  }): Promise<void> {
    await this.db
      .insertInto('taxon_legacy_mappings')
      .values({
        id: m.id,
        scope: m.scope,
        scope_key: legacyScopeKey(m.scope),
        value: m.value,
        value_key: legacyValueKey(m.value),
        aphia_id: m.aphia_id,
        qualifier: m.qualifier,
        created_by: m.created_by,
        created_at: m.now,
        updated_at: m.now,
      })
      .onConflict((oc) =>
        oc.columns(['scope_key', 'value_key']).doUpdateSet((eb) => ({
          scope: eb.ref('excluded.scope'),
          value: eb.ref('excluded.value'),
          aphia_id: eb.ref('excluded.aphia_id'),
          qualifier: eb.ref('excluded.qualifier'),
          created_by: eb.ref('excluded.created_by'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  async deleteLegacyMapping(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('taxon_legacy_mappings').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ── imports ─────────────────────────────────────────────────────────────────────────────────

  async insertImport(r: TaxonImportRecord): Promise<void> {
    await this.db.insertInto('taxon_imports').values(r).execute();
  }

  async updateImport(
    id: string,
    patch: Partial<Pick<TaxonImportRecord, 'finished_at' | 'state' | 'taxa' | 'vernaculars' | 'message'>>,
  ): Promise<void> {
    await this.db.updateTable('taxon_imports').set(patch).where('id', '=', id).execute();
  }

  async listImports(limit = 20): Promise<TaxonImportRecord[]> {
    const rows = await this.db
      .selectFrom('taxon_imports')
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      started_at: Number(r.started_at),
      finished_at: r.finished_at === null ? null : Number(r.finished_at),
      taxa: Number(r.taxa),
      vernaculars: Number(r.vernaculars),
    }));
  }
}
