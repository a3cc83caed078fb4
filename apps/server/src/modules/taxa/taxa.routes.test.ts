import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  taxonEventOptions,
  type LegacyMapping,
  type SynonymReportRow,
  type TaxonDetail,
  type TaxonHit,
  type TaxonImport,
  type TaxonomyStatus,
  type WormsFetchResult,
} from '@bathylog/shared';
import { createCruise, createLowering } from '../../../test/api-fixtures.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import { insertEvents, tableCount } from '../../../test/table-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { TaxonomyRepository } from '../../taxonomy/taxonomy.repository.js';

const fixtures = path.join(import.meta.dirname, '../../../test/fixtures/worms');
const fixture = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');
const tsv = { 'content-type': 'text/tab-separated-values' };

/**
 * Taxa (docs/taxa.md): the real WoRMS fixture imported through the API as a vessel would, searched
 * as the console's picker does, legacy mappings, the synonym report, and the refusals.
 */
describe.each(engines)('taxa API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let logger: string;

  const importFile = (kind: string, body: string, token = admin, headers: Record<string, string> = tsv) =>
    t.api('POST', `/taxa/imports?kind=${kind}&source=${encodeURIComponent('WoRMS DwC fixture')}`, {
      token,
      body,
      headers,
    });
  const search = async (q: string, token = logger) => {
    const res = await t.api('GET', `/taxa?q=${encodeURIComponent(q)}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TaxonHit[];
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    logger = users.tokens.event_logger!;
  });
  afterAll(() => t?.close());

  it('imports the WoRMS Darwin Core files: taxa, vernacular names, marine flags', async () => {
    const taxa = await importFile('dwc-taxon', fixture('taxon.txt'));
    expect(taxa.statusCode, taxa.body).toBe(201);
    expect(taxa.json()).toMatchObject({ state: 'done', taxa: 41, source: 'WoRMS DwC fixture', message: '' });
    const vernaculars = await importFile('dwc-vernacular', fixture('vernacularname.txt'));
    expect(vernaculars.json()).toMatchObject({ state: 'done', vernaculars: 9 });
    const profile = await importFile('dwc-speciesprofile', fixture('speciesprofile.txt'));
    expect(profile.statusCode, profile.body).toBe(201);

    const status = (await t.api('GET', '/taxa/status', { token: admin })).json() as TaxonomyStatus;
    expect(status.taxa).toBe(41);
    expect(status.imports.map((i) => i.kind)).toEqual(['dwc-speciesprofile', 'dwc-vernacular', 'dwc-taxon']);

    const gastropoda = (await t.api('GET', '/taxa/101', { token: logger })).json() as TaxonDetail;
    expect(gastropoda).toMatchObject({
      scientific_name: 'Gastropoda',
      authority: 'Cuvier, 1795',
      rank: 'Class',
      status: 'accepted',
      is_marine: true,
      source: 'WoRMS DwC fixture',
    });
    expect(gastropoda.vernaculars).toContainEqual({ name: 'snails', language: 'ENG' });
    expect(gastropoda.ancestors.map((a) => a.scientific_name)).toEqual(['Biota', 'Animalia', 'Mollusca']);
  });

  it('keeps a synonym with its accepted name, and every ancestor root first', async () => {
    const adeorbidae = (await t.api('GET', '/taxa/125', { token: logger })).json() as TaxonDetail;
    expect(adeorbidae).toMatchObject({
      scientific_name: 'Adeorbidae',
      status: 'unaccepted',
      accepted_aphia_id: 124,
      accepted: { aphia_id: 124, scientific_name: 'Tornidae' },
    });
    const repo = new TaxonomyRepository(t.ctx.database.db);
    expect((await repo.ancestors(124373)).map((a) => a.aphia_id)).toEqual([
      1, 2, 1806, 148744, 123082, 149854, 510499, 149864, 123106, 510538, 123173, 510878, 123418,
    ]);
    const many = await repo.findManyByAphiaId([124593, 160143, 999999999]);
    expect([...many.keys()].sort()).toEqual([124593, 160143]);
  });

  it('finds taxa by prefix, substring and vernacular name, best first', async () => {
    expect((await search('oph'))[0]).toMatchObject({ scientific_name: 'Ophiuroidea', match: 'prefix', rank: 'Class' });
    expect((await search('Brissopsis')).map((h) => [h.scientific_name, h.match])).toEqual([
      ['Brissopsis', 'exact'],
      ['Brissopsis lyrifera', 'prefix'],
    ]);
    expect((await search('brissop')).map((h) => h.scientific_name)).toEqual([
      'Brissopsinae',
      'Brissopsis',
      'Brissopsis lyrifera',
    ]);
    expect((await search('lyrif')).map((h) => h.scientific_name)).toEqual(['Brissopsis lyrifera']);
    expect((await search('nidari')).map((h) => h.scientific_name)).toEqual(['Cnidaria']);
    const snails = await search('snail');
    expect(snails[0]).toMatchObject({ scientific_name: 'Gastropoda', match: 'vernacular' });
    expect(snails[0]!.matched_vernacular).toMatch(/^snails/);
    // Accents and case are folded: "Bauchfüßer" found as typed without the umlaut.
    expect((await search('BAUCHFU'))[0]?.scientific_name).toBe('Gastropoda');
    // A query of digits finds the AphiaID; LIKE's wildcards are text.
    expect((await search('123084'))[0]?.scientific_name).toBe('Ophiuroidea');
    expect(await search('%_%')).toEqual([]);
  });

  it('refuses imports from non-admins, unreadable files and wrong content types, writing nothing', async () => {
    const before = await tableCount(t, 'taxa');
    expect((await importFile('dwc-taxon', fixture('taxon.txt'), logger)).statusCode).toBe(403);
    const noColumn = await importFile('dwc-taxon', 'id\tname\n1\tBiota\n');
    expect(noColumn.statusCode).toBe(400);
    expect(noColumn.json().message).toMatch(/taxonID/);
    const badKind = await importFile('gbif', fixture('taxon.txt'));
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toMatch(/kind/);
    expect(
      (await importFile('dwc-taxon', fixture('taxon.txt'), admin, { 'content-type': 'text/html' })).statusCode,
    ).toBe(415);
    const json = await importFile(
      'json',
      JSON.stringify([{ aphia_id: 1, scientific_name: 'Biota' }, { aphia_id: -4 }]),
      admin,
      {
        'content-type': 'application/json',
      },
    );
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/^taxa\.1\.aphia_id/);
    expect(await tableCount(t, 'taxa')).toBe(before);
    // Rows that are not taxa are left out and named; the others are stored.
    const csv = await importFile(
      'csv',
      'aphia_id,scientific_name,rank,status\n1,Biota,,accepted\nnot-an-id,Nothing,,\n',
      admin,
      { 'content-type': 'text/csv' },
    );
    expect(csv.statusCode, csv.body).toBe(201);
    expect(csv.json() as TaxonImport).toMatchObject({
      taxa: 1,
      message: expect.stringMatching(/1 row left out: line 3/),
    });
  });

  it('refuses searches without text, and taxa that are not AphiaIDs', async () => {
    expect((await t.api('GET', '/taxa?q=', { token: logger })).statusCode).toBe(400);
    expect((await t.api('GET', '/taxa?q=oph')).statusCode).toBe(401);
    expect((await t.api('GET', '/taxa/abc', { token: logger })).statusCode).toBe(400);
    expect((await t.api('GET', '/taxa/424242', { token: logger })).statusCode).toBe(404);
  });

  it('maps legacy option values to a taxon; admins only, and only to taxa it holds', async () => {
    const put = (body: unknown, token = admin) => t.api('PUT', '/taxa/legacy_mappings', { token, body });
    const created = await put({ scope: 'Morphotype', value: 'Brittle star', aphia_id: 123084, qualifier: 'indet.' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      scope: 'Morphotype',
      value: 'Brittle star',
      scientific_name: 'Ophiuroidea',
    });
    // Same scope and value (as Sealog normalises names, any case): replaced, same id.
    const again = await put({ scope: 'morphotype', value: 'brittle STAR', aphia_id: 123084, qualifier: 'sp.' });
    expect((again.json() as LegacyMapping).id).toBe((created.json() as LegacyMapping).id);
    expect(await new TaxonomyRepository(t.ctx.database.db).legacyMapping('MORPHOTYPE', ' Brittle   star ')).toEqual({
      aphiaId: 123084,
      qualifier: 'sp.',
    });

    expect((await put({ scope: 'm', value: 'x', aphia_id: 123084 }, logger)).statusCode).toBe(403);
    const unknown = await put({ scope: 'm', value: 'x', aphia_id: 77777777 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/aphia_id 77777777/);
    expect((await put({ scope: 'm', value: 'x', aphia_id: 123084, qualifier: 'maybe' })).statusCode).toBe(400);
    const listed = (await t.api('GET', '/taxa/legacy_mappings', { token: logger })).json() as LegacyMapping[];
    expect(listed).toHaveLength(1);
    const audit = await t.ctx.database.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('record_type', '=', 'taxon_legacy_mapping')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
  });

  it('lists the names logged in a cruise that WoRMS no longer calls accepted', async () => {
    const cruise = await createCruise(t, admin);
    await createLowering(t, admin);
    const at = (minute: number) => Date.UTC(2023, 2, 14, 23, minute);
    await insertEvents(t.ctx.database.db, [
      {
        ts: at(1),
        event_value: 'FAUNA',
        event_options: taxonEventOptions('Taxon', { name: 'Adeorbidae', aphia_id: 125, qualifier: 'cf.', count: 2 }),
      },
      {
        ts: at(2),
        event_value: 'FAUNA',
        event_options: taxonEventOptions('Taxon', { name: 'Adeorbidae', aphia_id: 125, qualifier: '', count: 1 }),
      },
      {
        ts: at(3),
        event_value: 'FAUNA',
        event_options: taxonEventOptions('Taxon', { name: 'Buccinum finmarkianum', aphia_id: 160143, qualifier: '' }),
      },
      // A legacy morphotype pick, mapped above to Ophiuroidea (accepted): not listed.
      {
        ts: at(4),
        event_value: 'FAUNA',
        event_options: [{ event_option_name: 'morphotype', event_option_value: 'Brittle star' }],
      },
      // A pick whose AphiaID the taxonomy lacks.
      {
        ts: at(5),
        event_value: 'FAUNA',
        event_options: taxonEventOptions('Taxon', { name: 'Unheld name', aphia_id: 99999998, qualifier: 'sp.' }),
      },
    ]);
    const res = await t.api('GET', `/taxa/synonyms?cruise_id=${cruise}`, { token: logger });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json() as SynonymReportRow[];
    expect(rows.map((r) => [r.name, r.status, r.accepted_name, r.events])).toEqual([
      ['Adeorbidae', 'unaccepted', 'Tornidae', 2],
      ['Unheld name', null, null, 1],
    ]);
    expect(rows[0]).toMatchObject({ via: 'taxon option', option: 'taxon', aphia_id: 125, accepted_aphia_id: 124 });
    expect((await t.api('GET', '/taxa/synonyms', { token: logger })).statusCode).toBe(400);
    expect((await t.api('GET', `/taxa/synonyms?cruise_id=nothex`, { token: logger })).statusCode).toBe(400);
  });
});

/**
 * Fetching by name from the WoRMS REST service, answered here by a local server in the shapes
 * WoRMS answers (recorded answers in test/fixtures/worms/rest/).
 */
describe.each(engines)('taxa fetched from WoRMS REST on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let worms: Server;
  const asked: string[] = [];
  const rest = (name: string) => fixture(`rest/${name}`);

  beforeAll(async () => {
    const record = JSON.parse(rest('record-105706.json')) as unknown[];
    const synonyms = JSON.parse(rest('synonyms-105706.json')) as unknown[];
    const routes: Record<string, string | null> = {
      '/rest/AphiaRecordsByName/Rhincodontidae': JSON.stringify(record),
      '/rest/AphiaRecordsByName/Rhiniodontidae': JSON.stringify(synonyms),
      '/rest/AphiaRecordByAphiaID/105706': JSON.stringify(record[0]),
      '/rest/AphiaClassificationByAphiaID/105706': rest('classification-105706.json'),
    };
    worms = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://worms');
      asked.push(url.pathname);
      const body = routes[decodeURIComponent(url.pathname)];
      if (body) res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => worms.listen(0, '127.0.0.1', resolve));
    const port = (worms.address() as AddressInfo).port;
    t = await createTestApp(engine, { worms: { url: `http://127.0.0.1:${port}/rest`, timeoutMs: 2000 } });
    const users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    manager = users.tokens.event_manager!;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => worms?.close(resolve));
  });

  const fetchNames = (names: unknown, token = admin) => t.api('POST', '/taxa/fetch', { token, body: { names } });

  it('stores a name with all its ancestors', async () => {
    const res = await fetchNames(['Rhincodontidae']);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as WormsFetchResult;
    expect(result.found).toEqual([{ name: 'Rhincodontidae', aphia_ids: [105706] }]);
    expect(result.taxa).toBe(12);
    const detail = (await t.api('GET', '/taxa/105706', { token: admin })).json() as TaxonDetail;
    expect(detail).toMatchObject({
      authority: 'Müller & Henle, 1841',
      rank: 'Family',
      status: 'accepted',
      is_marine: true,
    });
    expect(detail.source).toMatch(/^WoRMS REST \d{4}-\d\d-\d\d$/);
    expect(detail.ancestors.map((a) => a.scientific_name)).toEqual([
      'Biota',
      'Animalia',
      'Chordata',
      'Vertebrata',
      'Gnathostomata',
      'Pisces',
      'Elasmobranchii',
      'Neoselachii',
      'Selachii',
      'Galeomorphi',
      'Orectolobiformes',
    ]);
  });

  it('stores an unaccepted name with its accepted one', async () => {
    const res = await fetchNames(['Rhiniodontidae']);
    expect(res.json()).toMatchObject({ found: [{ name: 'Rhiniodontidae', aphia_ids: [148832] }] });
    const synonym = (await t.api('GET', '/taxa/148832', { token: admin })).json() as TaxonDetail;
    expect(synonym).toMatchObject({
      status: 'unaccepted',
      accepted: { aphia_id: 105706, scientific_name: 'Rhincodontidae' },
    });
  });

  it('answers a name WoRMS does not know with nothing found', async () => {
    const res = await fetchNames(['Nonexistentia']);
    expect(res.json()).toMatchObject({ found: [{ name: 'Nonexistentia', aphia_ids: [] }], taxa: 0 });
  });

  it('refuses names that are not taxon names, non-admins, and says which host it could not reach', async () => {
    const count = asked.length;
    for (const bad of [['../AphiaRecordByAphiaID/1'], ['a/b'], [''], [], ['x'.repeat(101)]]) {
      const res = await fetchNames(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(asked.length).toBe(count);
    expect((await fetchNames(['Rhincodontidae'], manager)).statusCode).toBe(403);

    const offline = await createTestApp(engine, {
      worms: { url: 'http://ship:s3cret-pass@127.0.0.1:9/rest', timeoutMs: 500 },
    });
    try {
      const token = await offline.login('admin', 'demo');
      const res = await offline.api('POST', '/taxa/fetch', { token, body: { names: ['Rhincodontidae'] } });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('WoRMS could not be reached at 127.0.0.1:9');
      expect(res.body).not.toContain('s3cret');
      expect(await tableCount(offline, 'taxa')).toBe(0);
    } finally {
      await offline.close();
    }
  });
});
