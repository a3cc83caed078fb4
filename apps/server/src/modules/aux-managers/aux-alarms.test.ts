import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { Influxd } from '../../../test/influxd.js';
import { peer } from '../../../test/peers.js';

/**
 * Alarm events (docs/aux-managers.md#health): with them on, a manager's change of state logs one
 * AUX_SOURCE_ALARM event, at most one per manager per interval, and never a credential.
 */
const influxBin = peer('influxd');

describe.skipIf(!influxBin)('aux-data manager alarm events', () => {
  let influx: Influxd;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    influx = await Influxd.create(influxBin!);
    await influx.query('CREATE DATABASE ship');
    await influx.write('ship', [`nav lat=1 ${Date.now()}`]);
    t = await createTestApp('sqlite', {
      auxManagers: { probeSeconds: 0.2, errorAfterSeconds: 60, alarmEvents: true, alarmIntervalSeconds: 3600 },
    });
    admin = await t.login('admin', 'demo');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await influx?.close();
  });

  const alarms = async () => {
    const res = await t.api('GET', '/events?value=AUX_SOURCE_ALARM', { token: admin });
    return res.statusCode === 200 ? (res.json() as Array<{ event_free_text: string; event_author: string }>) : [];
  };
  const until = async (fn: () => Promise<boolean>) => {
    const deadline = Date.now() + 15_000;
    while (!(await fn())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('logs the change once, with the reason and without the password', async () => {
    const url = influx.url.replace('http://', 'http://u:alarm-pw-123@');
    const res = await t.api('POST', '/aux_managers', {
      token: admin,
      body: {
        name: 'nav',
        kind: 'influx',
        max_age_seconds: 3600,
        config_yaml: `data_source: nav\nquery_measurements: [nav]\naux_record_lookup:\n  lat: {name: lat}\nsource: {url: '${url}', database: ship}\n`,
      },
    });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { id: string }).id;
    await until(async () => (await t.api('GET', `/aux_managers/${id}`, { token: admin })).json().health.state === 'ok');
    expect(await alarms()).toEqual([]);
    await influx.stop();
    await until(async () => (await alarms()).length > 0);
    const [alarm] = await alarms();
    expect(alarm!.event_author).toBe('aux-managers');
    expect(alarm!.event_free_text).toMatch(/^nav: ok → stale \(InfluxDB at http:\/\/127\.0\.0\.1:\d+ unreachable/);
    await influx.start();
    await until(async () => (await t.api('GET', `/aux_managers/${id}`, { token: admin })).json().health.state === 'ok');
    // Back to ok within the interval: no second alarm.
    expect(await alarms()).toHaveLength(1);
    expect(JSON.stringify(await alarms())).not.toContain('alarm-pw-123');
  }, 60_000);
});
