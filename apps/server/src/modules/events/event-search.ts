import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { hiddenEventValue, searchKeyRange } from '../../db/sql/event-search.js';
import { eventDay, eventDayMs } from '../../db/sql/event-days.js';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { excludedByOrigin, excludedTs } from '../access/event-access.js';
import { incompleteCondition } from '../completeness/completeness.sql.js';
import type { EventFilter } from './event-filter.js';

/**
 * Everything dialect-specific about searching events lives here (STYLE: one place, tested on
 * both engines). Query shapes and why:
 *
 * - Pages and counts with a text term of 3+ characters (fulltext, author, free text) are driven
 *   by the substring index. SQLite: FTS5 trigram whose key is the event time (migration 002), so
 *   the newest page is the first hits in key order and the time window is a key range; a count
 *   reads the index, plus each hit's value when values are filtered, except for the values a
 *   second index leaves out: with `!ASNAP` (the management page), the match runs on
 *   `events_fts_no_asnap` (migration 012) and reads nothing else. PostgreSQL: pg_trgm GIN
 *   indexes via LIKE, planned by the engine; fulltext runs on the `event_search` table (stored
 *   lower-cased document, ts and value), author and free text on indexes of events.
 * - Without such a term (e.g. only `!ASNAP`), the (ts, id) index drives. `event_value` and aux
 *   `data_source` have few distinct values (template values, inserter names), so their terms are
 *   resolved against the distinct values (a loose index scan: one probe per distinct value) into
 *   an exact `IN` list: `!ASNAP` becomes "value in (every other value)", which the
 *   (event_value, ts) index counts without reading rows.
 * - Terms under 3 characters (trigrams cannot index them) are checked per row with instr/LIKE.
 * - Streamed lists and exports walk the ts index in keyset chunks and check conditions per row
 *   (SQLite: text terms in JS, with the index's case folding), so each chunk costs the same
 *   however many events match.
 * Within one millisecond, the FTS path orders events by insertion and the others by id.
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
  /** The stored values the list leaves out (null without a list). */
  valuesLeftOut: string[] | null;
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
  /** Read only where a right depends on it (events.repository.ts findById). */
  created_by?: string | null;
  /** When the server stored it (epoch ms); read with `created_by`. */
  created_at?: number | null;
}

export type SortOrder = 'asc' | 'desc';

type TextGroup = 'fulltext' | 'authors' | 'freetext';

const lower = (text: string) => text.toLowerCase();

function matchesAny(text: string, terms: readonly string[]): boolean {
  const t = lower(text);
  return terms.some((term) => t.includes(lower(term)));
}

/** Characters, not UTF-16 units: trigram needs three characters. */
const charLength = (term: string) => [...term].length;
/**
 * FTS5 reads its query up to a NUL ("unterminated string"): such a term is matched with LIKE instead.
 * PostgreSQL text cannot hold a NUL at all (nor take one as a parameter): such a term matches nothing.
 */
const indexable = (terms: readonly string[]) =>
  terms.length > 0 && terms.every((t) => charLength(t) >= 3 && !t.includes('\u0000'));

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

const ftsColumns: Record<TextGroup, string> = {
  fulltext: '{event_value event_free_text option_values event_author}',
  authors: '{event_author}',
  freetext: '{event_free_text}',
};

/** How a page or count uses the FTS index (SQLite): the MATCH query and what is left for each hit. */
interface FtsPlan {
  /** `events_fts_no_asnap` (migration 012) when the values filtered out include ASNAP. */
  table: 'events_fts' | 'events_fts_no_asnap';
  match: string;
  /** Groups the match serves. */
  served: Set<TextGroup>;
  /** The table alone serves the value list: ASNAP is the only value it leaves out. */
  valuesServed: boolean;
}

interface Columns {
  id: RawBuilder<unknown>;
  ts: RawBuilder<unknown>;
  value: RawBuilder<unknown>;
  freeText: RawBuilder<unknown>;
  author: RawBuilder<unknown>;
  /** Value, free text, option values or author contains the term. */
  fulltext: (term: string) => RawBuilder<boolean>;
}

