import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { taxonEventOptions, type PublicationReport } from '@bathylog/shared';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaxonomyRepository } from '../../taxonomy/taxonomy.repository.js';
import { createCruise, createLowering, createUser } from '../../../test/api-fixtures.js';
import { peer } from '../../../test/peers.js';
import { insertAux, insertEvents, type AuxFixture } from '../../../test/table-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { dwcTextXsd, emlXsd } from './dwca-schemas.js';

const mediaBase = 'https://sealog.falkor.example';
/** The real WoRMS taxa the taxonomy's tests import (test/fixtures/worms/README.md says where each comes from). */
const wormsTaxa = readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/worms/taxon.txt'), 'utf8');
const dive = { start: Date.parse('2023-03-14T22:15:39.479Z') };
const at = (minutes: number) => new Date(dive.start + minutes * 60_000).toISOString();

interface Archive {
  status: number;
  bytes: Buffer;
  files: Record<string, string>;
  headers: Record<string, unknown>;
}

/** The rows of a tab-separated archive file as objects keyed by its header. */
function rows(text: string): Array<Record<string, string>> {
  const [header, ...lines] = text.replace(/\n$/, '').split('\n');
  const columns = header!.split('\t');
  return lines.map((line) => Object.fromEntries(line.split('\t').map((v, i) => [columns[i]!, v])));
}

