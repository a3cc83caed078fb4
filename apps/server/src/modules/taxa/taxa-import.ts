import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { taxonImportRowSchema, wormsLsidPrefix, type TaxonImportKind } from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import type { TaxonInput, VernacularInput } from '../../taxonomy/taxonomy.repository.js';

/**
 * Reading taxonomy files (docs/taxa.md#importing) into batches for the repository. The WoRMS Darwin
 * Core export is tab-separated without quoting (a `"` is part of a value there); the CSV subset is
 * ordinary quoted CSV. Rows that cannot be read are left out and counted, with the first few
 * reasons kept for the import's report; a file without the columns it needs is refused before
 * anything is written.
 */

export type ImportBatch =
  | { kind: 'taxa'; rows: TaxonInput[] }
  | { kind: 'vernaculars'; rows: VernacularInput[] }
  | { kind: 'marine'; rows: Array<{ aphia_id: number; is_marine: boolean }> };

export interface Skipped {
  count: number;
  reasons: string[];
}

const batchSize = 1000;
const keptReasons = 5;

/** An AphiaID from `urn:lsid:marinespecies.org:taxname:123` or `123`; undefined for anything else. */
export function aphiaIdOf(text: string | undefined): number | undefined {
  const value = (text ?? '').trim();
  const digits = value.startsWith(wormsLsidPrefix) ? value.slice(wormsLsidPrefix.length) : value;
  if (!/^[1-9][0-9]{0,9}$/.test(digits)) return undefined;
  const id = Number(digits);
  return id <= 2147483647 ? id : undefined;
}

function flag(text: string | undefined): boolean | null {
  const value = (text ?? '').trim().toLowerCase();
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  return null;
}

const blankToNull = (text: string | undefined) => {
  const value = (text ?? '').trim();
  return value === '' ? null : value;
};

/** Column names each kind needs, and the names it accepts for each field (first found wins). */
const columns = {
  id: ['taxonID', 'aphia_id', 'AphiaID'],
  name: ['scientificName', 'scientific_name', 'scientificname'],
  authority: ['scientificNameAuthorship', 'authority'],
  rank: ['taxonRank', 'rank'],
  status: ['taxonomicStatus', 'status'],
  accepted: ['acceptedNameUsageID', 'accepted_aphia_id', 'valid_AphiaID'],
  parent: ['parentNameUsageID', 'parent_aphia_id'],
  marine: ['isMarine', 'is_marine'],
  vernacularName: ['vernacularName', 'vernacular_name'],
  language: ['language'],
  vernaculars: ['vernaculars'],
} as const;

type Field = keyof typeof columns;

function picker(header: readonly string[]) {
  const index = new Map(header.map((h, i) => [h.trim(), i]));
  const at = (field: Field) => {
    for (const name of columns[field]) {
      const i = index.get(name);
      if (i !== undefined) return i;
    }
    return undefined;
  };
  const positions = Object.fromEntries((Object.keys(columns) as Field[]).map((f) => [f, at(f)])) as Record<
    Field,
    number | undefined
  >;
  return {
    has: (field: Field) => positions[field] !== undefined,
    get: (row: readonly string[], field: Field) => {
      const i = positions[field];
      return i === undefined ? undefined : row[i];
    },
  };
}

const required: Record<Exclude<TaxonImportKind, 'json'>, Field[]> = {
  'dwc-taxon': ['id', 'name'],
  'dwc-vernacular': ['id', 'vernacularName'],
  'dwc-speciesprofile': ['id', 'marine'],
  csv: ['id', 'name'],
};

/**
 * The batches of a tab-separated Darwin Core file or a CSV subset, read as it streams in. `skipped`
 * is filled as rows are left out.
 */