export class EventSearch {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** Distinct values of an indexed text column, in index order; null when there are more than the cap. */
  private async distinct(
    table: 'events' | 'event_aux_data',
    column: 'event_value' | 'data_source',
  ): Promise<string[] | null> {
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
      valuesLeftOut: null,
      datasourceList: null,
      datasourceTerms: null,
      // The caller may see no event of the range (event-access.ts narrowed it to nothing).
      none: filter.lo > filter.hi,
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
          const left = new Set(allowed);
          resolved.valuesLeftOut = all.filter((v) => !left.has(v));
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
    if (this.dialect === 'postgres') {
      if (term.includes('\u0000')) return sql<boolean>`false`;
      return sql<boolean>`lower(${expr}) LIKE lower(${`%${escapeLike(term)}%`})`;
    }
    return sql<boolean>`instr(lower(${expr}), lower(${term})) > 0`;
  }

  private anyOf(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
    return parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` OR `)})`;
  }

  /** Column references on `events e`, or on the `event_search s` projection (SQLite FTS path). */
  private columns(on: 'events' | 'search'): Columns {
    if (on === 'search' && this.dialect === 'postgres') {
      // event_search holds id, ts, value and the lower-cased document; author and free text are
      // read from the events row joined to it (their own trigram indexes live there).
      return {
        id: sql.ref('s.event_id'),
        ts: sql.ref('s.ts'),
        value: sql.ref('s.event_value'),
        freeText: sql.ref('e.event_free_text'),
        author: sql.ref('e.event_author'),
        fulltext: (term) => this.docContains(sql.ref('s.doc'), term),
      };
    }
    if (on === 'search') {
      return {
        id: sql.ref('s.event_id'),
        ts: sql.ref('e.ts'),
        value: sql.ref('s.event_value'),
        freeText: sql.ref('s.event_free_text'),
        author: sql.ref('s.event_author'),
        fulltext: (term) =>
          this.anyOf([
            this.contains(sql.ref('s.event_value'), term),
            this.contains(sql.ref('s.event_free_text'), term),
            this.contains(sql.ref('s.option_values'), term),
            this.contains(sql.ref('s.event_author'), term),
          ]),
      };
    }
    return {
      id: sql.ref('e.id'),
      ts: sql.ref('e.ts'),
      value: sql.ref('e.event_value'),
      freeText: sql.ref('e.event_free_text'),
      author: sql.ref('e.event_author'),
      fulltext: (term) =>
        this.dialect === 'postgres'
          ? sql<boolean>`EXISTS (SELECT 1 FROM event_search fs WHERE fs.event_id = e.id AND ${this.docContains(sql.ref('fs.doc'), term)})`
          : this.anyOf([
              this.contains(sql.ref('e.event_value'), term),
              this.contains(sql.ref('e.event_free_text'), term),
              sql<boolean>`EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(e.event_options) THEN e.event_options ELSE '[]' END) j
                WHERE instr(lower(json_extract(j.value, '$.event_option_value')), lower(${term})) > 0)`,
              this.contains(sql.ref('e.event_author'), term),
            ]),
    };
  }

  /** PostgreSQL: the stored document is lower-cased already, so the trigram index matches it as is. */
  private docContains(doc: RawBuilder<unknown>, term: string): RawBuilder<boolean> {
    if (term.includes('\u0000')) return sql<boolean>`false`;
    return sql<boolean>`${doc} LIKE lower(${`%${escapeLike(term)}%`})`;
  }

  /** Text groups every term of which the trigram index can serve (SQLite). */
  private textGroupsIndexable(resolved: ResolvedFilter): Set<TextGroup> {
    const out = new Set<TextGroup>();
    if (this.dialect !== 'sqlite') return out;
    for (const key of ['fulltext', 'authors', 'freetext'] as const) if (indexable(resolved.filter[key])) out.add(key);
    return out;
  }

  /**
   * The FTS plan of a page or count, or null when no text term can drive the index (SQLite only).
   * Value terms stay out of the match: a common value (ASNAP is three events in four) makes FTS
   * read its whole doclist, while checking each hit's value on event_search costs a row lookup.
   * When the value list leaves ASNAP out, the match runs on the index without ASNAP events: it
   * holds every event the list allows (and fewer others), and when ASNAP is all the list leaves
   * out, exactly those, so no hit is checked for its value.
   */
  private ftsPlan(resolved: ResolvedFilter): FtsPlan | null {
    // The FTS index knows ts, not an event's origin: origin windows leave the search to the events scan.
    if (this.dialect !== 'sqlite' || resolved.filter.scoped.length > 0) return null;
    const served = this.textGroupsIndexable(resolved);
    if (served.size === 0) return null;
    const match = [...served]
      .map((key) => `(${ftsColumns[key]} : (${resolved.filter[key].map(ftsPhrase).join(' OR ')}))`)
      .join(' AND ');
    const left = resolved.valueList ? resolved.valuesLeftOut : null;
    if (left?.includes(hiddenEventValue))
      return { table: 'events_fts_no_asnap', match, served, valuesServed: left.length === 1 };
    return { table: 'events_fts', match, served, valuesServed: false };
  }

  /** Conditions the FTS match leaves to each hit, on `event_search s`; null when there are none. */
  private perHit(resolved: ResolvedFilter, plan: FtsPlan): RawBuilder<boolean> | null {
    const { filter } = resolved;
    const c = this.columns('search');
    const parts: RawBuilder<boolean>[] = [];
    if (resolved.valueList && !plan.valuesServed)
      parts.push(sql<boolean>`${c.value} IN (${sql.join(resolved.valueList)})`);
    if (resolved.valueTerms) {
      const { include, exclude } = resolved.valueTerms;
      if (include.length > 0) parts.push(this.anyOf(include.map((t) => this.contains(c.value, t))));
      for (const t of exclude) parts.push(sql<boolean>`NOT ${this.contains(c.value, t)}`);
    }
    if (filter.fulltext.length > 0 && !plan.served.has('fulltext'))
      parts.push(this.anyOf(filter.fulltext.map((t) => c.fulltext(t))));
    if (filter.authors.length > 0 && !plan.served.has('authors'))
      parts.push(this.anyOf(filter.authors.map((t) => this.contains(c.author, t))));
    if (filter.freetext.length > 0 && !plan.served.has('freetext'))
      parts.push(this.anyOf(filter.freetext.map((t) => this.contains(c.freeText, t))));
    const datasource = this.datasourceCondition(resolved, c.id);
    if (datasource) parts.push(datasource);
    // The hits are not joined to events here: the event's time is read by id.
    const incomplete = this.incompleteCondition(
      resolved,
      c.id,
      sql`(SELECT xe.ts FROM events xe WHERE xe.id = ${c.id})`,
      c.value,
    );
    if (incomplete) parts.push(incomplete);
    return parts.length > 0 ? (sql.join(parts, sql` AND `) as RawBuilder<boolean>) : null;
  }

  private datasourceCondition(resolved: ResolvedFilter, eventId: RawBuilder<unknown>): RawBuilder<boolean> | null {
    if (resolved.datasourceList) {
      return sql<boolean>`EXISTS (SELECT 1 FROM event_aux_data a WHERE a.event_id = ${eventId} AND a.data_source IN (${sql.join(resolved.datasourceList)}))`;
    }
    if (resolved.datasourceTerms && resolved.datasourceTerms.length > 0) {
      const any = this.anyOf(resolved.datasourceTerms.map((t) => this.contains(sql.ref('a.data_source'), t)));
      return sql<boolean>`EXISTS (SELECT 1 FROM event_aux_data a WHERE a.event_id = ${eventId} AND ${any})`;
    }
    return null;
  }

  /**
   * `completeness=incomplete` (docs/completeness.md#event-lists), or null: incomplete under the
   * settings of the dive holding the event; an event outside every dive is never incomplete.
   */
  private incompleteCondition(
    resolved: ResolvedFilter,
    eventId: RawBuilder<unknown>,
    ts: RawBuilder<unknown>,
    value: RawBuilder<unknown>,
  ): RawBuilder<boolean> | null {
    const rule = resolved.filter.incomplete;
    if (!rule) return null;
    const each = rule.rules.flatMap(({ settings, windows }) => {
      if (windows?.length === 0) return [];
      const judged = incompleteCondition(this.dialect, settings, eventId, ts, value, rule.now);
      if (!windows) return [judged];
      const inside = sql.join(
        windows.map((w) => sql`(${ts} >= ${w.lo} AND ${ts} <= ${w.hi})`),
        sql` OR `,
      );
      return [sql<boolean>`((${inside}) AND ${judged})`];
    });
    return each.length === 0 ? sql<boolean>`1 = 0` : this.anyOf(each);
  }

  /**
   * Conditions on `events e` (the ts-index paths). `skipIndexable`: leave out the text groups the
   * caller checks itself (`rowCheck`). `valueIndex`: let SQLite use the (event_value, ts) index for
   * the value list; otherwise it is written `+e.event_value` so the ts index drives.
   */
  private conditions(
    resolved: ResolvedFilter,
    opts: {
      skipIndexable: boolean;
      valueIndex: boolean;
      after?: { ts: number; id: string } | undefined;
      order?: SortOrder;
    },
  ): RawBuilder<boolean> {
    const { filter } = resolved;
    const c = this.columns('events');
    // A keyset cursor narrows the ts bound itself: the engines start an index range at the plain
    // ts bound, not at the cursor comparison, and would rescan the window on every chunk.
    const { after } = opts;
    const lo = after && opts.order !== 'desc' ? Math.max(filter.lo, after.ts) : filter.lo;
    const hi = after && opts.order === 'desc' ? Math.min(filter.hi, after.ts) : filter.hi;
    const parts: RawBuilder<boolean>[] = [sql<boolean>`${c.ts} >= ${lo}`, sql<boolean>`${c.ts} <= ${hi}`];
    const hidden = excludedTs(c.ts, filter.excluded);
    if (hidden) parts.push(hidden);
    const hiddenOfOrigin = excludedByOrigin(c.id, c.ts, filter.scoped);
    if (hiddenOfOrigin) parts.push(hiddenOfOrigin);
    if (after) {
      parts.push(
        opts.order === 'desc'
          ? sql<boolean>`(${c.ts} < ${after.ts} OR (${c.ts} = ${after.ts} AND ${c.id} < ${after.id}))`
          : sql<boolean>`(${c.ts} > ${after.ts} OR (${c.ts} = ${after.ts} AND ${c.id} > ${after.id}))`,
      );
    }
    if (resolved.valueList) {
      const column = this.dialect === 'sqlite' && !opts.valueIndex ? sql`+${c.value}` : c.value;
      parts.push(sql<boolean>`${column} IN (${sql.join(resolved.valueList)})`);
    }
    if (resolved.valueTerms) {
      const { include, exclude } = resolved.valueTerms;
      if (include.length > 0) parts.push(this.anyOf(include.map((t) => this.contains(c.value, t))));
      for (const t of exclude) parts.push(sql<boolean>`NOT ${this.contains(c.value, t)}`);
    }
    const skipped = opts.skipIndexable ? this.textGroupsIndexable(resolved) : new Set<TextGroup>();
    if (filter.fulltext.length > 0 && !skipped.has('fulltext'))
      parts.push(this.anyOf(filter.fulltext.map((t) => c.fulltext(t))));
    if (filter.authors.length > 0 && !skipped.has('authors'))
      parts.push(this.anyOf(filter.authors.map((t) => this.contains(c.author, t))));
    if (filter.freetext.length > 0 && !skipped.has('freetext'))
      parts.push(this.anyOf(filter.freetext.map((t) => this.contains(c.freeText, t))));
    const datasource = this.datasourceCondition(resolved, c.id);
    if (datasource) parts.push(datasource);
    const incomplete = this.incompleteCondition(resolved, c.id, c.ts, c.value);
    if (incomplete) parts.push(incomplete);
    return sql.join(parts, sql` AND `) as RawBuilder<boolean>;
  }

  private static columnsOfE = sql`e.id, e.ts, e.event_author, e.event_value, e.event_options, e.event_free_text`;

  private static orderBy(order: SortOrder) {
    return order === 'desc' ? sql`ORDER BY e.ts DESC, e.id DESC` : sql`ORDER BY e.ts ASC, e.id ASC`;
  }

  /** FROM/WHERE of the FTS hits of a plan within the filter's time window (key range). */
  private ftsHits(resolved: ResolvedFilter, plan: FtsPlan): RawBuilder<unknown> {
    const [keyLo, keyHi] = searchKeyRange(resolved.filter.lo, resolved.filter.hi);
    const perHit = this.perHit(resolved, plan);
    const fts = sql.raw(plan.table);
    // The caller's hidden windows as key ranges, like the time window.
    const hidden = resolved.filter.excluded.map((w) => {
      const [a, b] = searchKeyRange(w.lo, w.hi);
      return sql` AND (${fts}.rowid < ${a} OR ${fts}.rowid > ${b})`;
    });
    const hits = sql`${fts}.rowid >= ${keyLo} AND ${fts}.rowid <= ${keyHi}${hidden.length > 0 ? sql.join(hidden, sql``) : sql``} AND ${fts} MATCH ${plan.match}`;
    return perHit
      ? sql`${fts} CROSS JOIN event_search s WHERE ${hits} AND s.seq = ${fts}.rowid AND ${perHit}`
      : sql`${fts} WHERE ${hits}`;
  }

  /**
   * PostgreSQL with fulltext terms: the search runs on event_search (trigram index on the stored
   * document, ts and value beside it), joining events only for author, free text or datasource.
   */
  private pgSearch(resolved: ResolvedFilter): RawBuilder<unknown> | null {
    if (this.dialect !== 'postgres' || resolved.filter.fulltext.length === 0) return null;
    const { filter } = resolved;
    const c = this.columns('search');
    const parts: RawBuilder<boolean>[] = [
      this.anyOf(filter.fulltext.map((t) => c.fulltext(t))),
      sql<boolean>`s.ts >= ${filter.lo}`,
      sql<boolean>`s.ts <= ${filter.hi}`,
    ];
    const hidden = excludedTs(c.ts, filter.excluded);
    if (hidden) parts.push(hidden);
    const hiddenOfOrigin = excludedByOrigin(c.id, c.ts, filter.scoped);
    if (hiddenOfOrigin) parts.push(hiddenOfOrigin);
    if (resolved.valueList) parts.push(sql<boolean>`s.event_value IN (${sql.join(resolved.valueList)})`);
    if (resolved.valueTerms) {
      const { include, exclude } = resolved.valueTerms;
      if (include.length > 0) parts.push(this.anyOf(include.map((t) => this.contains(c.value, t))));
      for (const t of exclude) parts.push(sql<boolean>`NOT ${this.contains(c.value, t)}`);
    }
    const joined: RawBuilder<boolean>[] = [];
    if (filter.authors.length > 0) joined.push(this.anyOf(filter.authors.map((t) => this.contains(c.author, t))));
    if (filter.freetext.length > 0) joined.push(this.anyOf(filter.freetext.map((t) => this.contains(c.freeText, t))));
    const datasource = this.datasourceCondition(resolved, c.id);
    if (datasource) parts.push(datasource);
    const incomplete = this.incompleteCondition(resolved, c.id, c.ts, c.value);
    if (incomplete) parts.push(incomplete);
    const where = sql.join([...parts, ...joined], sql` AND `);
    return joined.length > 0
      ? sql`event_search s JOIN events e ON e.id = s.event_id WHERE ${where}`
      : sql`event_search s WHERE ${where}`;
  }

  /** The query of a page (index-driven); also what `explain` shows. */
  private pageQuery(
    resolved: ResolvedFilter,
    opts: { order: SortOrder; offset: number; limit: number },
  ): RawBuilder<EventRow> {
    const direction = opts.order === 'desc' ? sql`DESC` : sql`ASC`;
    const plan = this.ftsPlan(resolved);
    if (plan) {
      // The index yields hits in time order: the page is its first hits; only they are read from events.
      const fts = sql.raw(plan.table);
      return sql<EventRow>`
        SELECT ${EventSearch.columnsOfE} FROM (
          SELECT ${fts}.rowid AS seq FROM ${this.ftsHits(resolved, plan)}
          ORDER BY ${fts}.rowid ${direction} LIMIT ${opts.limit} OFFSET ${opts.offset}
        ) h CROSS JOIN event_search hs CROSS JOIN events e
        WHERE hs.seq = h.seq AND e.id = hs.event_id ORDER BY h.seq ${direction}`;
    }
    const pg = this.pgSearch(resolved);
    if (pg) {
      return sql<EventRow>`
        SELECT ${EventSearch.columnsOfE} FROM (
          SELECT s.event_id, s.ts FROM ${pg} ORDER BY s.ts ${direction}, s.event_id ${direction} LIMIT ${opts.limit} OFFSET ${opts.offset}
        ) h JOIN events e ON e.id = h.event_id ORDER BY h.ts ${direction}, h.event_id ${direction}`;
    }
    // Exclusion-only value lists are most values: walking the ts index finds a page fastest.
    const where = this.conditions(resolved, { skipIndexable: false, valueIndex: !resolved.valueListFromExclusions });
    return sql<EventRow>`SELECT ${EventSearch.columnsOfE} FROM events e WHERE ${where}
      ${EventSearch.orderBy(opts.order)} LIMIT ${opts.limit} OFFSET ${opts.offset}`;
  }

  /**
   * SQLite, a count with no condition but values (the management page as it opens: `!ASNAP`):
   * the whole days inside the window from `event_value_days` (migration 010), the partial days at
   * its two edges from the (event_value, ts) index. Null when the filter has other conditions or
   * the window holds no whole day.
   */
  private dayCountQuery(resolved: ResolvedFilter): RawBuilder<{ n: number | string }> | null {
    const { filter } = resolved;
    // The day totals count every origin: origin windows cannot be taken off them.
    if (this.dialect !== 'sqlite' || filter.scoped.length > 0) return null;
    if (filter.fulltext.length > 0 || filter.authors.length > 0 || filter.freetext.length > 0) return null;
    if (resolved.valueTerms || resolved.datasourceList || resolved.datasourceTerms || filter.incomplete) return null;
    const firstDay = eventDay(filter.lo) + 1;
    const lastDay = eventDay(filter.hi) - 1;
    if (lastDay < firstDay) return null;
    const list = resolved.valueList;
    const days = list ? sql`AND d.event_value IN (${sql.join(list)})` : sql``;
    const edge = (lo: number, hi: number) =>
      sql`(SELECT count(*) FROM events e WHERE e.ts >= ${lo} AND e.ts <= ${hi}${list ? sql` AND e.event_value IN (${sql.join(list)})` : sql``})`;
    // The day totals hold every event: the caller's hidden windows (merged, so disjoint) are
    // counted on the index and taken off.
    const hidden = filter.excluded.map((w) => sql` - ${edge(Math.max(w.lo, filter.lo), Math.min(w.hi, filter.hi))}`);
    return sql`SELECT
      (SELECT coalesce(sum(d.n), 0) FROM event_value_days d WHERE d.day >= ${firstDay} AND d.day <= ${lastDay} ${days})
      + ${edge(filter.lo, firstDay * eventDayMs - 1)} + ${edge((lastDay + 1) * eventDayMs, filter.hi)}${hidden.length > 0 ? sql.join(hidden, sql``) : sql``} AS n`;
  }

  private countQuery(resolved: ResolvedFilter): RawBuilder<{ n: number | string }> {
    const days = this.dayCountQuery(resolved);
    if (days) return days;
    const plan = this.ftsPlan(resolved);
    if (plan) return sql`SELECT count(*) AS n FROM ${this.ftsHits(resolved, plan)}`;
    const pg = this.pgSearch(resolved);
    if (pg) return sql`SELECT count(*) AS n FROM ${pg}`;
    const where = this.conditions(resolved, { skipIndexable: false, valueIndex: true });
    return sql`SELECT count(*) AS n FROM events e WHERE ${where}`;
  }

  /** One page (limit bounded by the caller), index-driven. */
  async page(resolved: ResolvedFilter, opts: { order: SortOrder; offset: number; limit: number }): Promise<EventRow[]> {
    if (resolved.none) return [];
    return (await this.pageQuery(resolved, opts).execute(this.db)).rows.map(normalizeRow);
  }

  async count(resolved: ResolvedFilter): Promise<number> {
    if (resolved.none) return 0;
    return Number((await this.countQuery(resolved).execute(this.db)).rows[0]?.n ?? 0);
  }

  /**
   * SQLite only: the text groups the FTS index serves, as a check on a fetched row, for the keyset
   * walk (a per-row FTS probe costs far more than reading the row). It folds case as the index
   * does, so a streamed list and a page agree on non-ASCII letters, which SQLite's lower() does
   * not fold. Null when there is nothing to check this way.
   */
  rowCheck(resolved: ResolvedFilter): ((row: EventRow) => boolean) | null {
    const groups = this.textGroupsIndexable(resolved);
    if (groups.size === 0) return null;
    const lowered = (terms: readonly string[]) => terms.map((t) => t.toLowerCase());
    const fulltext = groups.has('fulltext') ? lowered(resolved.filter.fulltext) : null;
    const authors = groups.has('authors') ? lowered(resolved.filter.authors) : null;
    const freetext = groups.has('freetext') ? lowered(resolved.filter.freetext) : null;
    const hit = (text: string, terms: readonly string[]) => {
      const t = text.toLowerCase();
      return terms.some((term) => t.includes(term));
    };
    return (row) => {
      if (authors && !hit(row.event_author, authors)) return false;
      if (freetext && !hit(row.event_free_text, freetext)) return false;
      if (fulltext) {
        if (hit(row.event_value, fulltext) || hit(row.event_free_text, fulltext) || hit(row.event_author, fulltext))
          return true;
        const options = parseJson<Array<{ event_option_value?: unknown }>>(row.event_options, []);
        return options.some((o) => typeof o.event_option_value === 'string' && hit(o.event_option_value, fulltext));
      }
      return true;
    };
  }

  /**
   * One keyset chunk in ts order: events after `after` (exclusive), skipping `offset` (first
   * chunk only). Walks the ts index; the cost per chunk does not grow with the result size.
   * `withoutRowCheck`: leave out the conditions `rowCheck` applies (the caller filters rows).
   */
  async chunk(
    resolved: ResolvedFilter,
    opts: {
      order: SortOrder;
      after?: { ts: number; id: string } | undefined;
      offset: number;
      limit: number;
      withoutRowCheck?: boolean;
    },
  ): Promise<EventRow[]> {
    if (resolved.none) return [];
    const where = this.conditions(resolved, {
      skipIndexable: opts.withoutRowCheck === true,
      valueIndex: false,
      after: opts.after,
      order: opts.order,
    });
    const result = await sql<EventRow>`
      SELECT ${EventSearch.columnsOfE} FROM events e WHERE ${where}
      ${EventSearch.orderBy(opts.order)} LIMIT ${opts.limit} OFFSET ${opts.offset}`.execute(this.db);
    return result.rows.map(normalizeRow);
  }

  /**
   * The conditions on `events e` of the oldest-first keyset walk after `after` (exports: the
   * caller selects what it needs from the same rows `chunk` reads). For filters without `rowCheck`.
   */
  keysetWhere(resolved: ResolvedFilter, after?: { ts: number; id: string }): RawBuilder<boolean> {
    return this.conditions(resolved, { skipIndexable: false, valueIndex: false, after, order: 'asc' });
  }

  /**
   * Whether any event matching the filter lies within one of the windows (cruises, lowerings: the
   * record-id columns of an event CSV). One index probe per window overlapping the filter's
   * time range. For filters without `rowCheck` only.
   */
  async anyWithin(
    resolved: ResolvedFilter,
    windows: ReadonlyArray<{ start_ts: number; stop_ts: number }>,
  ): Promise<boolean> {
    if (resolved.none) return false;
    const where = this.conditions(resolved, { skipIndexable: false, valueIndex: false });
    for (const w of windows) {
      if (w.stop_ts < resolved.filter.lo || w.start_ts > resolved.filter.hi) continue;
      const hit = await sql<{ hit: number }>`
        SELECT 1 AS hit FROM events e WHERE ${where} AND e.ts >= ${w.start_ts} AND e.ts <= ${w.stop_ts} LIMIT 1`.execute(
        this.db,
      );
      if (hit.rows.length > 0) return true;
    }
    return false;
  }

  /** The query plan of a page or count (tests and the benchmark check which indexes are used). */
  async explain(
    resolved: ResolvedFilter,
    kind: 'page' | 'count',
    order: SortOrder = 'desc',
    limit = 20,
  ): Promise<string> {
    const body = kind === 'count' ? this.countQuery(resolved) : this.pageQuery(resolved, { order, offset: 0, limit });
    const prefix = this.dialect === 'sqlite' ? sql`EXPLAIN QUERY PLAN ` : sql`EXPLAIN `;
    const result = await sql<Record<string, unknown>>`${prefix}${body}`.execute(this.db);
    return result.rows.map((r) => String(r.detail ?? r['QUERY PLAN'] ?? JSON.stringify(r))).join('\n');
  }
}

function normalizeRow(row: EventRow): EventRow {
  return { ...row, ts: Number(row.ts) };
}
