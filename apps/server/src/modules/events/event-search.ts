import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { EventFilter } from './event-filter.js';

/**
 * Everything dialect-specific about searching events lives here (STYLE: one place, tested on
 * both engines). Query shapes and why:
 *
 * - `event_value` and aux `data_source` have few distinct values (template values, inserter
 *   names), so value and datasource terms are first resolved against the distinct values (a
 *   loose index scan: one index probe per distinct value) into an exact `IN` list, which the
 *   (event_value, ts) index then serves. `!ASNAP` becomes "value in (every other value)".
 * - Author, free text and fulltext terms use the substring index: SQLite FTS5 trigram (the match
 *   drives the query; terms under 3 characters, which trigrams cannot index, are checked per
 *   row), PostgreSQL pg_trgm GIN indexes on lower() expressions via LIKE.
 * - Pages and counts use the index-driven shape; streamed lists and exports walk the ts index in
 *   keyset chunks and check every condition per row, which costs the same per chunk however many
 *   events match.
 */

export type Db = Kysely<DB> | Transaction<DB>;

/** Resolving against distinct values stops beyond this many; then terms are checked per row. */
const distinctCap = 2000;

/** The filter with value and datasource terms resolved against the data. */
export interface ResolvedFilter {
  filter: EventFilter;
  /** Exact event values allowed, or null when value terms are checked per row (or there are none). */
  valueList: string[] | null;
  /** Value terms that still need a per-row check (too many distinct values to resolve). */
  valueTerms: { include: string[]; exclude: string[] } | null;
  /** True when only exclusions narrowed the values: the list is then most values, not selective. */
  valueListFromExclusions: boolean;
  /** Aux-data sources an event must have one of, or null for no such condition. */
  datasourceList: string[] | null;
  /** Datasource terms checked per row (too many distinct sources to resolve), or null. */
  datasourceTerms: string[] | null;
  /** Nothing can match (e.g. no stored value contains the term). */
  none: boolean;
}

export interface EventRow {
  id: string;
  ts: number;
  event_author: string;
  event_value: string;
  event_options: string;
  event_free_text: string;
}

export type SortOrder = 'asc' | 'desc';

const lower = (text: string) => text.toLowerCase();

function matchesAny(text: string, terms: readonly string[]): boolean {
  const t = lower(text);
  return terms.some((term) => t.includes(lower(term)));
}

/** Characters, not UTF-16 units: trigram needs three characters. */
const charLength = (term: string) => [...term].length;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

const ftsColumns = {
  fulltext: '{event_value event_free_text option_values event_author}',
  authors: '{event_author}',
  freetext: '{event_free_text}',
} as const;

export class EventSearch {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** Distinct values of an indexed text column, in index order; null when there are more than the cap. */
  private async distinct(table: 'events' | 'event_aux_data', column: 'event_value' | 'data_source'): Promise<string[] | null> {
    const t = sql.table(table);
    const c = sql.ref(column);
    const result = await sql<{ v: string }>`
      WITH RECURSIVE walk(v, n) AS (
        SELECT (SELECT min(${c}) FROM ${t}), 1
        UNION ALL
        SELECT (SELECT min(${c}) FROM ${t} WHERE ${c} > walk.v), walk.n + 1 FROM walk
        WHERE walk.v IS NOT NULL AND walk.n <= ${distinctCap}
      )
      SELECT v FROM walk WHERE v IS NOT NULL`.execute(this.db);
    if (result.rows.length > distinctCap) return null;
    return result.rows.map((r) => r.v);
  }

  /** Resolves value and datasource terms into exact lists where the data allows. */
  async resolve(filter: EventFilter): Promise<ResolvedFilter> {
    const resolved: ResolvedFilter = {
      filter,
      valueList: null,
      valueTerms: null,
      valueListFromExclusions: false,
      datasourceList: null,
      datasourceTerms: null,
      none: false,
    };
    const { include, exclude } = filter.values;
    if (include.length > 0 || exclude.length > 0) {
      const all = await this.distinct('events', 'event_value');
      if (all === null) {
        resolved.valueTerms = { include, exclude };
      } else {
        const allowed = all.filter((v) => (include.length === 0 || matchesAny(v, include)) && !matchesAny(v, exclude));
        if (allowed.length === 0) resolved.none = true;
        else if (allowed.length < all.length) {
          resolved.valueList = allowed;
          resolved.valueListFromExclusions = include.length === 0;
        }
      }
    }
    if (filter.datasources.length > 0) {
      if (filter.datasourceMatch === 'exact') {
        resolved.datasourceList = [...new Set(filter.datasources)];
      } else {
        const all = await this.distinct('event_aux_data', 'data_source');
        const sources = all === null ? null : all.filter((s) => matchesAny(s, filter.datasources));
        if (sources === null) resolved.datasourceTerms = filter.datasources;
        else if (sources.length === 0) resolved.none = true;
        else resolved.datasourceList = sources;
      }
    }
    return resolved;
  }