export async function* readTable(
  kind: Exclude<TaxonImportKind, 'json'>,
  input: Readable,
  skipped: Skipped,
): AsyncGenerator<ImportBatch> {
  const dwc = kind !== 'csv';
  const parser = input.pipe(
    parse({
      delimiter: dwc ? '\t' : ',',
      quote: dwc ? false : '"',
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 1_000_000,
    }),
  );
  let pick: ReturnType<typeof picker> | undefined;
  let line = 0;
  let taxa: TaxonInput[] = [];
  let vernaculars: VernacularInput[] = [];
  let marine: Array<{ aphia_id: number; is_marine: boolean }> = [];
  const skip = (reason: string) => {
    skipped.count++;
    if (skipped.reasons.length < keptReasons) skipped.reasons.push(`line ${line}: ${reason}`);
  };
  try {
    for await (const row of parser as AsyncIterable<string[]>) {
      line++;
      if (!pick) {
        pick = picker(row);
        const missing = required[kind].filter((f) => !pick!.has(f));
        if (missing.length > 0)
          throw new AppError(
            'BAD_REQUEST',
            `The ${kind} file has no ${missing.map((f) => columns[f].join(' or ')).join(', no ')} column`,
          );
        continue;
      }
      const id = aphiaIdOf(pick.get(row, 'id'));
      if (id === undefined) {
        skip(`"${String(pick.get(row, 'id') ?? '').slice(0, 60)}" is not an AphiaID`);
        continue;
      }
      if (kind === 'dwc-vernacular') {
        const name = (pick.get(row, 'vernacularName') ?? '').trim();
        if (name === '' || name.length > 300) {
          skip('vernacularName is empty or longer than 300 characters');
          continue;
        }
        vernaculars.push({ aphia_id: id, name, language: (pick.get(row, 'language') ?? '').trim().slice(0, 20) });
      } else if (kind === 'dwc-speciesprofile') {
        const value = flag(pick.get(row, 'marine'));
        if (value !== null) marine.push({ aphia_id: id, is_marine: value });
      } else {
        const candidate = {
          aphia_id: id,
          scientific_name: (pick.get(row, 'name') ?? '').trim(),
          authority: blankToNull(pick.get(row, 'authority')),
          rank: blankToNull(pick.get(row, 'rank')),
          status: blankToNull(pick.get(row, 'status')),
          accepted_aphia_id: aphiaIdOf(pick.get(row, 'accepted')) ?? null,
          parent_aphia_id: aphiaIdOf(pick.get(row, 'parent')) ?? null,
          is_marine: flag(pick.get(row, 'marine')),
          ...(pick.has('vernaculars')
            ? {
                vernaculars: (pick.get(row, 'vernaculars') ?? '')
                  .split(';')
                  .map((v) => v.trim())
                  .filter(Boolean)
                  .map((name) => ({ name })),
              }
            : {}),
        };
        const checked = taxonImportRowSchema.safeParse(candidate);
        if (!checked.success) {
          const issue = checked.error.issues[0];
          skip(`${issue?.path.join('.') || 'row'} ${issue?.message ?? 'is invalid'}`);
          continue;
        }
        taxa.push(candidate);
      }
      if (taxa.length >= batchSize) yield { kind: 'taxa', rows: taxa.splice(0) };
      if (vernaculars.length >= batchSize) yield { kind: 'vernaculars', rows: vernaculars.splice(0) };
      if (marine.length >= batchSize) yield { kind: 'marine', rows: marine.splice(0) };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('CSV_'))
      throw new AppError('BAD_REQUEST', `The ${kind} file cannot be read near line ${line + 1}: ${code}`);
    throw err;
  }
  if (!pick) throw new AppError('BAD_REQUEST', `The ${kind} file is empty`);
  if (taxa.length) yield { kind: 'taxa', rows: taxa };
  if (vernaculars.length) yield { kind: 'vernaculars', rows: vernaculars };
  if (marine.length) yield { kind: 'marine', rows: marine };
  taxa = [];
  vernaculars = [];
  marine = [];
}

/** A JSON subset: an array of rows (or `{ taxa: [...] }`); the first invalid row is named. */
export function readJsonRows(body: unknown): TaxonInput[] {
  const list = Array.isArray(body) ? body : (body as { taxa?: unknown } | null)?.taxa;
  if (!Array.isArray(list)) throw new AppError('BAD_REQUEST', 'Expected an array of taxa (or {"taxa": [...]})');
  return list.map((item, i) => {
    const checked = taxonImportRowSchema.safeParse(item);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new AppError('BAD_REQUEST', `taxa.${i}.${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`);
    }
    const row = checked.data;
    return {
      ...row,
      ...(row.vernaculars
        ? { vernaculars: row.vernaculars.map((v) => ({ name: v.name, language: v.language ?? '' })) }
        : {}),
    };
  });
}
