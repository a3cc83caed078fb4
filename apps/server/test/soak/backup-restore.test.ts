import { readFileSync, mkdtempSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { engines } from '../test-app.js';
import { runBathylog } from '../cli-process.js';
import {
  ApiClient,
  createCruiseAndLowering,
  exportLowering,
  startServerProcess,
  type ExportedEvent,
  type ServerProcess,
} from '../server-process.js';
import type { BackupManifest } from '../../src/db/backup.js';

/**
 * Online backup (docs/storage.md#backups): `bathylog backup` while clients log events, then `bathylog restore`
 * into an empty data folder (and an empty PostgreSQL database), and a server started on it
 * answers the same exports: every event acknowledged before the backup began, each as the
 * original has it. A backup taken at rest restores to identical exports. Damaged, partial and
 * misdirected restores are refused with a message.
 */
describe.each(engines)('backup and restore on %s', (engine) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-backup-'));
  const baseUrl = process.env.TEST_DATABASE_URL;
  const schema = `bk_${process.pid}_${Date.now().toString(36)}`;
  const databases: string[] = [];
  const servers: ServerProcess[] = [];

  /** SQLite: nothing. PostgreSQL: a new empty database (restores need one) and its URL. */
  async function newDatabase(tag: string): Promise<Record<string, string>> {
    if (engine === 'sqlite') return {};
    const name = `${new URL(baseUrl!).pathname.slice(1)}_${schema}_${tag}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    databases.push(name);
    const url = new URL(baseUrl!);
    url.pathname = `/${name}`;
    return { DATABASE_URL: url.toString(), DATABASE_SCHEMA: schema };
  }

  async function server(dataDir: string, env: Record<string, string>) {
    const s = await startServerProcess({
      dataDir,
      ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, databaseSchema: env.DATABASE_SCHEMA } : {}),
    });
    servers.push(s);
    const api = new ApiClient(s.url);
    await api.login();
    return { s, api };
  }

  afterAll(async () => {
    for (const s of servers) await s.stop();
    if (databases.length) {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('backs up while events are logged, restores into an empty folder, and answers the same exports', async () => {
    const sourceEnv = await newDatabase('src');
    const sourceData = path.join(root, 'source');
    const source = await server(sourceData, sourceEnv);
    const { loweringId } = await createCruiseAndLowering(source.api, engine);

    let writing = true;
    const acked: Array<{ id: string; at: number }> = [];
    const writers = Array.from({ length: 3 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const res = await source.api.call('POST', '/events', { event_value: 'BACKUP', event_free_text: `w${w}-${i}` });
        expect(res.status).toBe(201);
        const id = (res.body as { insertedId: string }).insertedId;
        const aux = await source.api.call('POST', '/event_aux_data', {
          event_id: id,
          data_source: 'nav',
          data_array: [{ data_name: 'depth', data_value: String(i) }],
        });
        expect(aux.status).toBe(201);
        acked.push({ id, at: Date.now() });
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    const backupStarted = Date.now();
    const busyBackup = path.join(root, 'backup-busy');
    const backup = await runBathylog(['backup', busyBackup, '--data', sourceData], sourceEnv);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written to /);
    await new Promise((r) => setTimeout(r, 500));
    writing = false;
    await Promise.all(writers);
    const manifest = JSON.parse(readFileSync(path.join(busyBackup, 'manifest.json'), 'utf8')) as BackupManifest;

    const original = await exportLowering(source.api, loweringId);
    const byId = new Map(original.map((e) => [e.id, e]));

    // Restore the busy backup and start a server on it.
    const restoredEnv = await newDatabase('busy');
    const restoredData = path.join(root, 'restored-busy');
    const restore = await runBathylog(['restore', busyBackup, '--data', restoredData], restoredEnv);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const restored = await server(restoredData, restoredEnv);
    const restoredEvents = await exportLowering(restored.api, loweringId);
    expect(restoredEvents).toHaveLength(manifest.counts.events);
    // Each event as the original has it; its aux data may be older (records acknowledged after the snapshot).
    for (const { aux_data: aux, ...e } of restoredEvents) {
      const { aux_data: originalAux, ...o } = byId.get(e.id)!;
      expect(e).toEqual(o);
      for (const a of aux ?? []) expect(originalAux).toContainEqual(a);
    }
    const restoredIds = new Set(restoredEvents.map((e) => e.id));
    const before = acked.filter((a) => a.at < backupStarted);
    expect(before.length).toBeGreaterThan(0);
    for (const a of before) expect(restoredIds.has(a.id), `event ${a.id} acknowledged before the backup`).toBe(true);
    // Logging goes on after a restore.
    expect((await restored.api.call('POST', '/events', { event_value: 'AFTER' })).status).toBe(201);

    // At rest: identical exports.
    const quietBackup = path.join(root, 'backup-quiet');
    expect((await runBathylog(['backup', quietBackup, '--data', sourceData], sourceEnv)).code).toBe(0);
    const quietEnv = await newDatabase('quiet');
    const quietData = path.join(root, 'restored-quiet');
    expect((await runBathylog(['restore', quietBackup, '--data', quietData], quietEnv)).code).toBe(0);
    const quiet = await server(quietData, quietEnv);
    const quietEvents: ExportedEvent[] = await exportLowering(quiet.api, loweringId);
    expect(quietEvents).toEqual(original);
    const csv = async (api: ApiClient) =>
      (await api.call('GET', `/event_exports/bylowering/${loweringId}?format=csv`)).body;
    expect(await csv(quiet.api)).toEqual(await csv(source.api));
    console.log(
      `backup/restore on ${engine}: ${original.length} events, busy backup held ${manifest.counts.events} ` +
        `(${before.length} acknowledged before it began)`,
    );

    // Refusals: a non-empty target, a damaged file, a partial backup, the wrong engine.
    const again = await runBathylog(['restore', quietBackup, '--data', quietData], await newDatabase('again'));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);

    const damaged = path.join(root, 'backup-quiet', manifest.database);
    const bytes = readFileSync(damaged);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    writeFileSync(damaged, bytes);
    const refused = await runBathylog(
      ['restore', quietBackup, '--data', path.join(root, 'r-damaged')],
      await newDatabase('dmg'),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/The backup is damaged: .* does not match its checksum/);

    unlinkSync(path.join(busyBackup, 'manifest.json'));
    const partial = await runBathylog(
      ['restore', busyBackup, '--data', path.join(root, 'r-partial')],
      await newDatabase('part'),
    );
    expect(partial.code).toBe(1);
    expect(partial.stderr).toMatch(/is not a complete backup: manifest.json is missing/);
  }, 300_000);
});
