import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RealtimeClient, type WebSocketLike } from '../../../web/src/api/realtime.js';
import { openDatabase } from '../../src/db/database.js';
import { systemIds } from '../../src/seed/system.js';
import { filepondBody } from '../api-fixtures.js';
import { peer } from '../peers.js';
import { ApiClient, createCruiseAndLowering, exportLowering } from '../server-process.js';
import { shoreConfig, waitUntil } from '../ship-and-shore.js';
import { TestS3Server } from '../s3-server.js';
import { createTestApp } from '../test-app.js';
import { startCluster, type Cluster, type HostProcess } from './cluster.js';
import { networkUnavailable } from './network.js';

/**
 * Several hosts behind one balancer (docs/deployment.md): three server processes, each in a
 * network namespace of its own with its own address and data folder, on one PostgreSQL database
 * and one S3 bucket (s3rver from npm), behind HAProxy. What an operator would check: a change made through one host reaches
 * the websocket clients of the others; a picture uploaded through one is served by another; the
 * background jobs run once, not once per host; a record unpublished through one host is closed to
 * the public archive on the others; and a host killed under load loses no
 * acknowledged event while its websocket clients come back through the balancer on another host
 * and keep their subscriptions. `npm run test:soak` runs it, with five kills (`npm test` leaves it
 * out: vitest.config.ts; on its own, `BATHYLOG_SOAK=1` lifts that).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const killCycles = Number(process.env.BATHYLOG_HOSTS_KILL_CYCLES ?? 1);
const unavailable = databaseUrl ? networkUnavailable() : null;
const haproxy = databaseUrl && !unavailable ? peer('haproxy') : null;

/** A frame grab: a real picture, so that a thumbnail can be made of it. */
const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#204060' } })
  .png()
  .toBuffer();

const objectId = () => randomBytes(12).toString('hex');

/** The browser's realtime client on `ws`, remembering which host the balancer sent each connection to. */
class Watcher {
  readonly texts: string[] = [];
  readonly completeness: Array<{ event_id: string; state: string }> = [];
  /** The host the balancer sent the latest connection to, and the first. */
  host: string | null = null;
  firstHost: string | null = null;
  readonly states: string[] = [];
  readonly client: RealtimeClient;

  constructor(url: string, token: string) {
    this.client = new RealtimeClient({
      url,
      getToken: () => token,
      minDelayMs: 200,
      maxDelayMs: 1000,
      onError: () => undefined,
      createSocket: (address) => {
        const ws = new WebSocket(address);
        ws.on('upgrade', (res) => {
          this.host = (res.headers['x-bathylog-host'] as string | undefined) ?? null;
          this.firstHost ??= this.host;
        });
        return ws as unknown as WebSocketLike;
      },
    });
    this.client.subscribe('newEvents', (e) => this.texts.push(e.event_free_text));
    this.client.onState((state) => this.states.push(`${state}@${Date.now()}`));
    this.client.subscribe('completeness', (c) => this.completeness.push(c));
  }

  open(): Promise<void> {
    this.client.connect();
    return waitUntil('the websocket to open', async () => this.client.state === 'open', 20_000).then(() => {});
  }

  received(text: string): Promise<true> {
    return waitUntil(`"${text}" on the websocket (host ${this.host})`, async () => this.texts.includes(text), 10_000);
  }
}

/**
 * A ship in this process, reached through a relay on the bridge that notes which host asked for
 * what: a follower runs on one host only.
 */
