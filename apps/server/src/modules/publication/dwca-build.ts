import type { MeasurementMapping, PublicationLicence, PublicationSettings } from '@bathylog/shared';
import { wormsLsid, type TaxonRecord } from './taxa.js';

/**
 * The Darwin Core Archive's text files (docs/publication.md#the-archive), built from plain inputs so
 * that the same inputs give the same bytes: no clock, no random, rows in a fixed order.
 */

export interface RecordMeta {
  id: string;
  humanId: string;
  start: number;
  stop: number;
  location: string;
  /** Cruise: its name; lowering: its description's first line. */
  title: string;
  description: string;
  /** Cruise: the PI; lowering: the cruise's PI. */
  pi: string;
  vessel: string;
}

export interface ObservationTaxon {
  /** The option name the taxon came from (`taxon`), or the legacy option's name. */
  key: string;
  /** The taxon as chosen by the logger. */
  chosen: TaxonRecord;
  qualifier: string;
  /** When the published name is an ancestor of the chosen one (`cf.` / `aff.` on a species). */
  published: TaxonRecord;
  /** What the logger saw: the legacy value, or the chosen name with its qualifier. */
  verbatim: string;
  count: number | null;
  abundance: string | null;
}

export interface Position {
  lat: number;
  lon: number;
  depth: number | null;
  uncertainty: number;
  /** `vehicle` or `vessel`: which navigation placed it. */
  from: 'vehicle' | 'vessel';
}

export interface Observation {
  eventId: string;
  ts: number;
  /** The dive holding it (human id), or null for an observation between dives. */
  dive: string | null;
  author: string;
  eventValue: string;
  position: Position | null;
  taxa: ObservationTaxon[];
  measurements: Array<{ mapping: MeasurementMapping; value: number }>;
  media: string[];
}

export interface ArchiveInput {
  kind: 'lowering' | 'cruise';
  cruise: RecordMeta | null;
  dives: RecordMeta[];
  observations: Observation[];
  settings: PublicationSettings;
}

export type ArchiveFiles = Record<ArchiveFileName, string>;
export const archiveFileNames = [
  'meta.xml',
  'eml.xml',
  'event.txt',
  'occurrence.txt',
  'extendedmeasurementorfact.txt',
] as const;
export type ArchiveFileName = (typeof archiveFileNames)[number];

const dwc = 'http://rs.tdwg.org/dwc/terms/';
const obis = 'http://rs.iobis.org/obis/terms/';
const dcterms = 'http://purl.org/dc/terms/';

/** Each table's columns: the name in the header and the term URI meta.xml gives it. */
export const tables = {
  'event.txt': {
    rowType: `${dwc}Event`,
    columns: [
      'eventID',
      'parentEventID',
      'eventType',
      'eventDate',
      'locality',
      'decimalLatitude',
      'decimalLongitude',
      'geodeticDatum',
      'coordinateUncertaintyInMeters',
      'minimumDepthInMeters',
      'maximumDepthInMeters',
      'samplingProtocol',
      'eventRemarks',
    ],
  },
  'occurrence.txt': {
    rowType: `${dwc}Occurrence`,
    columns: [
      'eventID',
      'occurrenceID',
      'basisOfRecord',
      'occurrenceStatus',
      'scientificName',
      'scientificNameID',
      'taxonRank',
      'scientificNameAuthorship',
      'identificationQualifier',
      'verbatimIdentification',
      'identifiedBy',
      'identificationVerificationStatus',
      'individualCount',
      'organismQuantity',
      'organismQuantityType',
      'associatedMedia',
    ],
  },
  'extendedmeasurementorfact.txt': {
    rowType: `${obis}ExtendedMeasurementOrFact`,
    columns: [
      'eventID',
      'measurementID',
      'measurementType',
      'measurementTypeID',
      'measurementValue',
      'measurementUnit',
      'measurementUnitID',
    ],
  },
} as const;

type TableName = keyof typeof tables;
type Row<T extends TableName> = Record<(typeof tables)[T]['columns'][number], string>;

/** The term URI of a column. */
export function termOf(column: string): string {
  if (column === 'measurementTypeID' || column === 'measurementUnitID' || column === 'measurementValueID')
    return `${obis}${column}`;
  if (column === 'type' || column === 'modified' || column === 'license') return `${dcterms}${column}`;
  return `${dwc}${column}`;
}

/** A value fit for a tab-separated file without quoting: tabs and line breaks become spaces. */
export function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value)
    .replace(/[\t\r\n]+/g, ' ')
    .trim();
}

