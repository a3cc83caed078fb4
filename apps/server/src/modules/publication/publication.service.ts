import { createHash } from 'node:crypto';
import {
  loggedTaxa,
  publicationSettingsSchema,
  readAuxPosition,
  type EventAuxData,
  type EventListFormat,
  type EventOption,
  type PublicationReport,
  type PublicationSettings,
  type UnmappedObservation,
  type UpdatePublicationSettings,
} from '@bathylog/shared';
import { zipSync } from 'fflate';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import { isListedFor, viewerOf } from '../access/access.rules.js';
import type { EventAccess } from '../access/event-access.js';
import { recordChange } from '../audit/audit.js';
import type { EventItem } from '../events/event-output.js';
import { EventQueries } from '../events/event-queries.js';
import { RecordsRepository, type RecordOf } from '../records/records.repository.js';
import {
  archiveFileNames,
  buildEml,
  buildMeta,
  buildTables,
  type ArchiveFiles,
  type ArchiveInput,
  type Observation,
  type ObservationTaxon,
  type Position,
  type RecordMeta,
} from './dwca-build.js';
import { validateArchive } from './dwca-validate.js';
import { buildEventList, type ListedEvent } from './event-lists.js';
import { PublicationRepository } from './publication.repository.js';
import { taxonSourceOf } from './taxon-source.js';
import type { TaxonRecord, TaxonSource } from './taxa.js';

type Kind = 'cruise' | 'lowering';

const notFound = (kind: Kind) => new AppError('NOT_FOUND', `${kind} not found for that id`);

/** A finished export: the zip and the validator's report on it. */
export interface DwcaExport {
  fileName: string;
  zip: Uint8Array;
  files: ArchiveFiles;
  report: PublicationReport;
}

/** A taxon the logger picked, before the taxonomy is read. */
interface PickedTaxon {
  key: string;
  aphiaId: number;
  name: string;
  qualifier: string;
  verbatim: string | null;
  count: number | null;
  abundance: string | null;
}

const settingParts = ['dataset', 'measurements', 'event_lists'] as const;

/** ZIP times are DOS times (from 1980); a fixed time per record keeps the bytes the same. */
const dosEpoch = Date.UTC(1980, 0, 2);

/**
 * Standard publication (docs/publication.md): the Darwin Core Archive of a dive or a cruise with the
 * validator's report, the archives' event lists, and the settings they follow. Reading follows the
 * rule of every export: the caller must be able to open the record, and sees only the events the
 * event rule lets them see.
 */
export class PublicationService {
  private readonly queries: EventQueries;
  private readonly taxa: TaxonSource;

  constructor(
    private readonly ctx: AppContext,
    taxa?: TaxonSource,
  ) {
    this.queries = new EventQueries(ctx);
    this.taxa = taxa ?? taxonSourceOf(ctx);
  }

  async settings(): Promise<PublicationSettings> {
    const stored = await new PublicationRepository(this.ctx.database.db).readAll();
    const raw: Record<string, unknown> = {};
    for (const part of settingParts) {
      const text = stored.get(part);
      if (text !== undefined) raw[part] = parseJson<unknown>(text, undefined);
    }
    const parsed = publicationSettingsSchema.safeParse(raw);
    // Stored settings were checked when written; a part a newer release no longer reads falls back.
    return parsed.success ? parsed.data : publicationSettingsSchema.parse({});
  }

  /** Admins replace any part; the change and the old value go to the audit trail. */
  async updateSettings(caller: AuthContext, patch: UpdatePublicationSettings): Promise<PublicationSettings> {
    const before = await this.settings();
    const db = this.ctx.database.db;
    await db.transaction().execute(async (trx) => {
      const repo = new PublicationRepository(trx);
      for (const part of settingParts) {
        const value = patch[part];
        if (value === undefined) continue;
        await repo.write(part, JSON.stringify(value), this.ctx.now(), caller.user.id);
      }
      await recordChange(trx, caller, {
        action: 'update',
        record_type: 'publication_settings',
        record_id: null,
        old_value: Object.fromEntries(Object.keys(patch).map((k) => [k, before[k as keyof PublicationSettings]])),
        new_value: patch,
      });
    });
    return this.settings();
  }

