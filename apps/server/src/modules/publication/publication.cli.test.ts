import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCruise, makeLowering } from '../../../test/api-fixtures.js';
import { runBathylog } from '../../../test/cli-process.js';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `bathylog dwca` as an operator runs it (its own process, a fresh data folder): the report on
 * stderr, the archive written only when it validates.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-dwca-cli-'));
const env = { BATHYLOG_DATA: path.join(root, 'data'), BATHYLOG_ADMIN_PASSWORD: 'first-password' };
const file = (name: string, body: unknown) => {
  const target = path.join(root, name);
  writeFileSync(target, JSON.stringify(body));
  return target;
};

describe('bathylog dwca', { timeout: 240_000 }, () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the archive of a dive named by its name, with the report on stderr', async () => {
    const cruise = { ...makeCruise(), id: '6400d0e5c476e18a7cf0a0f1' };
    const lowering = { ...makeLowering(), id: '6410f3a3c476e18a7cf0a0f2' };
    const events = [
      {
        id: '6410f3a3c476e18a7cf0b001',
        event_author: 'pi',
        ts: '2023-03-14T23:50:00.000Z',
        event_value: 'OBSERVATION',
        event_free_text: '',
        event_options: [
          { event_option_name: 'taxon', event_option_value: 'Ophiuroidea' },
          { event_option_name: 'taxon_aphia_id', event_option_value: '123084' },
          { event_option_name: 'taxon_qualifier', event_option_value: 'sp.' },
        ],
        aux_data: [
          {
            data_source: 'vehicleRealtimeNavData',
            data_array: [
              { data_name: 'latitude', data_value: '23.5489', data_uom: 'ddeg' },
              { data_name: 'longitude', data_value: '-45.1499', data_uom: 'ddeg' },
              { data_name: 'depth', data_value: '1980.5', data_uom: 'meters' },
            ],
          },
        ],
      },
    ];
    for (const [name, body] of [
      ['cruises.json', [cruise]],
      ['lowerings.json', [lowering]],
      ['events.json', events],
    ] as const) {
      const imported = await runBathylog(['import', file(name, body)], env);
      expect(imported.code, imported.stderr).toBe(0);
    }
    const target = path.join(root, 'S0492.zip');
    const res = await runBathylog(
      ['dwca', 'lowering', 'S0492', '--out', target, '--report', path.join(root, 'report.json')],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      '3 events, 1 occurrences, 0 measurements; 0 observations without a taxon; 0 errors, 1 warnings',
    );
    // No taxonomy imported on this fresh server: the name could not be checked, which is said.
    expect(res.stderr).toContain("AphiaID 123084 is not in the ship's taxonomy");
    expect(res.stdout.trim()).toBe(target);
    expect(readFileSync(target).subarray(0, 2).toString()).toBe('PK');
    const report = JSON.parse(readFileSync(path.join(root, 'report.json'), 'utf8')) as { ok: boolean; sha256: string };
    expect(report.ok).toBe(true);

    const unknown = await runBathylog(['dwca', 'lowering', 'S9999'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No lowering named S9999');
    const badKind = await runBathylog(['dwca', 'vessel', 'x'], env);
    expect(badKind.code).toBe(2);
    expect(existsSync(path.join(root, 'FKt230303_S9999_dwca.zip'))).toBe(false);
  });
});
