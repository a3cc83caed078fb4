import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { checkPassword } from '../src/lib/passwords.js';
import { UsersRepository } from '../src/modules/users/users.repository.js';
import { runBathylog } from './cli-process.js';

/**
 * The operator CLI on a fresh data folder (README, "Operating a server"), run as `bin/bathylog.mjs` in its own
 * process: help on every command, clear errors with a non-zero exit, users, import/export as
 * Sealog JSON, integrity check, configuration with secrets masked. Backup and restore under
 * load are in test/soak/backup-restore.test.ts.
 */
const root = mkdtempSync(path.join(os.tmpdir(), 'bathylog-cli-'));
const data = path.join(root, 'data');
const env = { BATHYLOG_DATA: data, BATHYLOG_ADMIN_PASSWORD: 'first-password' };

async function userPasswordIs(username: string, password: string): Promise<boolean> {
  const database = openDatabase({ url: null, sqlitePath: path.join(data, 'bathylog.sqlite') });
  try {
    const user = await new UsersRepository(database.db).findByUsername(username);
    return !!user && (await checkPassword(password, user.password));
  } finally {
    await database.close();
  }
}

const events = [
  {
    id: '64a1f0c2b7e4d5a6c7b8a901',
    event_author: 'pilot',
    ts: '2023-03-14T23:45:16.031Z',
    event_value: 'SAMPLE',
    event_options: [{ event_option_name: 'sample_id', event_option_value: 'S0492-PUSH1' }],
    event_free_text: 'push core, near the vent',
    aux_data: [
      {
        data_source: 'vehicleRealtimeNavData',
        data_array: [
          { data_name: 'latitude', data_value: '23.55', data_uom: 'ddeg' },
          { data_name: 'depth', data_value: '2011.5', data_uom: 'meters' },
        ],
      },
    ],
  },
  {
    id: '64a1f0c2b7e4d5a6c7b8a902',
    event_author: 'pilot',
    ts: '2023-03-14T23:50:00.000Z',
    event_value: 'FISH',
    event_options: [],
    event_free_text: '',
    aux_data: [],
  },
];

describe('bathylog CLI on a fresh data folder', { timeout: 240_000 }, () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('prints help for every command and refuses bad arguments with a message and exit code 2', async () => {
    const main = await runBathylog(['--help']);
    expect(main.code).toBe(0);
    const names = ['backup', 'restore', 'user create', 'user reset-password', 'import', 'export', 'check', 'config'];
    for (const name of names) expect(main.stdout).toContain(`  ${name}`);
    for (const name of names) {
      const help = await runBathylog([...name.split(' '), '--help']);
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toMatch(new RegExp(`^Usage: bathylog ${name}`));
      expect(help.stdout, name).toContain('--data <folder>');
    }
    const unknown = await runBathylog(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badOption = await runBathylog(['check', '--colour'], env);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toMatch(/Unknown option '--colour'/);
    const missing = await runBathylog(['backup'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing argument');
    const badKind = await runBathylog(['export', 'fish'], env);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('The kind must be one of: cruises, lowerings, events, aux-data (got "fish")');
    const badUser = await runBathylog(['user', 'create', '--username', 'x'], env);
    expect(badUser.code).toBe(2);
    expect(badUser.stderr).toContain('--password is required');
  });

  it('check says there is no database yet, config prints the settings with secrets masked', async () => {
    const check = await runBathylog(['check'], env);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`No database in ${data}`);
    const config = await runBathylog(['config'], {
      ...env,
      BATHYLOG_SECRET: 'super-secret-value',
      SMTP_PASSWORD: 'mail-password',
      DATABASE_URL: 'postgres://bathylog:db-password@db.ship:5432/bathylog',
    });
    expect(config.code).toBe(0);
    const printed = JSON.parse(config.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      dataDir: data,
      secret: '***',
      adminPassword: '***',
      sqliteSynchronous: 'full',
      smtp: { password: '***' },
      databaseUrl: 'postgres://bathylog:***@db.ship:5432/bathylog',
    });
    expect(config.stdout).not.toMatch(/super-secret-value|mail-password|db-password|first-password/);
  });

  it('creates users and resets a lost admin password', async () => {
    const created = await runBathylog(
      [
        'user',
        'create',
        '--username',
        'nightwatch',
        '--password',
        'sea-state-4',
        '--roles',
        'event_logger,event_watcher',
      ],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(
      /^Created user nightwatch \([0-9a-f]{24}\) with roles event_logger, event_watcher\./,
    );
    expect(await userPasswordIs('nightwatch', 'sea-state-4')).toBe(true);
    expect(await userPasswordIs('admin', 'first-password')).toBe(true);

    const again = await runBathylog(['user', 'create', '--username', 'nightwatch', '--password', 'x'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Username already exists');

    const reset = await runBathylog(['user', 'reset-password', 'admin'], env);
    expect(reset.code).toBe(0);
    const password = /The new password of admin is: (\S+)/.exec(reset.stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(await userPasswordIs('admin', password!)).toBe(true);
    expect(await userPasswordIs('admin', 'first-password')).toBe(false);

    const chosen = await runBathylog(['user', 'reset-password', 'nightwatch', '--password', 'new-watch'], env);
    expect(chosen.code).toBe(0);
    expect(await userPasswordIs('nightwatch', 'new-watch')).toBe(true);
    const nobody = await runBathylog(['user', 'reset-password', 'nobody'], env);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('No user named nobody');
  });

  it('imports Sealog JSON and exports it back unchanged; check passes', async () => {
    const file = path.join(root, 'events.json');
    writeFileSync(file, JSON.stringify(events));
    const imported = await runBathylog(['import', file], env);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('Importing events from events.json: 2/2');
    expect(imported.stdout).toContain('Imported 2 events and 1 aux data records.');

    const exported = await runBathylog(['export', 'events'], env);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual(events);

    const out = path.join(root, 'aux.json');
    const aux = await runBathylog(['export', 'aux-data', '--out', out], env);
    expect(aux.code).toBe(0);
    const auxRecords = JSON.parse(readFileSync(out, 'utf8')) as Array<{ event_id: string; data_source: string }>;
    expect(auxRecords).toHaveLength(1);
    expect(auxRecords[0]).toMatchObject({ event_id: events[0]!.id, data_source: 'vehicleRealtimeNavData' });

    const twice = await runBathylog(['import', file], env);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain('2 were already there');

    const broken = path.join(root, 'broken.json');
    writeFileSync(broken, '{"event_value": ');
    const bad = await runBathylog(['import', broken], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`Cannot read ${broken} as JSON`);

    const cruises = await runBathylog(['export', 'cruises'], env);
    expect(cruises.code).toBe(0);
    expect(JSON.parse(cruises.stdout)).toEqual([]);

    const check = await runBathylog(['check'], env);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('checked: SQLite integrity_check');
    expect(check.stdout).toContain('The database is intact.');
  });

  it('backs up and restores the fresh folder', async () => {
    const backup = path.join(root, 'backup');
    const made = await runBathylog(['backup', backup], env);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/2 events, 1 aux data, 4 users/);
    const target = path.join(root, 'restored');
    const restored = await runBathylog(['restore', backup, '--data', target], env);
    expect(restored.code).toBe(0);
    const exported = await runBathylog(['export', 'events', '--data', target], env);
    expect(JSON.parse(exported.stdout)).toEqual(events);
    const occupied = await runBathylog(['backup', backup], env);
    expect(occupied.code).toBe(1);
    expect(occupied.stderr).toContain('is not empty');
  });
});
