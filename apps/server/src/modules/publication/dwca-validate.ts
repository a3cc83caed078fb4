import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ValidationIssue } from '@bathylog/shared';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { dwcTextXsd, emlXsd } from './dwca-schemas.js';
import { aphiaIdOfLsid, type TaxonRecord } from './taxa.js';

/**
 * The archive validator (docs/publication.md#the-validator): what OBIS's and GBIF's checks would
 * refuse, found before anyone uploads. It reads the archive's files as shipped (meta.xml decides
 * which file holds which term), so a fault anywhere in the chain shows here.
 */

export interface Findings {
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

/** The fields OBIS requires of every occurrence (on it, or on its event in an event-core archive). */
export const obisRequired = {
  occurrence: ['occurrenceID', 'scientificName', 'scientificNameID', 'occurrenceStatus', 'basisOfRecord'],
  event: ['eventDate', 'decimalLatitude', 'decimalLongitude'],
} as const;

const basisOfRecord = new Set([
  'HumanObservation',
  'MachineObservation',
  'MaterialSample',
  'PreservedSpecimen',
  'LivingSpecimen',
  'FossilSpecimen',
  'MaterialCitation',
  'Occurrence',
]);

/** ISO 8601 date or date-time (UTC `Z` or an offset), or an interval of two. */
const isoInstant = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const isIsoDate = (v: string) =>
  v.split('/').length <= 2 && v.split('/').every((p) => isoInstant.test(p) && !Number.isNaN(Date.parse(p)));

const nerc = (collection: 'P01' | 'P06') =>
  new RegExp(`^http://vocab\\.nerc\\.ac\\.uk/collection/${collection}/current/[A-Z0-9]+/$`);

interface Table {
  file: string;
  header: string[];
  rows: string[][];
  /** column name → index, from the header */
  col: Map<string, number>;
}

interface MetaFile {
  file: string;
  core: boolean;
  rowType: string;
  idIndex: number | null;
  fields: Array<{ index: number | null; term: string }>;
}

function parseTable(file: string, text: string, out: Findings): Table {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = (lines[0] ?? '').split('\t');
  const rows: string[][] = [];
  lines.slice(1).forEach((line, i) => {
    const row = line.split('\t');
    if (row.length !== header.length)
      out.errors.push({
        file,
        line: i + 2,
        message: `the row has ${row.length} columns, the header ${header.length}`,
      });
    rows.push(row);
  });
  return { file, header, rows, col: new Map(header.map((h, i) => [h, i])) };
}

/**
 * Checks XML against a schema with libxml2's xmllint: Debian's binary when the machine has it (a few
 * milliseconds), else the same library compiled to WebAssembly (`xmllint-wasm`, about a second per
 * call: it starts a worker and compiles the module). Both answer xmllint's own messages.
 */
export type SchemaEngine = 'auto' | 'wasm';

const systemXmllint = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => existsSync(p)) ?? null;
let schemaDir: string | null = null;

/** The schemas as files for the binary, written once per process into a private temporary folder. */
function schemaFile(name: string, xsd: string): string {
  schemaDir ??= mkdtempSync(path.join(os.tmpdir(), 'bathylog-xsd-'));
  const file = path.join(schemaDir, name);
  if (!existsSync(file)) writeFileSync(file, xsd, { mode: 0o600 });
  return file;
}

interface SchemaError {
  line?: number;
  message: string;
}

function runXmllint(binary: string, xml: string, xsdFile: string): Promise<SchemaError[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binary,
      ['--noout', '--nonet', '--schema', xsdFile, '-'],
      { maxBuffer: 4 * 1024 * 1024, timeout: 60_000 },
      (error, _stdout, stderr) => {
        // Exit 3/4: the document is invalid (messages on stderr); anything else without messages failed.
        const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !/ validates$| fails to validate$/.test(l));
        if (error && lines.length === 0) return reject(error);
        resolve(
          lines
            .filter((l) => !/^\s/.test(l) && !/^\^/.test(l))
            .map((l) => {
              const m = /^-:(\d+):\s*(.*)$/.exec(l);
              return m ? { line: Number(m[1]), message: m[2]! } : { message: l };
            }),
        );
      },
    );
    child.stdin?.end(xml);
  });
}