async function startShip(gateway: string) {
  const ship = await createTestApp('sqlite', shoreConfig());
  await ship.app.listen({ port: 0, host: '127.0.0.1' });
  const shipPort = (ship.app.server.address() as { port: number }).port;
  const requests: Array<{ from: string; url: string; at: number }> = [];
  const relay = http.createServer((req, res) => {
    requests.push({ from: req.socket.remoteAddress ?? '', url: req.url ?? '', at: Date.now() });
    const upstream = http.request(
      { host: '127.0.0.1', port: shipPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, gateway, resolve));
  const url = `http://${gateway}:${(relay.address() as { port: number }).port}`;
  return {
    ship,
    url,
    requests,
    async close() {
      relay.closeAllConnections();
      await new Promise((r) => relay.close(r));
      await ship.close();
    },
  };
}

if (databaseUrl && unavailable && process.env.CI) {
  describe('several hosts', () => {
    it('needs network namespaces', () => {
      throw new Error(`several-hosts suite cannot run: ${unavailable}`);
    });
  });
} else if (databaseUrl && unavailable) {
  console.warn(`several-hosts suite skipped: ${unavailable}`);
}

describe.skipIf(!databaseUrl || !!unavailable || !haproxy)('several hosts behind one balancer', () => {
  const schema = `t_hosts_${process.pid}_${Date.now().toString(36)}`;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-hosts-'));
  let cluster: Cluster;
  let s3: TestS3Server | null = null;
  let api: ApiClient;
  let token: string;
  let loweringId: string;
  let ship: Awaited<ReturnType<typeof startShip>> | null = null;
  const watchers: Watcher[] = [];
  const requiredSource = 'hostsTestNav';

  const leaderOf = (hosts: HostProcess[]) =>
    hosts.filter((h) => h.alive() && readFileSync(h.logFile, 'utf8').includes('this process runs the singleton jobs'));

  beforeAll(async () => {
    s3 = await new TestS3Server().start();
    cluster = await startCluster({
      workDir,
      databaseUrl: databaseUrl!,
      schema,
      haproxy: haproxy!,
      hosts: 3,
      s3: { port: s3.port, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      env: {
        BATHYLOG_ASNAP_ENABLED: 'true',
        BATHYLOG_ASNAP_INTERVAL: '1',
        BATHYLOG_BACKUP_INTERVAL_MINUTES: '0.1',
        BATHYLOG_BACKUP_KEEP: '100',
        BATHYLOG_REQUIRED_AUX_SOURCES: requiredSource,
        BATHYLOG_AUX_GRACE_SECONDS: '1',
        // A fleet shore's public archive: what each host keeps of it must follow the others' changes.
        BATHYLOG_PUBLIC_ARCHIVE: 'true',
      },
    });
    const login = await fetch(`${cluster.balancerUrl}/sealog-server/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'demo' }),
    });
    token = ((await login.json()) as { token: string }).token;
    api = new ApiClient(cluster.balancerUrl, `Bearer ${token}`);
    ({ loweringId } = await createCruiseAndLowering(api, 'hosts'));
  }, 240_000);

  afterAll(async () => {
    for (const w of watchers) w.client.close();
    await ship?.close();
    await cluster?.close();
    await s3?.destroy();
    const admin = openDatabase({ url: databaseUrl!, poolSize: 1 });
    await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
    await admin.close();
    if (!process.env.BATHYLOG_KEEP_TEST_FILES) rmSync(workDir, { recursive: true, force: true });
  }, 120_000);

  const post = (base: string, body: unknown) =>
    fetch(`${base}/sealog-server/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('started together on a fresh database: one set of system users, one leader', async () => {
    const users = await api.json<Array<{ username: string }>>('GET', '/users');
    expect(users.filter((u) => u.username === 'admin')).toHaveLength(1);
    expect(leaderOf(cluster.hosts)).toHaveLength(1);
    for (const host of cluster.hosts) {
      const res = await fetch(`${host.url}/sealog-server/api/v1/health`);
      expect(await res.json()).toEqual({ status: 'ok', database: 'ok', files: 'ok' });
    }
  });

  it('an event posted to host A reaches websocket clients connected to B and C', async () => {
    const [a, b, c] = cluster.hosts as [HostProcess, HostProcess, HostProcess];
    const onB = new Watcher(`ws://${b.net.address}:8000/ws`, token);
    const onC = new Watcher(`ws://${c.net.address}:8000/ws`, token);
    watchers.push(onB, onC);
    await Promise.all([onB.open(), onC.open()]);
    const text = `posted to ${a.name} ${objectId()}`;
    const res = await post(a.url, { event_value: 'HOSTS', event_free_text: text });
    expect(res.status).toBe(201);
    await Promise.all([onB.received(text), onC.received(text)]);
    // Once each: every host hears the notification, each socket gets the event once.
    await new Promise((r) => setTimeout(r, 300));
    expect(onB.texts.filter((t) => t === text)).toHaveLength(1);
    expect(onC.texts.filter((t) => t === text)).toHaveLength(1);
  });

  it('a picture uploaded through host A is served by B and C (original and thumbnail)', async () => {
    const [a, b, c] = cluster.hosts as [HostProcess, HostProcess, HostProcess];
    const created = await post(a.url, { event_value: 'PHOTO' });
    const eventId = ((await created.json()) as { insertedId: string }).insertedId;
    const body = filepondBody('grab.png', png);
    const uploaded = await fetch(`${a.url}/sealog-server/files/images/filepond/process/${eventId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      body: body.payload,
    });
    expect(uploaded.status).toBe(201);
    const name = await uploaded.text();
    const original = await fetch(`${b.url}/sealog-server/files/images/${name}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await fetch(`${c.url}/sealog-server/files/images/${name}?w=160`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toMatch(/^image\//);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(160);
    // The picture is in the bucket, and on no host's disk: any host can go and none is missed.
    expect(
      filesUnder(s3!.directory).some((f) => f.includes(name)),
      'the picture in the bucket',
    ).toBe(true);
    const onHosts = cluster.hosts.flatMap((h) => filesUnder(path.join(workDir, `data-${h.name}`)));
    expect(onHosts.filter((f) => f.includes(name))).toEqual([]);
  });

  it("a cruise unpublished through host A is closed to the archive's visitors on B and C within a second", async () => {
    const [a, b, c] = cluster.hosts as [HostProcess, HostProcess, HostProcess];
    const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${a.url}/sealog-server/api/v1/cruises`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        cruise_id: `PUB-${objectId().slice(-6)}`,
        start_ts: '2025-05-01T00:00:00.000Z',
        stop_ts: '2025-05-20T00:00:00.000Z',
        cruise_location: 'hosts',
        cruise_tags: [],
        cruise_hidden: false,
        cruise_public: true,
        cruise_additional_meta: { cruise_vessel: 'R/V Test', cruise_pi: 'Tester', cruise_description: '' },
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { insertedId: string }).insertedId;
    // Without a token: the public archive's visitor.
    const visitor = async (host: HostProcess) => (await fetch(`${host.url}/sealog-server/api/v1/cruises/${id}`)).status;
    // Each host serves it, the second time from the archive state it keeps.
    for (const host of [b, c]) {
      expect(await visitor(host)).toBe(200);
      expect(await visitor(host)).toBe(200);
    }
    const unpublished = await fetch(`${a.url}/sealog-server/api/v1/cruises/${id}`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ cruise_public: false }),
    });
    expect(unpublished.status).toBe(204);
    expect(await visitor(a)).toBe(401);
    await Promise.all(
      [b, c].map((host) =>
        waitUntil(`the cruise closed on host ${host.name}`, async () => (await visitor(host)) === 401, 1000),
      ),
    );
  });

  it('runs the background jobs once across hosts: ASNAP, backups, checklist monitor, completeness, ship follower', async () => {
    const onAny = new Watcher(`ws://${cluster.hosts[1]!.net.address}:8000/ws`, token);
    watchers.push(onAny);
    await onAny.open();
    ship = await startShip(cluster.network.gateway);
    const shipAdmin = await ship.ship.login('admin', 'demo');
    const key = (
      (
        await ship.ship.api('POST', '/device_keys', {
          token: shipAdmin,
          body: { name: 'shore', roles: ['full_follower'] },
        })
      ).json() as { key: string }
    ).key;
    expect(
      (await api.call('POST', '/ships', { name: 'R/V Hosts', url: ship.url, key })).status,
      'following the ship',
    ).toBe(201);
    const shipped = await ship.ship.api('POST', '/events', {
      token: shipAdmin,
      body: { event_value: 'SHIPPED', event_free_text: 'from the ship' },
    });
    const shippedId = (shipped.json() as { insertedId: string }).insertedId;

    // A pre-dive checklist: its manual item ticked now, its automatic one holds once ASNAP is switched
    // on, and then the checklist monitor completes the run, logging one CHECKLIST event.
    await api.json('POST', '/checklists', {
      name: 'Pre-dive (hosts)',
      phase: 'pre_dive',
      items: [
        { id: 'cams', label: 'Cameras recording', kind: 'manual' },
        {
          id: 'asnap',
          label: 'ASNAP on',
          kind: 'auto',
          condition: { type: 'custom_var', name: 'asnapStatus', equals: 'On' },
        },
      ],
    });
    // Reading a lowering's checklists starts its runs.
    const [run] = await api.json<Array<{ id: string }>>('GET', `/lowerings/${loweringId}/checklists`);
    await api.json('PATCH', `/lowerings/${loweringId}/checklists/${run!.id}/items/cams`, { state: 'done' });

    const started = Date.now();
    await api.json('PATCH', `/custom_vars/${systemIds.asnapStatus}`, { custom_var_value: 'On' });
    // An event in the lowering without the required aux data: judged incomplete once its grace ends.
    const incomplete = await post(cluster.hosts[2]!.url, { event_value: 'NO_NAV', event_free_text: 'no nav' });
    const incompleteId = ((await incomplete.json()) as { insertedId: string }).insertedId;

    await waitUntil(
      'the ship event on shore',
      async () => (await api.call('GET', `/events/${shippedId}`)).status === 200,
      30_000,
    );
    await waitUntil(
      'the event judged incomplete',
      async () => onAny.completeness.some((c) => c.event_id === incompleteId && c.state === 'incomplete'),
      20_000,
    );
    await waitUntil('the checklist completed', async () => (await exportAll(api, 'CHECKLIST')).length > 0, 20_000);
    const backups = cluster.backupDir;
    const backupTimes = () =>
      existsSync(backups)
        ? readdirSync(backups)
            .filter((n) => n.startsWith('bathylog-'))
            .map((n) =>
              Date.parse(n.slice('bathylog-'.length).replace(/^(\d+-\d+-\d+T\d+)-(\d+)-(\d+)-(\d+)Z$/, '$1:$2:$3.$4Z')),
            )
            .sort((x, y) => x - y)
        : [];
    await waitUntil('two scheduled backups', async () => backupTimes().length >= 2, 40_000);
    // Let ASNAP run a few seconds from the time it was switched on.
    await new Promise((r) => setTimeout(r, Math.max(0, 5000 - (Date.now() - started))));

    const asnap = (await exportAll(api, 'ASNAP')).map((e) => Date.parse(e.ts)).sort((x, y) => x - y);
    expect(asnap.length).toBeGreaterThanOrEqual(3);
    const asnapGaps = asnap.slice(1).map((t, i) => t - asnap[i]!);
    expect(
      Math.min(...asnapGaps),
      `ASNAP events ${asnap.map((t) => new Date(t).toISOString()).join(', ')}`,
    ).toBeGreaterThan(500);

    const times = backupTimes();
    const backupGaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...backupGaps), 'backups one interval apart, not one per host').toBeGreaterThan(3000);

    expect(onAny.completeness.filter((c) => c.event_id === incompleteId && c.state === 'incomplete')).toHaveLength(1);

    expect((await exportAll(api, 'CHECKLIST')).length, 'CHECKLIST events').toBe(1);

    const feedFrom = new Set(ship.requests.filter((r) => r.url.includes('/sync/')).map((r) => r.from));
    expect([...feedFrom], 'hosts that asked the ship for changes').toHaveLength(1);
    expect(feedFrom.has(leaderOf(cluster.hosts)[0]!.net.address)).toBe(true);
  }, 120_000);

  for (let cycle = 0; cycle < killCycles; cycle++)
    it(`a host killed under load (cycle ${cycle + 1}) loses no acknowledged event; its websocket clients resume on another host`, async () => {
      const [victim] = leaderOf(cluster.hosts);
      expect(victim, 'a leading host').toBeDefined();
      // Clients through the balancer until at least two sit on the host that will die.
      const clients: Watcher[] = [];
      const placed = () => {
        const on = clients.filter((w) => w.host === victim!.name).length;
        return on >= 2 && clients.length - on >= 2;
      };
      for (let i = 0; i < 12 && !placed(); i++) {
        const w = new Watcher(`ws://${cluster.balancerUrl.slice('http://'.length)}/ws`, token);
        watchers.push(w);
        clients.push(w);
        await w.open();
      }
      const onVictim = clients.filter((w) => w.host === victim!.name);
      const survivors = clients.filter((w) => w.host !== victim!.name);
      expect(survivors.length).toBeGreaterThanOrEqual(2);
      expect(onVictim.length).toBeGreaterThanOrEqual(2);

      const acknowledged = new Set<string>();
      /** Which host answered each POST, and when (for the failure message). */
      const takenBy = new Map<string, string>();
      const loadStart = Date.now();
      const sent = new Set<string>();
      const failures: string[] = [];
      let stop = false;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const id = objectId();
          sent.add(id);
          // A lost answer is retried with the same id until the server says yes (201) or that it
          // already has it (the first attempt committed): what a careful logging client does.
          for (let attempt = 0; ; attempt++) {
            let status = 0;
            let message = '';
            try {
              const res = await post(cluster.balancerUrl, {
                id,
                event_value: 'LOAD',
                event_free_text: `c${cycle}-w${n}-${i}`,
              });
              status = res.status;
              takenBy.set(id, `${res.headers.get('x-bathylog-host')}@${Date.now() - loadStart}`);
              message = ((await res.json().catch(() => ({}))) as { message?: string }).message ?? '';
            } catch {
              status = 0;
            }
            if (status === 201) {
              acknowledged.add(id);
              break;
            }
            if (status === 400 && message === 'duplicate event ID') break;
            if (status !== 0 && status < 500) {
              failures.push(`${id}: ${status} ${message}`);
              break;
            }
            if (attempt > 50) {
              failures.push(`${id}: still failing (${status})`);
              break;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      const writers = Array.from({ length: 4 }, (_, n) => writer(n));
      await new Promise((r) => setTimeout(r, 1500));
      const killedAt = Date.now();
      await victim!.kill();
      await new Promise((r) => setTimeout(r, 2000));
      stop = true;
      await Promise.all(writers);
      expect(failures).toEqual([]);
      expect(acknowledged.size).toBeGreaterThan(10);

      // Every acknowledged event is stored, once; nothing that was never sent is.
      const stored = (await exportLowering(api, loweringId)).filter(
        (e) => e.event_value === 'LOAD' && e.event_free_text.startsWith(`c${cycle}-`),
      );
      const storedIds = stored.map((e) => e.id);
      expect(new Set(storedIds).size).toBe(storedIds.length);
      const missing = [...acknowledged].filter((id) => !storedIds.includes(id));
      expect(missing, 'acknowledged events missing').toEqual([]);
      expect(storedIds.filter((id) => !sent.has(id))).toEqual([]);

      // Clients on the surviving hosts never lost their socket: each acknowledged event reached them
      // live, including those the killed host took just before it died.
      const texts = new Map(stored.map((e) => [e.id, e.event_free_text]));
      for (const w of survivors) {
        expect(
          w.states.filter((x) => x.startsWith('reconnecting')),
          `host ${w.host}'s socket stayed open`,
        ).toEqual([]);
        await waitUntil(
          `every acknowledged event on a socket of host ${w.host}`,
          async () => [...acknowledged].every((id) => w.texts.includes(texts.get(id)!)),
          10_000,
        ).catch(() => {
          const absent = [...acknowledged].filter((id) => !w.texts.includes(texts.get(id)!));
          throw new Error(
            `host ${w.host}'s socket missed ${absent.length} acknowledged events (taken by host@ms; ` +
              `${victim!.name} killed @${killedAt - loadStart}): ${absent.map((id) => takenBy.get(id)).join(', ')}; ` +
              `socket states ${w.states.map((x) => x.replace(/@(\d+)/, (_, t: string) => `@${Number(t) - loadStart}`)).join(' ')}`,
          );
        });
      }

      // The killed host's clients came back through the balancer on another host, subscribed as before.
      await waitUntil(
        'every websocket open on a live host',
        async () => clients.every((w) => w.client.state === 'open' && w.host !== victim!.name),
        30_000,
      );
      const after = `after the kill ${objectId()}`;
      expect((await post(cluster.balancerUrl, { event_value: 'HOSTS', event_free_text: after })).status).toBe(201);
      await Promise.all(clients.map((w) => w.received(after)));

      // The singleton jobs moved to a surviving host: ASNAP goes on, one host follows the ship.
      await waitUntil('a new leader', async () => leaderOf(cluster.hosts).length === 1, 20_000);
      await waitUntil(
        'ASNAP after the kill',
        async () => (await exportAll(api, 'ASNAP')).some((e) => Date.parse(e.ts) > killedAt + 1000),
        20_000,
      );
      // Back to three hosts for the next cycle.
      await cluster.startHost(victim!);
      await waitUntil(
        'the restarted host healthy',
        async () => (await fetch(`${victim!.url}/sealog-server/api/v1/health`)).ok,
        30_000,
      );
    }, 180_000);
});

/** Every file below a folder (relative paths). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Every event of a value (the list route pages by `limit`). */
async function exportAll(api: ApiClient, value: string): Promise<Array<{ id: string; ts: string }>> {
  const res = await api.call('GET', `/events?value=${value}&limit=10000`);
  if (res.status === 404) return [];
  if (res.status !== 200) throw new Error(`events ${value}: ${res.status}`);
  return res.body as Array<{ id: string; ts: string }>;
}
