import { z } from 'zod/mini';
import { optionNameKey, type EventOptionType } from './event-templates.js';

export {
  commonTaxonSchema,
  taxonOptionSettingsSchema,
  type CommonTaxon,
  type TaxonOptionSettings,
} from './event-templates.js';

/**
 * Taxa (docs/taxa.md): the ship's offline WoRMS taxonomy, the template option of type `taxon`,
 * and how a chosen taxon is stored in an event's ordinary `event_options`.
 */

/** Open-nomenclature qualifiers a logger may add to a pick; '' is a confident identification. */
export const taxonQualifiers = ['', 'sp.', 'cf.', 'aff.', 'indet.'] as const;
export type TaxonQualifier = (typeof taxonQualifiers)[number];
export const taxonQualifierSchema = z.enum(taxonQualifiers);

/** The LSID OBIS and GBIF expect as `scientificNameID`. */
export const wormsLsidPrefix = 'urn:lsid:marinespecies.org:taxname:';
export const wormsLsid = (aphiaId: number): string => `${wormsLsidPrefix}${aphiaId}`;

/** An AphiaID: a positive integer (WoRMS ids are below 2^31). */
export const aphiaIdSchema = z.int().check(z.positive(), z.lte(2147483647));

/** A name folded for search: accents removed, lower case, blanks collapsed. */
export function taxonSearchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export const taxonVernacularSchema = z.object({
  name: z.string(),
  language: z.string(),
});
export type TaxonVernacular = z.infer<typeof taxonVernacularSchema>;

/** One taxon as the API returns it. */
export const taxonSchema = z.object({
  aphia_id: z.number(),
  scientific_name: z.string(),
  authority: z.nullable(z.string()),
  rank: z.nullable(z.string()),
  status: z.nullable(z.string()),
  accepted_aphia_id: z.nullable(z.number()),
  parent_aphia_id: z.nullable(z.number()),
  is_marine: z.nullable(z.boolean()),
  vernaculars: z.array(taxonVernacularSchema),
  /** The import the record came from (`WoRMS DwC 2026-11-01`). */
  source: z.string(),
});
export type Taxon = z.infer<typeof taxonSchema>;

/** A search hit: the taxon, and what matched (`name` prefix or substring, or a vernacular name). */
export const taxonHitSchema = z.object({
  ...taxonSchema.shape,
  match: z.enum(['exact', 'prefix', 'substring', 'vernacular']),
  /** The vernacular name that matched, when `match` is `vernacular`. */
  matched_vernacular: z.optional(z.string()),
});
export type TaxonHit = z.infer<typeof taxonHitSchema>;

export const taxonSearchQuerySchema = z.object({
  q: z.string().check(z.minLength(1, 'must be at least 1 characters'), z.maxLength(100)),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
});

/** A taxon to import, as the CSV/JSON subset carries it (docs/taxa.md#importing). */
export const taxonImportRowSchema = z.object({
  aphia_id: aphiaIdSchema,
  scientific_name: z.string().check(z.minLength(1), z.maxLength(300)),
  authority: z.optional(z.nullable(z.string().check(z.maxLength(300)))),
  rank: z.optional(z.nullable(z.string().check(z.maxLength(50)))),
  status: z.optional(z.nullable(z.string().check(z.maxLength(50)))),
  accepted_aphia_id: z.optional(z.nullable(aphiaIdSchema)),
  parent_aphia_id: z.optional(z.nullable(aphiaIdSchema)),
  is_marine: z.optional(z.nullable(z.boolean())),
  vernaculars: z.optional(
    z.array(z.object({ name: z.string().check(z.minLength(1), z.maxLength(300)), language: z.optional(z.string()) })),
  ),
});
export type TaxonImportRow = z.infer<typeof taxonImportRowSchema>;

// ── the template option and the event options ─────────────────────────────────────────────────

/** The template option type that picks a taxon (beside Sealog's five). */
export const taxonOptionType = 'taxon' satisfies EventOptionType;

/**
 * The event option names a `taxon` option named `optionName` writes (Sealog's option-name rule:
 * lower case, blanks → `_`): `N` the scientific name as chosen (no qualifier), `N_aphia_id` the
 * AphiaID as a decimal string, `N_qualifier` one of `sp.`, `cf.`, `aff.`, `indet.` or '', and
 * `N_count` (an integer string) or `N_abundance` (the bin's label).
 */
