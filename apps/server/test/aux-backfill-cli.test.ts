import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBathylog } from './cli-process.js';
import { Influxd } from './influxd.js';
import { peer } from './peers.js';

/**
 * `npx bathylog aux-backfill` against a real influxd, with the managers given as a vessel ports them: a managers
 * file naming its existing Sealog YAML (`sealog_file: file:data_source`). Dry run, run, run again: no change.
 * A managers file that does not hold stops the command with the entry and key named.
 */
const influxBin = peer('influxd');
const T0 = Date.parse('2023-03-14T23:45:00.000Z');

describe.skipIf(!influxBin)('bathylog aux-backfill', { timeout: 240_000 }, () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-auxcli-'));
  const data = path.join(root, 'data');
  const managers = path.join(root, 'managers.yaml');
  let influx: Influxd;
  let env: Record<string, string>;

  beforeAll(async () => {
    influx = await Influxd.create(influxBin!);
    await influx.query('CREATE DATABASE openrvdas');
    await influx.write('openrvdas', [`ctd temp=4.56789,cond=3.21 ${T0}`]);
    // The vessel's existing Sealog configuration, unchanged: two data sources in one file.
    writeFileSync(
      path.join(root, 'sealog-ctd.yaml'),
      `- data_source: vehicleRealtimeCTDData
  query_measurements:
    - ctd
  aux_record_lookup:
    temp:
      name: temperature
      uom: C
      round: 2
    cond:
      name: conductivity
      uom: S/m
- data_source: somethingElse
  query_measurements: [other]
  aux_record_lookup:
    x:
      name: x
`,
    );
    writeFileSync(
      managers,
      `managers:
  - name: ctd
    kind: influx
    sealog_file: sealog-ctd.yaml:vehicleRealtimeCTDData
    source:
      url: ${influx.url}
      database: openrvdas
`,
    );
    env = { BATHYLOG_DATA: data, BATHYLOG_ADMIN_PASSWORD: 'pw', BATHYLOG_AUX_MANAGERS_FILE: managers };
    const events = path.join(root, 'events.json');
    writeFileSync(
      events,
      JSON.stringify([
        {
          id: '64a1f0c2b7e4d5a6c7b8a911',
          event_author: 'pilot',
          ts: new Date(T0 + 1000).toISOString(),
          event_value: 'FISH',
          event_options: [],
          event_free_text: '',
        },
        {
          id: '64a1f0c2b7e4d5a6c7b8a912',
          event_author: 'pilot',
          ts: new Date(T0 - 600_000).toISOString(),
          event_value: 'EARLY',
          event_options: [],
          event_free_text: '',
        },
      ]),
    );
    expect((await runBathylog(['import', events], env)).code).toBe(0);
  });

  afterAll(async () => {
    await influx?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('dry run, run, run again', async () => {
    const ids = '64a1f0c2b7e4d5a6c7b8a911,64a1f0c2b7e4d5a6c7b8a912';
    const dry = await runBathylog(['aux-backfill', '--events', ids], env);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/64a1f0c2b7e4d5a6c7b8a911 {2}FISH +ctd: written/);
    expect(dry.stdout).toMatch(/64a1f0c2b7e4d5a6c7b8a912 {2}EARLY +ctd: no_data/);
    expect(dry.stdout).toContain('Dry run (nothing written; --run writes): 2 events; no_data 1, written 1.');

    const run = await runBathylog(['aux-backfill', '-e', ids, '--run'], env);
    expect(run.stdout).toContain('Backfilled: 2 events; no_data 1, written 1.');
    const out = path.join(root, 'aux.json');
    expect((await runBathylog(['export', 'aux-data', '--out', out], env)).code).toBe(0);
    const records = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    expect(records).toEqual([
      expect.objectContaining({
        event_id: '64a1f0c2b7e4d5a6c7b8a911',
        data_source: 'vehicleRealtimeCTDData',
        data_array: [
          { data_name: 'temperature', data_value: '4.57', data_uom: 'C' },
          { data_name: 'conductivity', data_value: '3.21', data_uom: 'S/m' },
        ],
      }),
    ]);

    const again = await runBathylog(['aux-backfill', '-e', ids, '--run', '--managers', 'ctd'], env);
    expect(again.stdout).toContain('Backfilled: 2 events; no_data 1, unchanged 1.');
  });

  it('stops on a managers file that does not hold, naming the entry and key', async () => {
    const bad = path.join(root, 'bad.yaml');
    writeFileSync(
      bad,
      `- name: nav\n  kind: influx\n  data_source: nav\n  query_measurements: [m]\n  aux_record_lookup:\n    lat:\n      uom: ddeg\n  source: {url: ${influx.url}, database: d}\n`,
    );
    const res = await runBathylog(['aux-backfill', '-e', '64a1f0c2b7e4d5a6c7b8a911'], {
      ...env,
      BATHYLOG_AUX_MANAGERS_FILE: bad,
    });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('managers[0] (nav): aux_record_lookup.lat.name: needs a name (or no_output: true)');
  });
});