function tsv<T extends TableName>(table: T, rows: ReadonlyArray<Row<T>>): string {
  const columns = tables[table].columns as readonly string[];
  const lines = [columns.join('\t')];
  for (const row of rows) lines.push(columns.map((c) => cell((row as Record<string, string>)[c])).join('\t'));
  return lines.join('\n') + '\n';
}

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const interval = (a: number, b: number) => `${iso(a)}/${iso(b)}`;
const fixed = (n: number, digits: number) => String(Number(n.toFixed(digits)));

/** The stable identifiers of the archive's events. */
export const ids = {
  cruise: (c: RecordMeta) => c.humanId,
  dive: (cruise: RecordMeta | null, d: RecordMeta) => (cruise ? `${cruise.humanId}_${d.humanId}` : d.humanId),
  observation: (parent: string, eventId: string) => `${parent}_${eventId}`,
};

const verificationStatus = 'unverified (live annotation)';

export function buildTables(input: ArchiveInput): Pick<ArchiveFiles, TableName> {
  const { cruise, dives, observations, settings } = input;
  const events: Array<Row<'event.txt'>> = [];
  const occurrences: Array<Row<'occurrence.txt'>> = [];
  const measurements: Array<Row<'extendedmeasurementorfact.txt'>> = [];
  const blankEvent = Object.fromEntries(tables['event.txt'].columns.map((c) => [c, ''])) as Row<'event.txt'>;

  if (cruise) {
    events.push({
      ...blankEvent,
      eventID: ids.cruise(cruise),
      eventType: 'cruise',
      eventDate: interval(cruise.start, cruise.stop),
      locality: cruise.location,
      samplingProtocol: cruise.vessel ? `research vessel ${cruise.vessel}` : '',
      eventRemarks: cruise.title,
    });
  }
  const diveIds = new Map<string, string>();
  for (const dive of dives) {
    const id = ids.dive(cruise, dive);
    diveIds.set(dive.humanId, id);
    events.push({
      ...blankEvent,
      eventID: id,
      parentEventID: cruise ? ids.cruise(cruise) : '',
      eventType: 'dive',
      eventDate: interval(dive.start, dive.stop),
      locality: dive.location,
      samplingProtocol: 'video survey by underwater vehicle',
      eventRemarks: dive.title,
    });
  }
  for (const o of observations) {
    const parent = (o.dive !== null ? diveIds.get(o.dive) : undefined) ?? (cruise ? ids.cruise(cruise) : '');
    const eventId = ids.observation(parent || 'event', o.eventId);
    const p = o.position;
    events.push({
      ...blankEvent,
      eventID: eventId,
      parentEventID: parent,
      eventType: 'observation',
      eventDate: iso(o.ts),
      decimalLatitude: p ? fixed(p.lat, 6) : '',
      decimalLongitude: p ? fixed(p.lon, 6) : '',
      geodeticDatum: p ? 'EPSG:4326' : '',
      coordinateUncertaintyInMeters: p ? String(p.uncertainty) : '',
      minimumDepthInMeters: p?.depth != null ? fixed(p.depth, 2) : '',
      maximumDepthInMeters: p?.depth != null ? fixed(p.depth, 2) : '',
      samplingProtocol: 'video observation',
      eventRemarks: p ? `position from ${p.from} navigation` : 'no navigation at the event',
    });
    o.taxa.forEach((t, i) => {
      const qualifier =
        t.published.aphiaId !== t.chosen.aphiaId ? `${t.qualifier} ${t.chosen.name}`.trim() : t.qualifier;
      occurrences.push({
        eventID: eventId,
        occurrenceID: `${eventId}_${i + 1}`,
        basisOfRecord: settings.dataset.basis_of_record,
        occurrenceStatus: 'present',
        scientificName: t.published.name,
        scientificNameID: wormsLsid(t.published.aphiaId),
        taxonRank: t.published.rank ?? '',
        scientificNameAuthorship: t.published.authority ?? '',
        identificationQualifier: qualifier,
        verbatimIdentification: t.verbatim,
        identifiedBy: o.author,
        identificationVerificationStatus: verificationStatus,
        individualCount: t.count !== null ? String(t.count) : '',
        organismQuantity: t.count === null && t.abundance ? t.abundance : '',
        organismQuantityType: t.count === null && t.abundance ? 'abundance category' : '',
        associatedMedia: o.media.join(' | '),
      });
    });
    for (const m of o.measurements) {
      measurements.push({
        eventID: eventId,
        measurementID: `${eventId}_${m.mapping.type_id}`,
        measurementType: m.mapping.type,
        measurementTypeID: `http://vocab.nerc.ac.uk/collection/P01/current/${m.mapping.type_id}/`,
        measurementValue: String(Number(m.value.toPrecision(10))),
        measurementUnit: m.mapping.unit,
        measurementUnitID: `http://vocab.nerc.ac.uk/collection/P06/current/${m.mapping.unit_id}/`,
      });
    }
  }
  return {
    'event.txt': tsv('event.txt', events),
    'occurrence.txt': tsv('occurrence.txt', occurrences),
    'extendedmeasurementorfact.txt': tsv('extendedmeasurementorfact.txt', measurements),
  };
}