export function taxonEventOptionNames(optionName: string) {
  const n = optionNameKey(optionName);
  return {
    name: n,
    aphiaId: `${n}_aphia_id`,
    qualifier: `${n}_qualifier`,
    count: `${n}_count`,
    abundance: `${n}_abundance`,
  } as const;
}

/** A taxon as logged in one event. */
export interface LoggedTaxon {
  /** The option's normalised name (`N`). */
  option: string;
  name: string;
  aphia_id: number;
  qualifier: TaxonQualifier;
  count?: number;
  abundance?: string;
}

const aphiaIdText = /^[1-9][0-9]{0,9}$/;
const countText = /^(0|[1-9][0-9]{0,8})$/;

/**
 * The taxa an event's options carry: every `N` that has a valid `N_aphia_id` beside it. Options
 * that do not follow the contract (no id, a malformed id or count) give nothing for that `N`.
 */
export function loggedTaxa(
  options: ReadonlyArray<{ event_option_name: string; event_option_value: string }>,
): LoggedTaxon[] {
  const byName = new Map(options.map((o) => [optionNameKey(o.event_option_name), o.event_option_value]));
  const out: LoggedTaxon[] = [];
  for (const [key, value] of byName) {
    if (!key.endsWith('_aphia_id') || !aphiaIdText.test(value.trim())) continue;
    const option = key.slice(0, -'_aphia_id'.length);
    const names = taxonEventOptionNames(option);
    const name = byName.get(names.name)?.trim();
    if (!option || !name) continue;
    const qualifierText = byName.get(names.qualifier)?.trim() ?? '';
    const qualifier = (taxonQualifiers as readonly string[]).includes(qualifierText)
      ? (qualifierText as TaxonQualifier)
      : '';
    const taxon: LoggedTaxon = { option, name, aphia_id: Number(value.trim()), qualifier };
    const count = byName.get(names.count)?.trim();
    if (count !== undefined && countText.test(count)) taxon.count = Number(count);
    const abundance = byName.get(names.abundance)?.trim();
    if (abundance) taxon.abundance = abundance;
    out.push(taxon);
  }
  return out;
}

/** The event options for one pick, in the contract's order. */
export function taxonEventOptions(
  optionName: string,
  pick: { name: string; aphia_id: number; qualifier: TaxonQualifier; count?: number; abundance?: string },
): Array<{ event_option_name: string; event_option_value: string }> {
  const n = taxonEventOptionNames(optionName);
  const out = [
    { event_option_name: n.name, event_option_value: pick.name },
    { event_option_name: n.aphiaId, event_option_value: String(pick.aphia_id) },
    { event_option_name: n.qualifier, event_option_value: pick.qualifier },
  ];
  if (pick.count !== undefined) out.push({ event_option_name: n.count, event_option_value: String(pick.count) });
  if (pick.abundance !== undefined) out.push({ event_option_name: n.abundance, event_option_value: pick.abundance });
  return out;
}

// ── legacy mappings and the synonym report ────────────────────────────────────────────────────

/** A legacy option value mapped to a taxon (docs/taxa.md#legacy-options). */
export const legacyMappingSchema = z.object({
  id: z.string(),
  /** An option name (`morphotype`) or a template's event value (`CORAL`). */
  scope: z.string(),
  value: z.string(),
  aphia_id: z.number(),
  qualifier: taxonQualifierSchema,
  created_by: z.string(),
  updated_at: z.string(),
  /** The mapped taxon's name, when the taxonomy holds it. */
  scientific_name: z.nullable(z.string()),
});
export type LegacyMapping = z.infer<typeof legacyMappingSchema>;

export const putLegacyMappingSchema = z.object({
  scope: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  value: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
  aphia_id: aphiaIdSchema,
  qualifier: z.optional(taxonQualifierSchema),
});
export type PutLegacyMapping = z.infer<typeof putLegacyMappingSchema>;

/** The key a legacy scope or value is looked up by: trimmed, lower case, blanks → `_` for a scope. */
export const legacyScopeKey = (scope: string): string => optionNameKey(scope);
export const legacyValueKey = (value: string): string => value.trim().toLowerCase().replace(/\s+/g, ' ');

// ── imports, WoRMS fetches, the synonym report ────────────────────────────────────────────────