describe.each(engines)('publication on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let lowering: string;
  let cruise: string;
  const ids: Record<string, string> = {};

  async function archive(url: string, token = admin): Promise<Archive> {
    const res = await t.api('GET', url, { token });
    const bytes = res.rawPayload;
    const files =
      res.statusCode === 200
        ? Object.fromEntries(
            Object.entries(unzipSync(new Uint8Array(bytes))).map(([k, v]) => [k, new TextDecoder().decode(v)]),
          )
        : {};
    return { status: res.statusCode, bytes, files, headers: res.headers };
  }

  beforeAll(async () => {
    t = await createTestApp(engine, { client: { imagesAuxDataSources: ['vehicleRealtimeFramegrabberData'] } });
    admin = await t.login('admin', 'demo');
    cruise = await createCruise(t, admin);
    lowering = await createLowering(t, admin);
    const db = t.ctx.database.db;
    const imported = await t.api('POST', '/taxa/imports?kind=dwc-taxon&source=WoRMS%20fixture', {
      token: admin,
      body: wormsTaxa,
      headers: { 'content-type': 'text/tab-separated-values' },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    await new TaxonomyRepository(db).putLegacyMapping({
      id: 'a'.repeat(24),
      scope: 'morphotype',
      value: 'Brittle star',
      aphia_id: 123084,
      qualifier: 'indet.',
      created_by: 'admin',
      now: Date.now(),
    });
    const [picked, cf, legacy, unmapped, asnap, noNav, synonym] = await insertEvents(db, [
      {
        ts: at(30),
        event_value: 'OBSERVATION',
        event_author: 'pi',
        event_options: taxonEventOptions('taxon', {
          name: 'Ophiuroidea',
          aphia_id: 123084,
          qualifier: 'sp.',
          count: 3,
        }),
      },
      {
        ts: at(40),
        event_value: 'OBSERVATION',
        event_author: 'science',
        event_options: taxonEventOptions('taxon', {
          name: 'Buccinum finmarkianum',
          aphia_id: 160143,
          qualifier: 'cf.',
          abundance: 'Few (<10)',
        }),
      },
      {
        ts: at(50),
        event_value: 'OBSERVATION',
        event_author: 'pi',
        event_options: [{ event_option_name: 'morphotype', event_option_value: 'Brittle star' }],
      },
      {
        ts: at(60),
        event_value: 'OBSERVATION',
        event_author: 'pi',
        event_free_text: 'purple blob on the talus',
        event_options: [{ event_option_name: 'morphotype', event_option_value: 'Purple blob' }],
      },
      { ts: at(65), event_value: 'ASNAP' },
      {
        ts: at(70),
        event_value: 'OBSERVATION',
        event_author: 'pi',
        event_options: taxonEventOptions('taxon', { name: 'Ophiuroidea', aphia_id: 123084, qualifier: '' }),
      },
      {
        // A name WoRMS now treats as a synonym (of Tornidae 124): published as chosen.
        ts: at(75),
        event_value: 'OBSERVATION',
        event_author: 'pi',
        event_options: taxonEventOptions('taxon', { name: 'Adeorbidae', aphia_id: 125, qualifier: '', count: 1 }),
      },
    ]);
    Object.assign(ids, {
      picked: picked!,
      cf: cf!,
      legacy: legacy!,
      unmapped: unmapped!,
      asnap: asnap!,
      noNav: noNav!,
      synonym: synonym!,
    });

    // Navigation and CTD at every observation, a frame grab per observation (a real JPEG on disk).
    const aux: AuxFixture[] = [];
    const images = t.ctx.paths.images;
    mkdirSync(images, { recursive: true });
    const jpeg = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#1d4f73' } })
      .jpeg()
      .toBuffer();
    [picked, cf, legacy, unmapped].forEach((id, n) => {
      aux.push({
        event_id: id!,
        data_source: 'vehicleRealtimeNavData',
        data_array: [
          { data_name: 'latitude', data_value: (23.5489 + n * 1e-4).toFixed(6), data_uom: 'ddeg' },
          { data_name: 'longitude', data_value: (-45.1499 + n * 1e-4).toFixed(6), data_uom: 'ddeg' },
          { data_name: 'depth', data_value: (1980.5 - n * 10).toFixed(2), data_uom: 'meters' },
          { data_name: 'altitude', data_value: '2.4', data_uom: 'meters' },
        ],
      });
      aux.push({
        event_id: id!,
        data_source: 'vehicleRealtimeCTDData',
        data_array: [
          { data_name: 'ctd_temp', data_value: (3.62 + n / 100).toFixed(2), data_uom: 'C' },
          { data_name: 'ctd_sal', data_value: '34.98', data_uom: 'psu' },
          { data_name: 'ctd_pressure', data_value: '2003.1', data_uom: 'dbar' },
        ],
      });
      const file = `S0492_MainCamera_${n}.jpg`;
      writeFileSync(path.join(images, file), jpeg);
      aux.push({
        event_id: id!,
        data_source: 'vehicleRealtimeFramegrabberData',
        data_array: [
          { data_name: 'camera_name', data_value: 'Main Camera' },
          { data_name: 'filename', data_value: file },
        ],
      });
    });
    // The last observation has only the ship's position: it is placed there, less precisely.
    aux.push({
      event_id: noNav!,
      data_source: 'vesselRealtimeNavData',
      data_array: [
        { data_name: 'latitude', data_value: '23.5512', data_uom: 'ddeg' },
        { data_name: 'longitude', data_value: '-45.1430', data_uom: 'ddeg' },
      ],
    });
    aux.push({
      event_id: synonym!,
      data_source: 'vehicleRealtimeNavData',
      data_array: [
        { data_name: 'latitude', data_value: '23.5501', data_uom: 'ddeg' },
        { data_name: 'longitude', data_value: '-45.1466', data_uom: 'ddeg' },
        { data_name: 'depth', data_value: '1950.25', data_uom: 'meters' },
      ],
    });
    await insertAux(db, aux);
    const res = await t.api('PUT', '/publication/settings', {
      token: admin,
      body: {
        dataset: {
          publisher: 'Schmidt Ocean Institute',
          contact_name: 'Data Manager',
          contact_email: 'data@example.org',
          licence: 'CC-BY-4.0',
          basis_of_record: 'HumanObservation',
          media_base_url: mediaBase,
          vehicle_nav_sources: ['vehicleRealtimeNavData'],
          vessel_nav_sources: ['vesselRealtimeNavData'],
          vehicle_uncertainty_m: 10,
          vessel_uncertainty_m: 500,
          observation_values: ['OBSERVATION'],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('exports a dive the validator passes, with the unmapped observation in its report', async () => {
    const res = await t.api('GET', `/publication/dwca_report/bylowering/${lowering}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as PublicationReport;
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.file_name).toBe('FKt230303_S0492_dwca.zip');
    expect(report.counts).toEqual({ events: 7, observations: 5, occurrences: 5, measurements: 12, unmapped: 1 });
    expect(report.warnings.map((w) => w.message)).toEqual([
      'Adeorbidae is unaccepted in WoRMS (accepted: AphiaID 124); published under the name chosen, as OBIS asks',
    ]);
    expect(report.unmapped).toEqual([
      {
        event_id: ids.unmapped,
        ts: at(60),
        event_value: 'OBSERVATION',
        verbatim: 'morphotype: Purple blob; purple blob on the talus',
      },
    ]);
  });

  it('writes the event hierarchy, the occurrences with WoRMS identifiers and the NERC measurements', async () => {
    const { status, files, headers } = await archive(`/publication/dwca/bylowering/${lowering}`);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/zip');
    expect(headers['x-dwca-valid']).toBe('true');
    expect(Object.keys(files).sort()).toEqual([
      'eml.xml',
      'event.txt',
      'extendedmeasurementorfact.txt',
      'meta.xml',
      'occurrence.txt',
    ]);
    const events = rows(files['event.txt']!);
    expect(events.map((e) => [e.eventID, e.parentEventID, e.eventType])).toEqual([
      ['FKt230303', '', 'cruise'],
      ['FKt230303_S0492', 'FKt230303', 'dive'],
      [`FKt230303_S0492_${ids.picked}`, 'FKt230303_S0492', 'observation'],
      [`FKt230303_S0492_${ids.cf}`, 'FKt230303_S0492', 'observation'],
      [`FKt230303_S0492_${ids.legacy}`, 'FKt230303_S0492', 'observation'],
      [`FKt230303_S0492_${ids.noNav}`, 'FKt230303_S0492', 'observation'],
      [`FKt230303_S0492_${ids.synonym}`, 'FKt230303_S0492', 'observation'],
    ]);
    expect(events[2]).toMatchObject({
      eventDate: at(30).replace('.479Z', '.479Z'),
      decimalLatitude: '23.5489',
      decimalLongitude: '-45.1499',
      geodeticDatum: 'EPSG:4326',
      coordinateUncertaintyInMeters: '10',
      minimumDepthInMeters: '1980.5',
      maximumDepthInMeters: '1980.5',
    });
    // Vessel navigation only: the ship's position, with the larger uncertainty.
    expect(events[5]).toMatchObject({
      decimalLatitude: '23.5512',
      coordinateUncertaintyInMeters: '500',
      minimumDepthInMeters: '',
    });

    const occ = rows(files['occurrence.txt']!);
    expect(
      occ.map((o) => [
        o.scientificName,
        o.scientificNameID,
        o.taxonRank,
        o.identificationQualifier,
        o.verbatimIdentification,
      ]),
    ).toEqual([
      ['Ophiuroidea', 'urn:lsid:marinespecies.org:taxname:123084', 'Class', 'sp.', 'Ophiuroidea sp.'],
      // cf. on a species: the genus is the lowest confident taxon.
      [
        'Buccinum',
        'urn:lsid:marinespecies.org:taxname:137701',
        'Genus',
        'cf. Buccinum finmarkianum',
        'Buccinum cf. finmarkianum',
      ],
      // A legacy morphotype, mapped by the vessel: the original value kept.
      ['Ophiuroidea', 'urn:lsid:marinespecies.org:taxname:123084', 'Class', 'indet.', 'Brittle star'],
      ['Ophiuroidea', 'urn:lsid:marinespecies.org:taxname:123084', 'Class', '', 'Ophiuroidea'],
      ['Adeorbidae', 'urn:lsid:marinespecies.org:taxname:125', 'Family', '', 'Adeorbidae'],
    ]);
    expect(occ[0]).toMatchObject({
      basisOfRecord: 'HumanObservation',
      occurrenceStatus: 'present',
      scientificNameAuthorship: 'Gray, 1840',
      identifiedBy: 'pi',
      individualCount: '3',
      associatedMedia: `${mediaBase}/sealog-server/files/images/S0492_MainCamera_0.jpg`,
    });
    expect(occ[1]).toMatchObject({
      organismQuantity: 'Few (<10)',
      organismQuantityType: 'abundance category',
      individualCount: '',
    });
    expect(new Set(occ.map((o) => o.occurrenceID)).size).toBe(5);

    const emof = rows(files['extendedmeasurementorfact.txt']!);
    expect(
      emof
        .filter((m) => m.eventID === `FKt230303_S0492_${ids.picked}`)
        .map((m) => [m.measurementTypeID, m.measurementValue, m.measurementUnitID]),
    ).toEqual([
      [
        'http://vocab.nerc.ac.uk/collection/P01/current/TEMPPR01/',
        '3.62',
        'http://vocab.nerc.ac.uk/collection/P06/current/UPAA/',
      ],
      [
        'http://vocab.nerc.ac.uk/collection/P01/current/PSALST01/',
        '34.98',
        'http://vocab.nerc.ac.uk/collection/P06/current/UUUU/',
      ],
      [
        'http://vocab.nerc.ac.uk/collection/P01/current/PRESPR01/',
        '2003.1',
        'http://vocab.nerc.ac.uk/collection/P06/current/UPDB/',
      ],
      [
        'http://vocab.nerc.ac.uk/collection/P01/current/AHSFZZ01/',
        '2.4',
        'http://vocab.nerc.ac.uk/collection/P06/current/ULAA/',
      ],
    ]);

    const eml = files['eml.xml']!;
    expect(eml).toContain('<title xml:lang="en">FKt230303 dive S0492 (Kane FZ): observations</title>');
    expect(eml).toContain('<surName>Butterfield</surName>');
    expect(eml).toContain('<taxonRankValue>Buccinum</taxonRankValue>');
    expect(eml).toContain('<project id="FKt230303">');
    expect(eml).toContain('<beginDate><calendarDate>2023-03-14</calendarDate></beginDate>');
  });

  it('gives byte-identical archives for the same data', async () => {
    const first = await archive(`/publication/dwca/bylowering/${lowering}`);
    const second = await archive(`/publication/dwca/bylowering/${lowering}`);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const report = (
      await t.api('GET', `/publication/dwca_report/bylowering/${lowering}`, { token: admin })
    ).json() as PublicationReport;
    expect(first.headers['x-dwca-sha256']).toBe(report.sha256);
  });

  it('validates meta.xml and eml.xml with Debian xmllint against the schemas', async (ctx) => {
    const xmllint = peer('xmllint');
    if (!xmllint) return ctx.skip();
    const { files } = await archive(`/publication/dwca/bylowering/${lowering}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dwca-'));
    try {
      for (const [name, text] of Object.entries({ ...files, 'text.xsd': dwcTextXsd, 'eml.xsd': emlXsd }))
        writeFileSync(path.join(dir, name), text);
      const run = (schema: string, file: string) =>
        execFileSync(xmllint, ['--noout', '--nonet', '--schema', schema, file], {
          cwd: dir,
          encoding: 'utf8',
          stdio: 'pipe',
        });
      expect(() => run('text.xsd', 'meta.xml')).not.toThrow();
      expect(() => run('eml.xsd', 'eml.xml')).not.toThrow();
      // The schema check does refuse: an EML without its contact fails.
      writeFileSync(path.join(dir, 'bad.xml'), files['eml.xml']!.replace(/<contact>.*<\/contact>\n/, ''));
      expect(() => run('eml.xsd', 'bad.xml')).toThrow(/fails to validate/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('links frame grabs that answer 200 with an image', async () => {
    const { files } = await archive(`/publication/dwca/bylowering/${lowering}`);
    const media = rows(files['occurrence.txt']!)
      .flatMap((o) => o.associatedMedia!.split(' | '))
      .filter(Boolean);
    expect(media).toHaveLength(3);
    for (const url of media) {
      expect(url.startsWith(`${mediaBase}/sealog-server/files/images/`)).toBe(true);
      const res = await t.app.inject({ method: 'GET', url: url.slice(mediaBase.length) });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect((await sharp(res.rawPayload).metadata()).format).toBe('jpeg');
    }
  });

  it('exports the cruise with its dives, and its R2R and PANGAEA event lists', async () => {
    const { status, files } = await archive(`/publication/dwca/bycruise/${cruise}`);
    expect(status).toBe(200);
    expect(
      rows(files['event.txt']!)
        .slice(0, 2)
        .map((e) => e.eventID),
    ).toEqual(['FKt230303', 'FKt230303_S0492']);
    const put = await t.api('PUT', '/publication/settings', {
      token: admin,
      body: {
        event_lists: [
          { event_value: 'OBSERVATION', instrument: 'ROV', action: 'sample', device: 'Remote operated vehicle' },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const r2r = await t.api('GET', `/publication/event_list/bycruise/${cruise}?format=r2r`, { token: admin });
    expect(r2r.statusCode).toBe(200);
    const lines = r2r.body.trimEnd().split('\n');
    expect(lines[0]).toBe(
      '"cruise_id","event_number","time_utc","latitude","longitude","instrument","action","station","cast","author","comment"',
    );
    expect(lines).toHaveLength(7);
    expect(lines[1]).toBe(
      `"FKt230303","FKt230303-0001","2023-03-14T22:45:39.479Z","23.548900","-45.149900","ROV","sample","S0492","","pi",""`,
    );
    const pangaea = await t.api('GET', `/publication/event_list/bycruise/${cruise}?format=pangaea`, { token: admin });
    expect(pangaea.statusCode).toBe(200);
    const first = pangaea.body.split('\n')[1]!.split('\t');
    expect(first.slice(0, 4)).toEqual(['FKt230303_S0492-1', 'FKt230303', 'Remote operated vehicle', '23.548900']);
    expect(first[5]).toBe('-1981');
  });

  it('converts a source unit through the mapping, and records who changed the settings', async () => {
    // A CTD that sends pressure in kPa: published in dbar (× 0.1) under PRESPR01/UPDB.
    const put = await t.api('PUT', '/publication/settings', {
      token: admin,
      body: {
        measurements: [
          {
            data_source: 'vehicleRealtimeCTDData',
            data_name: 'ctd_pressure',
            type: 'sea water pressure',
            type_id: 'PRESPR01',
            unit: 'dbar',
            unit_id: 'UPDB',
            source_unit: 'kPa',
            scale: 0.1,
            offset: 0,
          },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const { files } = await archive(`/publication/dwca/bylowering/${lowering}`);
    const emof = rows(files['extendedmeasurementorfact.txt']!);
    expect(emof.map((m) => [m.measurementValue, m.measurementUnit])).toEqual([
      ['200.31', 'dbar'],
      ['200.31', 'dbar'],
      ['200.31', 'dbar'],
    ]);
    const audit = await t.api('GET', '/audit?record_type=publication_settings', { token: admin });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.body).toContain('kPa');
  });

  it('refuses bad settings with the field named, and non-admins', async () => {
    const bad = await t.api('PUT', '/publication/settings', {
      token: admin,
      body: {
        measurements: [{ data_source: 'x', data_name: 'y', type: 't', type_id: 'temp', unit: 'degC', unit_id: 'UPAA' }],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/type_id/);
    const credentials = await t.api('PUT', '/publication/settings', {
      token: admin,
      body: { dataset: { media_base_url: 'https://user:secret@example.org' } },
    });
    expect(credentials.statusCode).toBe(400);
    expect(credentials.json().message).toMatch(/media_base_url/);
    const logger = await createUser(t, admin, 'logger1', ['event_logger']);
    expect((await t.api('PUT', '/publication/settings', { token: logger.token, body: {} })).statusCode).toBe(403);
  });
});

describe.each(engines)('publication access on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { useAccessControl: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("follows the dive's access list: an outsider is refused, a member exports", async () => {
    const admin = await t.login('admin', 'demo');
    const member = await createUser(t, admin, 'member1', ['event_watcher']);
    const outsider = await createUser(t, admin, 'outsider1', ['event_watcher']);
    const cruise = await createCruise(t, admin);
    const lowering = await createLowering(t, admin, { lowering_access_list: [member.id] });
    for (const url of [`/publication/dwca/bylowering/${lowering}`, `/publication/dwca_report/bylowering/${lowering}`]) {
      const refused = await t.api('GET', url, { token: outsider.token });
      expect(refused.statusCode, url).toBe(401);
      expect((await t.api('GET', url, { token: member.token })).statusCode, url).toBe(200);
    }
    expect((await t.api('GET', `/publication/dwca/bylowering/${lowering}`)).statusCode).toBe(401);
    expect(
      (await t.api('GET', `/publication/event_list/bycruise/${cruise}`, { token: outsider.token })).statusCode,
    ).toBe(200);
  });
});