export function xmlText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

export function buildMeta(): string {
  const file = (name: TableName, core: boolean) => {
    const t = tables[name];
    const tag = core ? 'core' : 'extension';
    const lines = [
      `  <${tag} encoding="UTF-8" fieldsTerminatedBy="\\t" linesTerminatedBy="\\n" fieldsEnclosedBy="" ignoreHeaderLines="1" rowType="${t.rowType}">`,
      `    <files>`,
      `      <location>${name}</location>`,
      `    </files>`,
      core ? `    <id index="0"/>` : `    <coreid index="0"/>`,
      ...t.columns.map((c, i) => `    <field index="${i}" term="${termOf(c)}"/>`),
      `  </${tag}>`,
    ];
    return lines.join('\n');
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<archive xmlns="http://rs.tdwg.org/dwc/text/" metadata="eml.xml">',
    file('event.txt', true),
    file('occurrence.txt', false),
    file('extendedmeasurementorfact.txt', false),
    '</archive>',
    '',
  ].join('\n');
}

const licences: Record<PublicationLicence, { url: string; title: string }> = {
  'CC0-1.0': {
    url: 'http://creativecommons.org/publicdomain/zero/1.0/legalcode',
    title: 'Public Domain (CC0 1.0)',
  },
  'CC-BY-4.0': {
    url: 'http://creativecommons.org/licenses/by/4.0/legalcode',
    title: 'Creative Commons Attribution (CC-BY) 4.0',
  },
  'CC-BY-NC-4.0': {
    url: 'http://creativecommons.org/licenses/by-nc/4.0/legalcode',
    title: 'Creative Commons Attribution Non Commercial (CC-BY-NC) 4.0',
  },
};