async function schemaErrors(file: string, xml: string, xsd: string, engine: SchemaEngine): Promise<SchemaError[]> {
  if (engine === 'auto' && systemXmllint) return runXmllint(systemXmllint, xml, schemaFile(`${file}.xsd`, xsd));
  const result = await validateXML({
    xml: [{ fileName: file, contents: xml }],
    schema: [{ fileName: `${file}.xsd`, contents: xsd }],
  });
  return result.errors.map((e) => ({
    ...(e.loc?.lineNumber ? { line: e.loc.lineNumber } : {}),
    message: e.message.replace(/^.*?:\d+:\s*/, ''),
  }));
}

/** Schema validation of one XML file; xmllint's messages become issues with their line. */
async function againstSchema(
  file: string,
  xml: string | undefined,
  xsd: string,
  schemaName: string,
  engine: SchemaEngine,
): Promise<ValidationIssue[]> {
  if (xml === undefined) return [{ file, message: 'is missing from the archive' }];
  try {
    return (await schemaErrors(file, xml, xsd, engine)).map((e) => ({
      file,
      ...(e.line ? { line: e.line } : {}),
      message: `does not validate against ${schemaName}: ${e.message.trim()}`,
    }));
  } catch (err) {
    return [{ file, message: `could not be checked against ${schemaName}: ${(err as Error).message}` }];
  }
}

function readMeta(xml: string, out: Findings): MetaFile[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    isArray: (name) => ['extension', 'field', 'location'].includes(name),
  });
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml, true) as Record<string, unknown>;
  } catch (err) {
    out.errors.push({ file: 'meta.xml', message: `is not well-formed XML: ${(err as Error).message}` });
    return [];
  }
  const archive = doc.archive as Record<string, unknown> | undefined;
  if (!archive) return [];
  const toFile = (node: Record<string, unknown>, core: boolean): MetaFile => {
    const files = (node.files as { location?: string[] } | undefined)?.location ?? [];
    const id = (core ? node.id : node.coreid) as Record<string, string> | undefined;
    const fields = ((node.field as Array<Record<string, string>> | undefined) ?? []).map((f) => ({
      index: f['@index'] !== undefined ? Number(f['@index']) : null,
      term: String(f['@term'] ?? ''),
    }));
    return {
      file: String(files[0] ?? ''),
      core,
      rowType: String(node['@rowType'] ?? ''),
      idIndex: id?.['@index'] !== undefined ? Number(id['@index']) : null,
      fields,
    };
  };
  const out2: MetaFile[] = [];
  if (archive.core) out2.push(toFile(archive.core as Record<string, unknown>, true));
  for (const ext of (archive.extension as Array<Record<string, unknown>> | undefined) ?? [])
    out2.push(toFile(ext, false));
  return out2;
}