  /** `expr` contains `term`, case-insensitively; the term is never a pattern. */
  private contains(expr: RawBuilder<unknown>, term: string): RawBuilder<boolean> {
    if (this.dialect === 'postgres') return sql<boolean>`lower(${expr}) LIKE lower(${`%${escapeLike(term)}%`})`;
    return sql<boolean>`instr(lower(${expr}), lower(${term})) > 0`;
  }

  private anyOf(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
    return parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` OR `)})`;
  }

  private fulltextContains(term: string): RawBuilder<boolean> {
    if (this.dialect === 'postgres') {
      return this.contains(
        sql`e.event_value || chr(31) || e.event_free_text || chr(31) || event_option_values(e.event_options) || chr(31) || e.event_author`,
        term,
      );
    }
    return this.anyOf([
      this.contains(sql.ref('e.event_value'), term),
      this.contains(sql.ref('e.event_free_text'), term),
      sql<boolean>`EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(e.event_options) THEN e.event_options ELSE '[]' END) j
        WHERE instr(lower(json_extract(j.value, '$.event_option_value')), lower(${term})) > 0)`,
      this.contains(sql.ref('e.event_author'), term),
    ]);
  }

  /** The FTS5 query for the text groups trigrams can serve (SQLite only), or null. */
  ftsMatch(resolved: ResolvedFilter): string | null {
    if (this.dialect !== 'sqlite') return null;
    const groups: string[] = [];
    for (const key of ['fulltext', 'authors', 'freetext'] as const) {
      const terms = resolved.filter[key];
      if (terms.length > 0 && terms.every((t) => charLength(t) >= 3)) {
        groups.push(`${ftsColumns[key]} : (${terms.map(ftsPhrase).join(' OR ')})`);
      }
    }
    return groups.length > 0 ? groups.map((g) => `(${g})`).join(' AND ') : null;
  }

  /**
   * Per-row conditions on `events e`. `useFts`: the text groups in the FTS match are left out.
   * `valueIndex`: let SQLite use the (event_value, ts) index for the value list; otherwise the
   * term is written `+e.event_value` so the ts index drives (pages sorted by time, keyset chunks).
   */
  conditions(resolved: ResolvedFilter, opts: { useFts: boolean; valueIndex: boolean; after?: { ts: number; id: string } | undefined; order?: SortOrder }): RawBuilder<boolean> {
    const { filter } = resolved;
    const parts: RawBuilder<boolean>[] = [sql<boolean>`e.ts >= ${filter.lo}`, sql<boolean>`e.ts <= ${filter.hi}`];
    if (opts.after) {
      parts.push(
        opts.order === 'desc'
          ? sql<boolean>`(e.ts, e.id) < (${opts.after.ts}, ${opts.after.id})`
          : sql<boolean>`(e.ts, e.id) > (${opts.after.ts}, ${opts.after.id})`,
      );
    }
    if (resolved.valueList) {
      const column = this.dialect === 'sqlite' && !opts.valueIndex ? sql`+e.event_value` : sql.ref('e.event_value');
      parts.push(sql<boolean>`${column} IN (${sql.join(resolved.valueList)})`);
    }
    if (resolved.valueTerms) {
      const { include, exclude } = resolved.valueTerms;
      if (include.length > 0) parts.push(this.anyOf(include.map((t) => this.contains(sql.ref('e.event_value'), t))));
      for (const t of exclude) parts.push(sql<boolean>`NOT ${this.contains(sql.ref('e.event_value'), t)}`);
    }
    const inFts = opts.useFts ? this.ftsGroups(resolved) : new Set<string>();
    if (filter.fulltext.length > 0 && !inFts.has('fulltext')) parts.push(this.anyOf(filter.fulltext.map((t) => this.fulltextContains(t))));
    if (filter.authors.length > 0 && !inFts.has('authors')) parts.push(this.anyOf(filter.authors.map((t) => this.contains(sql.ref('e.event_author'), t))));
    if (filter.freetext.length > 0 && !inFts.has('freetext')) parts.push(this.anyOf(filter.freetext.map((t) => this.contains(sql.ref('e.event_free_text'), t))));
    const datasource = this.datasourceCondition(resolved);
    if (datasource) parts.push(datasource);
    return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
  }

  private ftsGroups(resolved: ResolvedFilter): Set<string> {
    const out = new Set<string>();
    if (this.dialect !== 'sqlite') return out;
    for (const key of ['fulltext', 'authors', 'freetext'] as const) {
      const terms = resolved.filter[key];
      if (terms.length > 0 && terms.every((t) => charLength(t) >= 3)) out.add(key);
    }
    return out;
  }

  private datasourceCondition(resolved: ResolvedFilter): RawBuilder<boolean> | null {
    if (resolved.datasourceList) {
      return sql<boolean>`EXISTS (SELECT 1 FROM event_aux_data a WHERE a.event_id = e.id AND a.data_source IN (${sql.join(resolved.datasourceList)}))`;
    }
    const terms = resolved.datasourceTerms;
    if (terms && terms.length > 0) {
      return sql<boolean>`EXISTS (SELECT 1 FROM event_aux_data a WHERE a.event_id = e.id AND ${this.anyOf(terms.map((t) => this.contains(sql.ref('a.data_source'), t)))})`;
    }
    return null;
  }

  /** The FROM clause: FTS-driven on SQLite when a match applies (CROSS JOIN fixes the join order). */
  private from(match: string | null): RawBuilder<unknown> {
    if (match === null) return sql`events e`;
    return sql`events_fts CROSS JOIN event_search s CROSS JOIN events e`;
  }

  private matchCondition(match: string | null): RawBuilder<boolean> {
    if (match === null) return sql<boolean>`1 = 1`;
    return sql<boolean>`events_fts MATCH ${match} AND s.seq = events_fts.rowid AND e.id = s.event_id`;
  }

  private static columns = sql`e.id, e.ts, e.event_author, e.event_value, e.event_options, e.event_free_text`;

  private static orderBy(order: SortOrder) {
    return order === 'desc' ? sql`ORDER BY e.ts DESC, e.id DESC` : sql`ORDER BY e.ts ASC, e.id ASC`;
  }

  /** One page (limit bounded by the caller), index-driven. */
  async page(resolved: ResolvedFilter, opts: { order: SortOrder; offset: number; limit: number }): Promise<EventRow[]> {
    if (resolved.none) return [];
    const match = this.ftsMatch(resolved);
    // Exclusion-only value lists are most values: walking the ts index finds a page fastest.
    const valueIndex = match === null && !resolved.valueListFromExclusions;
    const where = this.conditions(resolved, { useFts: match !== null, valueIndex });
    const result = await sql<EventRow>`
      SELECT ${EventSearch.columns} FROM ${this.from(match)}
      WHERE ${this.matchCondition(match)} AND ${where}
      ${EventSearch.orderBy(opts.order)} LIMIT ${opts.limit} OFFSET ${opts.offset}`.execute(this.db);
    return result.rows.map(normalizeRow);
  }

  async count(resolved: ResolvedFilter): Promise<number> {
    if (resolved.none) return 0;
    const match = this.ftsMatch(resolved);
    const where = this.conditions(resolved, { useFts: match !== null, valueIndex: match === null });
    const result = await sql<{ n: number | string }>`
      SELECT count(*) AS n FROM ${this.from(match)} WHERE ${this.matchCondition(match)} AND ${where}`.execute(this.db);
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * One keyset chunk in ts order: events after `after` (exclusive), skipping `offset` (first
   * chunk only). Walks the ts index; the cost per chunk does not grow with the result size.
   */
  async chunk(
    resolved: ResolvedFilter,
    opts: { order: SortOrder; after?: { ts: number; id: string } | undefined; offset: number; limit: number },
  ): Promise<EventRow[]> {
    if (resolved.none) return [];
    const where = this.conditions(resolved, { useFts: false, valueIndex: false, after: opts.after, order: opts.order });
    const result = await sql<EventRow>`
      SELECT ${EventSearch.columns} FROM events e WHERE ${where}
      ${EventSearch.orderBy(opts.order)} LIMIT ${opts.limit} OFFSET ${opts.offset}`.execute(this.db);
    return result.rows.map(normalizeRow);
  }

  /** The query plan of a page or count (tests and the benchmark check which indexes are used). */
  async explain(resolved: ResolvedFilter, kind: 'page' | 'count', order: SortOrder = 'desc', limit = 20): Promise<string> {
    const match = this.ftsMatch(resolved);
    const valueIndex = kind === 'count' ? match === null : match === null && !resolved.valueListFromExclusions;
    const where = this.conditions(resolved, { useFts: match !== null, valueIndex });
    const body =
      kind === 'count'
        ? sql`SELECT count(*) AS n FROM ${this.from(match)} WHERE ${this.matchCondition(match)} AND ${where}`
        : sql`SELECT ${EventSearch.columns} FROM ${this.from(match)} WHERE ${this.matchCondition(match)} AND ${where} ${EventSearch.orderBy(order)} LIMIT ${limit}`;
    const prefix = this.dialect === 'sqlite' ? sql`EXPLAIN QUERY PLAN ` : sql`EXPLAIN `;
    const result = await sql<Record<string, unknown>>`${prefix}${body}`.execute(this.db);
    return result.rows.map((r) => String(r.detail ?? r['QUERY PLAN'] ?? JSON.stringify(r))).join('\n');
  }
}

function normalizeRow(row: EventRow): EventRow {
  return { ...row, ts: Number(row.ts) };
}