  private get records() {
    const { db, dialect } = this.ctx.database;
    return {
      cruise: new RecordsRepository('cruise', db, dialect),
      lowering: new RecordsRepository('lowering', db, dialect),
    };
  }

  /** The record, its cruise and its dives as the caller may see them. */
  private async scope(caller: AuthContext, kind: Kind, id: string) {
    const window = await this.queries.record(caller, kind, id, notFound(kind));
    const { cruise: cruises, lowering: lowerings } = this.records;
    const viewer = viewerOf(caller);
    const listed = <K extends Kind>(k: K, r: RecordOf<K>) => {
      const fields = r as unknown as Record<string, unknown>;
      return isListedFor(
        viewer,
        {
          hidden: !!fields[`${k}_hidden`],
          accessList: (fields[`${k}_access_list`] as string[]) ?? [],
          ref: { kind: k, id: r.id },
        },
        this.ctx.config.useAccessControl,
      );
    };
    if (kind === 'lowering') {
      const dive = (await lowerings.findById(window.id))!;
      const cruise = (await cruises.listContaining(dive.start_ts, dive.stop_ts)).find((c) => listed('cruise', c));
      return { window, cruise: cruise ? cruiseMeta(cruise) : null, dives: [diveMeta(dive, cruise)] };
    }
    const cruise = (await cruises.findById(window.id))!;
    const dives = (await lowerings.listWithin(cruise.start_ts, cruise.stop_ts))
      .filter((d) => listed('lowering', d))
      .sort((a, b) => a.start_ts - b.start_ts || a.id.localeCompare(b.id))
      .map((d) => diveMeta(d, cruise));
    return { window, cruise: cruiseMeta(cruise), dives };
  }

  /** The record's events, oldest first, with their aux data. */
  private async *events(window: { start_ts: number; stop_ts: number }, access: EventAccess) {
    const resolved = await this.queries.resolve({}, { lo: window.start_ts, hi: window.stop_ts }, 'exact', access);
    const items = this.queries.items(this.queries.rows(resolved, { order: 'asc' }), { aux: true, ids: null });
    for await (const chunk of items()) yield* chunk;
  }