const localName = (term: string) => term.replace(/^.*[/#]/, '');

export interface ValidateOptions {
  /** The ship's taxonomy: the taxa the occurrences name, by AphiaID. */
  taxa: Map<number, TaxonRecord>;
  /** `wasm`: always the WebAssembly xmllint (tests of that path). */
  schemaEngine?: SchemaEngine;
}

export async function validateArchive(files: Record<string, string>, opts: ValidateOptions): Promise<Findings> {
  const out: Findings = { errors: [], warnings: [] };
  const meta = files['meta.xml'];
  const eml = files['eml.xml'];
  const engine = opts.schemaEngine ?? 'auto';
  // Both at once, reported in a fixed order (the report is part of the byte-identical output).
  const checked = await Promise.all([
    againstSchema('meta.xml', meta, dwcTextXsd, 'the Darwin Core text guide schema', engine),
    againstSchema('eml.xml', eml, emlXsd, 'the GBIF metadata profile schema', engine),
  ]);
  out.errors.push(...checked.flat());
  if (meta === undefined) return out;

  // Every file meta.xml names exists, and every field it names is a column of that file.
  const described = readMeta(meta, out);
  const tables = new Map<string, Table>();
  for (const m of described) {
    const text = files[m.file];
    if (text === undefined) {
      out.errors.push({ file: 'meta.xml', message: `names ${m.file || 'a file'}, which the archive does not hold` });
      continue;
    }
    const table = parseTable(m.file, text, out);
    tables.set(m.rowType, table);
    const idIndex = m.idIndex;
    if (idIndex !== null && idIndex >= table.header.length)
      out.errors.push({
        file: 'meta.xml',
        message: `${m.file}: the ${m.core ? 'id' : 'coreid'} column ${idIndex} does not exist`,
      });
    for (const f of m.fields) {
      if (f.index === null) continue;
      const name = table.header[f.index];
      if (name === undefined)
        out.errors.push({
          file: 'meta.xml',
          field: localName(f.term),
          message: `${m.file} has no column ${f.index} for ${f.term}`,
        });
      else if (name !== localName(f.term))
        out.errors.push({
          file: 'meta.xml',
          field: localName(f.term),
          message: `${m.file}: column ${f.index} is ${name}, meta.xml says ${f.term}`,
        });
    }
  }

  const events = tables.get('http://rs.tdwg.org/dwc/terms/Event');
  const occurrences = tables.get('http://rs.tdwg.org/dwc/terms/Occurrence');
  const measurements = tables.get('http://rs.iobis.org/obis/terms/ExtendedMeasurementOrFact');
  if (!events) {
    out.errors.push({ file: 'meta.xml', message: 'describes no Event core' });
    return out;
  }

  // Events: unique ids, parents that resolve, dates, coordinates and depths in range.
  const cell = (t: Table, row: string[], name: string) => {
    const i = t.col.get(name);
    return i === undefined ? '' : (row[i] ?? '').trim();
  };
  const byId = new Map<string, string[]>();
  events.rows.forEach((row, i) => {
    const line = i + 2;
    const id = cell(events, row, 'eventID');
    if (!id) out.errors.push({ file: events.file, line, field: 'eventID', message: 'eventID is empty' });
    else if (byId.has(id))
      out.errors.push({ file: events.file, line, field: 'eventID', message: `eventID ${id} is not unique` });
    else byId.set(id, row);
  });
  events.rows.forEach((row, i) => {
    const line = i + 2;
    const issue = (field: string, message: string) => out.errors.push({ file: events.file, line, field, message });
    const parent = cell(events, row, 'parentEventID');
    if (parent && !byId.has(parent)) issue('parentEventID', `parentEventID ${parent} names no event of the archive`);
    if (parent && parent === cell(events, row, 'eventID')) issue('parentEventID', 'an event is its own parent');
    const date = cell(events, row, 'eventDate');
    if (!date) issue('eventDate', 'eventDate is empty');
    else if (!isIsoDate(date)) issue('eventDate', `eventDate ${date} is not an ISO 8601 date`);
    const lat = cell(events, row, 'decimalLatitude');
    const lon = cell(events, row, 'decimalLongitude');
    if ((lat === '') !== (lon === ''))
      issue(lat ? 'decimalLongitude' : 'decimalLatitude', 'a coordinate lacks its pair');
    if (lat !== '' && !(Number(lat) >= -90 && Number(lat) <= 90))
      issue('decimalLatitude', `decimalLatitude ${lat} is outside -90..90`);
    if (lon !== '' && !(Number(lon) >= -180 && Number(lon) <= 180))
      issue('decimalLongitude', `decimalLongitude ${lon} is outside -180..180`);
    if (lat !== '' && !cell(events, row, 'geodeticDatum'))
      issue('geodeticDatum', 'coordinates without a geodeticDatum');
    const unc = cell(events, row, 'coordinateUncertaintyInMeters');
    if (unc !== '' && !(Number(unc) > 0))
      issue('coordinateUncertaintyInMeters', `coordinateUncertaintyInMeters ${unc} is not a positive number`);
    const min = cell(events, row, 'minimumDepthInMeters');
    const max = cell(events, row, 'maximumDepthInMeters');
    for (const [field, v] of [
      ['minimumDepthInMeters', min],
      ['maximumDepthInMeters', max],
    ] as const)
      if (v !== '' && !(Number(v) >= 0 && Number(v) <= 11000)) issue(field, `${field} ${v} is outside 0..11000`);
    if (min !== '' && max !== '' && Number(min) > Number(max))
      issue('minimumDepthInMeters', `minimumDepthInMeters ${min} is deeper than maximumDepthInMeters ${max}`);
  });

  // Occurrences: their event resolves, ids unique, OBIS's required fields, names as in the taxonomy.
  if (occurrences) {
    const seen = new Set<string>();
    occurrences.rows.forEach((row, i) => {
      const line = i + 2;
      const issue = (field: string, message: string) =>
        out.errors.push({ file: occurrences.file, line, field, message });
      const eventId = cell(occurrences, row, 'eventID');
      const event = byId.get(eventId);
      if (!event) issue('eventID', `eventID ${eventId || '(empty)'} names no event of the archive`);
      for (const field of obisRequired.occurrence)
        if (!cell(occurrences, row, field)) issue(field, `${field}, which OBIS requires, is empty`);
      if (event)
        for (const field of obisRequired.event)
          if (!cell(events, event, field)) issue(field, `${field}, which OBIS requires, is empty on event ${eventId}`);
      const occId = cell(occurrences, row, 'occurrenceID');
      if (occId && seen.has(occId)) issue('occurrenceID', `occurrenceID ${occId} is not unique`);
      seen.add(occId);
      const status = cell(occurrences, row, 'occurrenceStatus');
      if (status && status !== 'present' && status !== 'absent')
        issue('occurrenceStatus', `occurrenceStatus ${status} is neither present nor absent`);
      const basis = cell(occurrences, row, 'basisOfRecord');
      if (basis && !basisOfRecord.has(basis))
        issue('basisOfRecord', `basisOfRecord ${basis} is not a Darwin Core class`);
      const count = cell(occurrences, row, 'individualCount');
      if (count !== '' && !/^\d+$/.test(count))
        issue('individualCount', `individualCount ${count} is not a whole number`);
      const name = cell(occurrences, row, 'scientificName');
      const nameId = cell(occurrences, row, 'scientificNameID');
      if (nameId) {
        const aphiaId = aphiaIdOfLsid(nameId);
        if (aphiaId === null) issue('scientificNameID', `scientificNameID ${nameId} is not a WoRMS LSID`);
        else {
          const taxon = opts.taxa.get(aphiaId);
          if (!taxon)
            out.warnings.push({
              file: occurrences.file,
              line,
              field: 'scientificNameID',
              message: `AphiaID ${aphiaId} is not in the ship's taxonomy: its name could not be checked`,
            });
          else if (name && taxon.name !== name)
            issue('scientificName', `scientificName ${name} is not the name of AphiaID ${aphiaId} (${taxon.name})`);
          else if (taxon.status && taxon.status !== 'accepted')
            out.warnings.push({
              file: occurrences.file,
              line,
              field: 'scientificName',
              message: `${taxon.name} is ${taxon.status} in WoRMS${taxon.acceptedAphiaId ? ` (accepted: AphiaID ${taxon.acceptedAphiaId})` : ''}; published under the name chosen, as OBIS asks`,
            });
        }
      }
    });
  }

  // Measurements: their event resolves, ids unique, NERC identifiers.
  if (measurements) {
    const seen = new Set<string>();
    measurements.rows.forEach((row, i) => {
      const line = i + 2;
      const issue = (field: string, message: string) =>
        out.errors.push({ file: measurements.file, line, field, message });
      const eventId = cell(measurements, row, 'eventID');
      if (!byId.has(eventId)) issue('eventID', `eventID ${eventId || '(empty)'} names no event of the archive`);
      const id = cell(measurements, row, 'measurementID');
      if (id && seen.has(id)) issue('measurementID', `measurementID ${id} is not unique`);
      seen.add(id);
      for (const field of ['measurementType', 'measurementValue'])
        if (!cell(measurements, row, field)) issue(field, `${field} is empty`);
      const typeId = cell(measurements, row, 'measurementTypeID');
      if (typeId && !nerc('P01').test(typeId))
        issue('measurementTypeID', `measurementTypeID ${typeId} is not a NERC P01 term`);
      const unitId = cell(measurements, row, 'measurementUnitID');
      if (unitId && !nerc('P06').test(unitId))
        issue('measurementUnitID', `measurementUnitID ${unitId} is not a NERC P06 term`);
    });
  }
  return out;
}