/**
 * What an import reads (docs/taxa.md#importing): the three files of a WoRMS Darwin Core export
 * (tab-separated, as the export ships them), or a subset as CSV (a header line naming the columns
 * of `taxonImportRowSchema`) or JSON (an array of such rows).
 */
export const taxonImportKinds = ['dwc-taxon', 'dwc-vernacular', 'dwc-speciesprofile', 'csv', 'json'] as const;
export type TaxonImportKind = (typeof taxonImportKinds)[number];

export const taxonImportQuerySchema = z.object({
  kind: z.enum(taxonImportKinds),
  /** The version label kept with each record (`WoRMS DwC 2026-11-01`); default: kind and date. */
  source: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});

export const taxonImportSchema = z.object({
  id: z.string(),
  kind: z.string(),
  source: z.string(),
  started_by: z.string(),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  state: z.enum(['running', 'done', 'failed']),
  taxa: z.number(),
  vernaculars: z.number(),
  /** Rows left out, with the first few reasons (line numbers), or why the import failed. */
  message: z.string(),
});
export type TaxonImport = z.infer<typeof taxonImportSchema>;

export const taxonomyStatusSchema = z.object({
  taxa: z.number(),
  imports: z.array(taxonImportSchema),
});
export type TaxonomyStatus = z.infer<typeof taxonomyStatusSchema>;

/** A scientific name as WoRMS spells names: letters, blanks, dots, hyphens, brackets. */
export const taxonNamePattern = /^[A-Za-z\u00C0-\u024F×][A-Za-z\u00C0-\u024F×. ()'-]{0,99}$/;

export const wormsFetchSchema = z.object({
  names: z
    .array(
      z
        .string()
        .check(
          z.trim(),
          z.regex(taxonNamePattern, 'must be a scientific name (letters, blanks, dots, hyphens, brackets)'),
        ),
    )
    .check(z.minLength(1), z.maxLength(50)),
});
export type WormsFetch = z.infer<typeof wormsFetchSchema>;

export const wormsFetchResultSchema = z.object({
  /** Per name asked: the AphiaIDs stored for it (empty when WoRMS knows no such name). */
  found: z.array(z.object({ name: z.string(), aphia_ids: z.array(z.number()) })),
  /** Taxa written (the matches, their accepted names and their ancestors). */
  taxa: z.number(),
  source: z.string(),
});
export type WormsFetchResult = z.infer<typeof wormsFetchResultSchema>;

export const synonymReportQuerySchema = z.object({
  cruise_id: z.optional(z.string()),
  lowering_id: z.optional(z.string()),
});

/** One name logged in the cruise or lowering whose WoRMS record no longer calls it accepted. */
export const synonymReportRowSchema = z.object({
  /** The name as the event carries it (or the legacy value's mapped name). */
  name: z.string(),
  aphia_id: z.number(),
  /** `taxon option` (a pick) or `legacy mapping` (an old option value mapped to a taxon). */
  via: z.enum(['taxon option', 'legacy mapping']),
  /** The option (`N`) or, for a legacy mapping, `scope: value`. */
  option: z.string(),
  /** WoRMS status now, or null when the taxonomy lacks the AphiaID. */
  status: z.nullable(z.string()),
  /** The taxonomy's current name for the AphiaID, when it differs from the logged one. */
  current_name: z.nullable(z.string()),
  accepted_aphia_id: z.nullable(z.number()),
  accepted_name: z.nullable(z.string()),
  events: z.number(),
  first_ts: z.string(),
  last_ts: z.string(),
});
export type SynonymReportRow = z.infer<typeof synonymReportRowSchema>;

/** A value a template offers (a dropdown, radio or checkbox value) and its mapping, if any. */
export const legacyValueSchema = z.object({
  template: z.string(),
  option: z.string(),
  value: z.string(),
  mapping: z.nullable(legacyMappingSchema),
});
export type LegacyValue = z.infer<typeof legacyValueSchema>;

export const taxonDetailSchema = z.object({
  ...taxonSchema.shape,
  ancestors: z.array(z.object({ aphia_id: z.number(), scientific_name: z.string(), rank: z.nullable(z.string()) })),
  accepted: z.nullable(z.object({ aphia_id: z.number(), scientific_name: z.string() })),
});
export type TaxonDetail = z.infer<typeof taxonDetailSchema>;
