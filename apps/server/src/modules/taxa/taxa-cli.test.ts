import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { TaxonomyRepository } from '../../taxonomy/taxonomy.repository.js';
import { runBathylog } from '../../../test/cli-process.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-taxa-cli-'));
const data = path.join(root, 'data');
const env = { BATHYLOG_DATA: data, BATHYLOG_ADMIN_PASSWORD: 'first-password' };
const fixtures = path.join(import.meta.dirname, '../../../test/fixtures/worms');

/** `bathylog taxa-import` (docs/taxa.md#importing) as an operator runs it, in its own process. */
describe('bathylog taxa-import', { timeout: 120_000 }, () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('imports an unzipped WoRMS Darwin Core export folder, taxa first', async () => {
    const res = await runBathylog(['taxa-import', fixtures, '--source', 'WoRMS DwC fixture'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('taxon.txt: 41 taxa, 0 vernacular names (WoRMS DwC fixture).');
    expect(res.stdout).toContain('vernacularname.txt: 0 taxa, 9 vernacular names');
    const database = openDatabase({ url: null, sqlitePath: path.join(data, 'bathylog.sqlite') });
    try {
      const repo = new TaxonomyRepository(database.db);
      expect(await repo.count()).toBe(41);
      expect((await repo.search('snail'))[0]?.scientific_name).toBe('Gastropoda');
    } finally {
      await database.close();
    }
  });

  it('refuses what it cannot read, and names that are not taxon names, with a non-zero exit', async () => {
    const missing = await runBathylog(['taxa-import', path.join(root, 'nowhere')], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/does not exist/);
    const bad = await runBathylog(['taxa-import', '--fetch', '../AphiaRecordByAphiaID/1'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/is not a scientific name/);
    const kind = await runBathylog(['taxa-import', path.join(fixtures, 'README.md')], env);
    expect(kind.code).not.toBe(0);
    expect(kind.stderr).toMatch(/--kind/);
  });
});
