import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';

/**
 * `fulltext` on the aux-data lists (Sealog 2.4.6), the one dialect-specific part of them (STYLE:
 * one place, tested on both engines). A record matches when one of its data names or values
 * contains an include term (any of them), and none contains a `!` term; case-insensitive
 * substrings, never patterns. Include terms of 3+ characters are served by the trigram index of
 * migration 004 (SQLite FTS5 `event_aux_fts`, PostgreSQL pg_trgm on `event_aux_search.doc`);
 * shorter ones and exclusions are checked on the record's stored document. Each list chunk
 * re-reads the hits, so a term matching most of a large table costs more per chunk than a
 * selective one (the common use: a camera, a file name, a sample id).
 */
export interface AuxTextTerms {
  include: string[];
  exclude: string[];
}

const charLength = (term: string) => [...term].length;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** `doc` (stored lower-cased) contains the term. */
function docContains(dialect: Dialect, doc: RawBuilder<unknown>, term: string): RawBuilder<boolean> {
  if (dialect === 'postgres') {
    // PostgreSQL text cannot hold a NUL (nor take one as a parameter): such a term matches nothing.
    if (term.includes('\u0000')) return sql<boolean>`false`;
    return sql<boolean>`${doc} LIKE lower(${`%${escapeLike(term)}%`})`;
  }
  return sql<boolean>`instr(${doc}, lower(${term})) > 0`;
}

function anyOf(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
  return parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` OR `)})`;
}

/**
 * The condition on an aux record's id (`auxId`, e.g. `event_aux_data.id`), or null when there are
 * no terms. The include part is an `IN` over the index hits, so the engine can drive from them.
 */
export function auxTextCondition(
  dialect: Dialect,
  terms: AuxTextTerms,
  auxId: RawBuilder<unknown>,
): RawBuilder<boolean> | null {
  const parts: RawBuilder<boolean>[] = [];
  if (terms.include.length > 0) {
    // FTS5 reads its query up to a NUL ("unterminated string"): such terms are matched without the index.
    if (dialect === 'sqlite' && terms.include.every((t) => charLength(t) >= 3 && !t.includes('\u0000'))) {
      const match = `doc : (${terms.include.map(ftsPhrase).join(' OR ')})`;
      parts.push(sql<boolean>`${auxId} IN (SELECT s.aux_id FROM event_aux_fts CROSS JOIN event_aux_search s
        WHERE event_aux_fts MATCH ${match} AND s.seq = event_aux_fts.rowid)`);
    } else {
      const doc = sql.ref('s.doc');
      const hits = sql`SELECT s.aux_id FROM event_aux_search s WHERE ${anyOf(terms.include.map((t) => docContains(dialect, doc, t)))}`;
      // PostgreSQL: the hits as one array, planned on their own (the trigram index), then looked up
      // by primary key; as a semi-join the planner walks every record in id order to skip a sort.
      parts.push(
        dialect === 'postgres' ? sql<boolean>`${auxId} = ANY(ARRAY(${hits}))` : sql<boolean>`${auxId} IN (${hits})`,
      );
    }
  }
  if (terms.exclude.length > 0) {
    const doc = sql.ref('x.doc');
    parts.push(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM event_aux_search x WHERE x.aux_id = ${auxId} AND ${anyOf(terms.exclude.map((t) => docContains(dialect, doc, t)))})`,
    );
  }
  return parts.length === 0 ? null : (sql.join(parts, sql` AND `) as RawBuilder<boolean>);
}