/** A person's name split as EML wants it: the last word is the surname. */
function individualName(full: string): string {
  const words = full
    .replace(/^(dr|prof)\.?\s+/i, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const sur = words.pop() ?? '';
  const given = words.join(' ');
  return `<individualName>${given ? `<givenName>${xmlText(given)}</givenName>` : ''}<surName>${xmlText(sur)}</surName></individualName>`;
}

function party(tag: string, person: string, organisation: string, email: string, indent: string): string {
  const parts: string[] = [];
  if (person) parts.push(individualName(person));
  if (organisation || !person) parts.push(`<organizationName>${xmlText(organisation || 'unknown')}</organizationName>`);
  if (email) parts.push(`<electronicMailAddress>${xmlText(email)}</electronicMailAddress>`);
  return `${indent}<${tag}>${parts.join('')}</${tag}>`;
}

export interface EmlCoverage {
  bbox: { west: number; east: number; north: number; south: number } | null;
  taxa: Array<{ rank: string; name: string }>;
}

/** eml.xml (EML 2.2.0, GBIF metadata profile 1.3) from the cruise and dive records. */
export function buildEml(input: ArchiveInput, coverage: EmlCoverage): string {
  const { cruise, dives, settings, kind } = input;
  const ds = settings.dataset;
  const main = kind === 'cruise' ? cruise! : dives[0]!;
  const title =
    kind === 'cruise'
      ? `${cruise!.humanId}${cruise!.title ? `: ${cruise!.title}` : ''}: observations`
      : `${cruise ? `${cruise.humanId} ` : ''}dive ${main.humanId}${main.location ? ` (${main.location})` : ''}: observations`;
  const pi = cruise?.pi ?? main.pi;
  const start = Math.min(main.start, main.stop);
  const stop = Math.max(main.start, main.stop);
  const day = (ms: number) => iso(ms).slice(0, 10);
  const lic = licences[ds.licence];
  const abstract = [
    kind === 'cruise'
      ? `Annotations of the dives of cruise ${cruise!.humanId}${cruise!.vessel ? ` on ${cruise!.vessel}` : ''}, logged live in Bathylog.`
      : `Annotations of dive ${main.humanId}${cruise ? ` of cruise ${cruise.humanId}` : ''}${main.vessel ? ` (${main.vessel})` : ''}, logged live in Bathylog.`,
    main.description,
    kind === 'lowering' && cruise?.description ? `Cruise: ${cruise.description}` : '',
  ].filter((p) => p.trim() !== '');
  const i2 = '    ';
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<eml:eml xmlns:eml="https://eml.ecoinformatics.org/eml-2.2.0" xmlns:dc="http://purl.org/dc/terms/"',
    '         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '         xsi:schemaLocation="https://eml.ecoinformatics.org/eml-2.2.0 https://rs.gbif.org/schema/eml-gbif-profile/1.3/eml.xsd"',
    `         packageId="bathylog:${kind}:${xmlText(main.id)}" system="http://gbif.org" scope="system" xml:lang="en">`,
    '  <dataset>',
    `${i2}<alternateIdentifier>bathylog:${kind}:${xmlText(main.id)}</alternateIdentifier>`,
    `${i2}<title xml:lang="en">${xmlText(title)}</title>`,
    party('creator', pi, ds.publisher || main.vessel, '', i2),
    party('metadataProvider', ds.contact_name, ds.publisher, ds.contact_email, i2),
    `${i2}<pubDate>${day(stop)}</pubDate>`,
    `${i2}<language>en</language>`,
    `${i2}<abstract>`,
    ...abstract.map((p) => `${i2}  <para>${xmlText(p)}</para>`),
    `${i2}</abstract>`,
    `${i2}<keywordSet>`,
    `${i2}  <keyword>Occurrence</keyword>`,
    `${i2}  <keyword>Observation</keyword>`,
    `${i2}  <keywordThesaurus>GBIF Dataset Type Vocabulary: http://rs.gbif.org/vocabulary/gbif/dataset_type_2015-07-10.xml</keywordThesaurus>`,
    `${i2}</keywordSet>`,
    `${i2}<intellectualRights>`,
    `${i2}  <para>This work is licensed under a <ulink url="${lic.url}"><citetitle>${lic.title} License</citetitle></ulink>.</para>`,
    `${i2}</intellectualRights>`,
    `${i2}<coverage>`,
  ];
  if (coverage.bbox) {
    const b = coverage.bbox;
    lines.push(
      `${i2}  <geographicCoverage>`,
      `${i2}    <geographicDescription>${xmlText(main.location || 'Bounding box of the observations')}</geographicDescription>`,
      `${i2}    <boundingCoordinates>`,
      `${i2}      <westBoundingCoordinate>${fixed(b.west, 6)}</westBoundingCoordinate>`,
      `${i2}      <eastBoundingCoordinate>${fixed(b.east, 6)}</eastBoundingCoordinate>`,
      `${i2}      <northBoundingCoordinate>${fixed(b.north, 6)}</northBoundingCoordinate>`,
      `${i2}      <southBoundingCoordinate>${fixed(b.south, 6)}</southBoundingCoordinate>`,
      `${i2}    </boundingCoordinates>`,
      `${i2}  </geographicCoverage>`,
    );
  }
  lines.push(
    `${i2}  <temporalCoverage>`,
    `${i2}    <rangeOfDates>`,
    `${i2}      <beginDate><calendarDate>${day(start)}</calendarDate></beginDate>`,
    `${i2}      <endDate><calendarDate>${day(stop)}</calendarDate></endDate>`,
    `${i2}    </rangeOfDates>`,
    `${i2}  </temporalCoverage>`,
  );
  if (coverage.taxa.length > 0) {
    lines.push(`${i2}  <taxonomicCoverage>`);
    for (const t of coverage.taxa)
      lines.push(
        `${i2}    <taxonomicClassification><taxonRankName>${xmlText(t.rank)}</taxonRankName><taxonRankValue>${xmlText(t.name)}</taxonRankValue></taxonomicClassification>`,
      );
    lines.push(`${i2}  </taxonomicCoverage>`);
  }
  lines.push(
    `${i2}</coverage>`,
    `${i2}<maintenance><description><para>Published from the ship's event log; a new export replaces the previous one.</para></description><maintenanceUpdateFrequency>asNeeded</maintenanceUpdateFrequency></maintenance>`,
    party('contact', ds.contact_name || pi, ds.publisher, ds.contact_email, i2),
  );
  if (cruise) {
    lines.push(
      `${i2}<project id="${xmlText(cruise.humanId)}">`,
      `${i2}  <title>${xmlText(cruise.title || cruise.humanId)}</title>`,
      `${i2}  <personnel>${individualName(cruise.pi || 'unknown')}<role>principalInvestigator</role></personnel>`,
      ...(cruise.description ? [`${i2}  <abstract><para>${xmlText(cruise.description)}</para></abstract>`] : []),
      `${i2}</project>`,
    );
  }
  lines.push(
    '  </dataset>',
    '  <additionalMetadata>',
    '    <metadata>',
    '      <gbif>',
    `        <dateStamp>${iso(stop)}</dateStamp>`,
    '        <hierarchyLevel>dataset</hierarchyLevel>',
    '      </gbif>',
    '    </metadata>',
    '  </additionalMetadata>',
    '</eml:eml>',
    '',
  );
  return lines.join('\n');
}