  /** Builds, validates and zips the archive of a dive or a cruise. */
  async dwca(caller: AuthContext, kind: Kind, id: string, access: EventAccess): Promise<DwcaExport> {
    const { window, cruise, dives } = await this.scope(caller, kind, id);
    const settings = await this.settings();
    const observations: Array<Omit<Observation, 'taxa'> & { picked: PickedTaxon[] }> = [];
    const unmapped: UnmappedObservation[] = [];
    const observationValues = new Set(settings.dataset.observation_values);
    const legacy = new Map<string, Promise<{ aphiaId: number; qualifier: string } | undefined>>();
    const legacyOf = (name: string, value: string) => {
      const key = `${name}\u0000${value}`;
      let hit = legacy.get(key);
      if (!hit) legacy.set(key, (hit = this.taxa.legacyMapping(name, value)));
      return hit;
    };
    const mediaBase = (settings.dataset.media_base_url || this.ctx.config.publicUrl || '').replace(/\/+$/, '');
    for await (const item of this.events(window, access)) {
      const options = parseJson<EventOption[]>(item.row.event_options, []);
      let picked = pickedTaxa(options);
      if (picked.length === 0) {
        for (const o of options) {
          const value = String(o.event_option_value ?? '').trim();
          if (!value) continue;
          const hit = (await legacyOf(o.event_option_name, value)) ?? (await legacyOf(item.row.event_value, value));
          if (hit) {
            picked = [
              {
                key: o.event_option_name,
                aphiaId: hit.aphiaId,
                name: '',
                qualifier: hit.qualifier,
                verbatim: value,
                count: null,
                abundance: null,
              },
            ];
            break;
          }
        }
      }
      if (picked.length === 0) {
        if (observationValues.has(item.row.event_value)) unmapped.push(unmappedOf(item, options));
        continue;
      }
      const dive = dives.find((d) => item.row.ts >= d.start && item.row.ts <= d.stop) ?? null;
      const aux = (item.aux ?? []).map((a) => ({
        data_source: a.data_source,
        data_array: parseJson<EventAuxData['data_array']>(a.data_array, []),
      }));
      const measurements = measurementsOf(aux, settings);
      observations.push({
        eventId: item.row.id,
        ts: item.row.ts,
        dive: dive?.humanId ?? null,
        author: item.row.event_author,
        eventValue: item.row.event_value,
        position: positionOf(aux, settings, measurements),
        measurements,
        media: mediaOf(aux, this.ctx.config.client.imagesAuxDataSources, mediaBase),
        picked,
      });
    }

    // The taxonomy: each picked taxon, and the genus of a cf./aff. species (the lowest confident taxon).
    const aphiaIds = [...new Set(observations.flatMap((o) => o.picked.map((p) => p.aphiaId)))].sort((a, b) => a - b);
    const known = await this.taxa.findMany(aphiaIds);
    const parents = new Map<number, TaxonRecord | null>();
    for (const aphiaId of aphiaIds) {
      const taxon = known.get(aphiaId);
      if (taxon && /^species$/i.test(taxon.rank ?? '')) {
        const line = (await this.taxa.ancestors(aphiaId)).filter((t) => t.aphiaId !== aphiaId);
        parents.set(aphiaId, line.at(-1) ?? null);
      }
    }
    const finished: Observation[] = observations.map(({ picked, ...o }) => ({
      ...o,
      taxa: picked.map((p): ObservationTaxon => {
        const chosen = known.get(p.aphiaId) ?? unknownTaxon(p);
        const uncertain = p.qualifier === 'cf.' || p.qualifier === 'aff.';
        const parent = uncertain ? parents.get(p.aphiaId) : null;
        const name = p.name || chosen.name;
        return {
          key: p.key,
          chosen: { ...chosen, name: p.name || chosen.name },
          published: parent ?? { ...chosen, name },
          qualifier: p.qualifier,
          verbatim: p.verbatim ?? withQualifier(name, p.qualifier),
          count: p.count,
          abundance: p.abundance,
        };
      }),
    }));

    const input: ArchiveInput = { kind, cruise, dives, observations: finished, settings };
    const tables = buildTables(input);
    const files: ArchiveFiles = {
      'meta.xml': buildMeta(),
      'eml.xml': buildEml(input, coverageOf(finished)),
      ...tables,
    };
    const published = new Map<number, TaxonRecord>(known);
    for (const p of parents.values()) if (p) published.set(p.aphiaId, p);
    const findings = await validateArchive(files, { taxa: published });
    if (finished.some((o) => o.media.length > 0) && !/^https?:\/\//.test(mediaBase))
      findings.warnings.push({
        file: 'occurrence.txt',
        field: 'associatedMedia',
        message:
          'associatedMedia holds server paths, not addresses: set the public media address (publication settings, media_base_url) or BATHYLOG_PUBLIC_URL',
      });

    const mtime = new Date(Math.max(dosEpoch, window.stop_ts));
    const enc = new TextEncoder();
    const zip = zipSync(
      Object.fromEntries(archiveFileNames.map((name) => [name, [enc.encode(files[name]), { mtime }]])),
      { level: 6, mtime },
    );
    const base = [cruise?.humanId, kind === 'lowering' ? dives[0]?.humanId : undefined]
      .filter(Boolean)
      .join('_')
      .replace(/[^\w.-]/g, '_');
    const fileName = `${base || window.humanId.replace(/[^\w.-]/g, '_')}_dwca.zip`;
    const countRows = (text: string) => text.split('\n').filter((l) => l !== '').length - 1;
    const report: PublicationReport = {
      ok: findings.errors.length === 0,
      file_name: fileName,
      sha256: createHash('sha256').update(zip).digest('hex'),
      bytes: zip.byteLength,
      counts: {
        events: countRows(files['event.txt']),
        observations: finished.length,
        occurrences: countRows(files['occurrence.txt']),
        measurements: countRows(files['extendedmeasurementorfact.txt']),
        unmapped: unmapped.length,
      },
      errors: findings.errors,
      warnings: findings.warnings,
      unmapped,
    };
    return { fileName, zip, files, report };
  }

  /** The R2R event log or the PANGAEA event list of a cruise, from the template mapping. */
  async eventList(
    caller: AuthContext,
    id: string,
    format: EventListFormat,
    access: EventAccess,
  ): Promise<{ fileName: string; contentType: string; body: string }> {
    const { window, cruise, dives } = await this.scope(caller, 'cruise', id);
    const settings = await this.settings();
    const mapping = new Map(settings.event_lists.map((m) => [m.event_value, m]));
    const listed: ListedEvent[] = [];
    for await (const item of this.events(window, access)) {
      const m = mapping.get(item.row.event_value);
      if (!m) continue;
      const aux = (item.aux ?? []).map((a) => ({
        data_source: a.data_source,
        data_array: parseJson<EventAuxData['data_array']>(a.data_array, []),
      }));
      const vessel = positionFrom(aux, settings.dataset.vessel_nav_sources);
      const vehicle = positionFrom(aux, settings.dataset.vehicle_nav_sources);
      listed.push({
        ts: item.row.ts,
        mapping: m,
        author: item.row.event_author,
        comment: item.row.event_free_text,
        station: dives.find((d) => item.row.ts >= d.start && item.row.ts <= d.stop)?.humanId ?? '',
        vessel: vessel ? { lat: vessel.lat, lon: vessel.lon } : null,
        vehicle,
      });
    }
    const out = buildEventList(format, cruise!.humanId, listed);
    return { fileName: `${cruise!.humanId.replace(/[^\w.-]/g, '_')}_${format}_events.${out.extension}`, ...out };
  }
}

function cruiseMeta(c: RecordOf<'cruise'>): RecordMeta {
  const meta = c.cruise_additional_meta;
  const text = (k: string) => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
  return {
    id: c.id,
    humanId: c.cruise_id,
    start: c.start_ts,
    stop: c.stop_ts,
    location: c.cruise_location,
    title: text('cruise_name'),
    description: text('cruise_description'),
    pi: text('cruise_pi'),
    vessel: text('cruise_vessel'),
  };
}

function diveMeta(d: RecordOf<'lowering'>, cruise: RecordOf<'cruise'> | undefined): RecordMeta {
  const meta = d.lowering_additional_meta;
  const description = typeof meta.lowering_description === 'string' ? meta.lowering_description : '';
  const cm = cruise?.cruise_additional_meta ?? {};
  return {
    id: d.id,
    humanId: d.lowering_id,
    start: d.start_ts,
    stop: d.stop_ts,
    location: d.lowering_location,
    title: description.split('\n')[0]!.trim().slice(0, 200),
    description,
    pi: typeof cm.cruise_pi === 'string' ? cm.cruise_pi : '',
    vessel: typeof cm.cruise_vessel === 'string' ? cm.cruise_vessel : '',
  };
}

/** The taxon options of an event (the shared taxon-in-event contract, docs/taxa.md). */
function pickedTaxa(options: readonly EventOption[]): PickedTaxon[] {
  return loggedTaxa(
    options.map((o) => ({
      event_option_name: o.event_option_name,
      event_option_value: String(o.event_option_value ?? ''),
    })),
  ).map((t) => ({
    key: t.option,
    aphiaId: t.aphia_id,
    name: t.name,
    qualifier: t.qualifier,
    verbatim: null,
    count: t.count ?? null,
    abundance: t.abundance ?? null,
  }));
}

function withQualifier(name: string, qualifier: string): string {
  if (!qualifier) return name;
  if (qualifier === 'cf.' || qualifier === 'aff.') {
    const words = name.split(/\s+/);
    return words.length >= 2 ? `${words[0]} ${qualifier} ${words.slice(1).join(' ')}` : `${qualifier} ${name}`;
  }
  return `${name} ${qualifier}`;
}

function unknownTaxon(p: PickedTaxon): TaxonRecord {
  return {
    aphiaId: p.aphiaId,
    name: p.name,
    authority: null,
    rank: null,
    status: null,
    acceptedAphiaId: null,
    parentAphiaId: null,
  };
}

function unmappedOf(item: EventItem, options: readonly EventOption[]): UnmappedObservation {
  const verbatim = [
    ...options
      .filter((o) => String(o.event_option_value ?? '') !== '')
      .map((o) => `${o.event_option_name}: ${String(o.event_option_value)}`),
    item.row.event_free_text,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    event_id: item.row.id,
    ts: new Date(item.row.ts).toISOString(),
    event_value: item.row.event_value,
    verbatim,
  };
}

type Aux = Pick<EventAuxData, 'data_source' | 'data_array'>;

function positionFrom(aux: readonly Aux[], sources: readonly string[]) {
  for (const source of sources) {
    const record = aux.find((a) => a.data_source === source);
    if (!record) continue;
    const reading = readAuxPosition(record);
    if (reading.ok && reading.position.lat !== null && reading.position.lon !== null)
      return { lat: reading.position.lat, lon: reading.position.lon, depth: reading.position.depth };
  }
  return null;
}

/** The vehicle's position, else the vessel's with its larger uncertainty; depth from the vehicle or its CTD. */
function positionOf(
  aux: readonly Aux[],
  settings: PublicationSettings,
  measurements: Observation['measurements'],
): Position | null {
  const ds = settings.dataset;
  const vehicle = positionFrom(aux, ds.vehicle_nav_sources);
  const measuredDepth = measurements.find((m) => m.mapping.type_id === 'ADEPZZ01')?.value ?? null;
  if (vehicle)
    return {
      ...vehicle,
      depth: vehicle.depth ?? measuredDepth,
      uncertainty: ds.vehicle_uncertainty_m,
      from: 'vehicle',
    };
  const vessel = positionFrom(aux, ds.vessel_nav_sources);
  if (vessel)
    return {
      lat: vessel.lat,
      lon: vessel.lon,
      depth: measuredDepth,
      uncertainty: ds.vessel_uncertainty_m,
      from: 'vessel',
    };
  return null;
}

function measurementsOf(aux: readonly Aux[], settings: PublicationSettings): Observation['measurements'] {
  const out: Observation['measurements'] = [];
  const seen = new Set<string>();
  for (const mapping of settings.measurements) {
    if (seen.has(mapping.type_id)) continue;
    const record = aux.find((a) => a.data_source === mapping.data_source);
    const item = record?.data_array.find((d) => d.data_name === mapping.data_name);
    if (!item) continue;
    const raw = Number(item.data_value);
    if (String(item.data_value).trim() === '' || !Number.isFinite(raw)) continue;
    seen.add(mapping.type_id);
    out.push({ mapping, value: raw * mapping.scale + mapping.offset });
  }
  return out;
}

/** The frame grabs of an event as addresses of the server's image route (docs/publication.md#frame-grabs). */
function mediaOf(aux: readonly Aux[], sources: readonly string[], base: string): string[] {
  const out: string[] = [];
  for (const record of aux) {
    if (!sources.includes(record.data_source)) continue;
    // Image records hold (camera name, file) pairs, as the gallery reads them.
    for (let i = 0; i + 1 < record.data_array.length; i += 2) {
      const file = String(record.data_array[i + 1]!.data_value ?? '')
        .replace(/^\/+/, '')
        .replace(/^images\//, '');
      if (!file || file.split('/').some((s) => s === '..' || s === '.')) continue;
      out.push(`${base}/sealog-server/files/images/${file.split('/').map(encodeURIComponent).join('/')}`);
    }
  }
  return out;
}

function coverageOf(observations: readonly Observation[]) {
  const points = observations.map((o) => o.position).filter((p): p is Position => p !== null);
  const bbox =
    points.length > 0
      ? {
          west: Math.min(...points.map((p) => p.lon)),
          east: Math.max(...points.map((p) => p.lon)),
          north: Math.max(...points.map((p) => p.lat)),
          south: Math.min(...points.map((p) => p.lat)),
        }
      : null;
  const taxa = new Map<string, { rank: string; name: string }>();
  for (const o of observations)
    for (const t of o.taxa)
      taxa.set(t.published.name, { rank: t.published.rank ?? 'unranked', name: t.published.name });
  return { bbox, taxa: [...taxa.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}
