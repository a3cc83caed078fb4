import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { loadPg } from './database.js';
import { isPostgres, type Config } from '../config.js';
import { countedTables, type TableCounts } from './integrity.js';
import { createFileStore, storedAreas, type FileStore } from '../storage/index.js';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';

/**
 * Online backup and restore (docs/storage.md#backups). A backup is a folder: the database (a SQLite snapshot
 * made with VACUUM INTO, or a pg_dump archive taken in the same snapshot as the counts), the file
 * store and the secret, and `manifest.json` written last (so a backup without one is partial),
 * with row counts and a sha256 of every file. Restore checks all of it before writing anything.
 */
/** Beside the scheduled backups: the last scheduled attempt's time and error (jobs/backup-scheduler.ts). */
export const backupAttemptFile = '.last-attempt.json';

export const manifestName = 'manifest.json';
export const manifestFormat = 'bathylog-backup/1';
const sqliteName = 'bathylog.sqlite';
const pgDumpName = 'database.pgdump';

export interface BackupFile {
  /** Path inside the backup folder, with forward slashes. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof manifestFormat;
  createdAt: string;
  engine: 'sqlite' | 'postgres';
  /** The database file inside the backup. */
  database: string;
  counts: TableCounts;
  files: BackupFile[];
}

/** A backup that cannot be used; the message says why, for the operator. */
export class BackupError extends Error {}

function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

async function listFiles(root: string, under = ''): Promise<string[]> {
  const dir = path.join(root, under);
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

async function isEmptyStore(store: FileStore): Promise<boolean> {
  for (const area of storedAreas) if ((await store.list(`${area}/`, { recursive: true })).length > 0) return false;
  return true;
}

async function isEmptyFolder(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) =>
      reject(new BackupError(`${cmd} could not be run (${err.message}); install the PostgreSQL client tools`)),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${cmd} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

function sqliteCounts(file: string): TableCounts {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const out = {} as TableCounts;
    for (const t of countedTables) out[t] = (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    return out;
  } finally {
    db.close();
  }
}

function pgSchema(config: Config): string {
  return config.databaseSchema ?? 'public';
}

async function pgCounts(client: pg.ClientBase, schema: string): Promise<TableCounts> {
  const out = {} as TableCounts;
  for (const t of countedTables) {
    const r = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."${t}"`);
    out[t] = Number(r.rows[0]!.n);
  }
  return out;
}

/**
 * Writes a consistent backup of the running (or stopped) server's data into `target`, which
 * must be missing or empty. Safe while the server takes events: SQLite's VACUUM INTO reads one
 * snapshot; pg_dump runs in the snapshot the counts were read in.
 */
export async function createBackup(config: Config, target: string): Promise<BackupManifest> {
  target = path.resolve(target);
  if (!(await isEmptyFolder(target))) throw new BackupError(`The backup folder ${target} is not empty`);
  await mkdir(target, { recursive: true });
  // Written under a temporary name first: a folder without manifest.json is a partial backup.
  const engine = isPostgres(config) ? 'postgres' : 'sqlite';
  let counts: TableCounts;
  let database: string;
  if (engine === 'sqlite') {
    const source = path.join(config.dataDir, sqliteName);
    if (!existsSync(source)) throw new BackupError(`No database in ${config.dataDir} (${sqliteName} is missing)`);
    database = sqliteName;
    const out = path.join(target, sqliteName);
    const db = new SQLite(source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(out);
    } finally {
      db.close();
    }
    counts = sqliteCounts(out);
  } else {
    database = pgDumpName;
    const schema = pgSchema(config);
    const client = new (loadPg().Client)({ connectionString: config.databaseUrl! });
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]!.id;
      counts = await pgCounts(client, schema);
      await run('pg_dump', [
        `--snapshot=${snapshot}`,
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--schema=${schema}`,
        `--file=${path.join(target, pgDumpName)}`,
        `--dbname=${config.databaseUrl!}`,
      ]);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
  }

  // The file store after the database: a file whose record is in the snapshot is there (files
  // are written before their record); a newer file may come along, which does no harm.
  if (config.storage.backend === 'local') {
    const files = path.join(config.dataDir, 'files');
    for (const rel of await listFiles(files)) {
      const to = path.join(target, 'files', rel);
      await mkdir(path.dirname(to), { recursive: true });
      try {
        await copyFile(path.join(files, rel), to);
      } catch (err) {
        // Deleted between the listing and the copy.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  } else {
    // The bucket's files, streamed into the same layout a local backup has (`files/<key>`), so
    // a backup restores onto either store.
    const store = createFileStore(config.storage, config.dataDir);
    try {
      for (const area of storedAreas) {
        for (const file of await store.list(`${area}/`, { recursive: true })) {
          const body = await store.read(file.key);
          if (!body) continue; // deleted between the listing and the read
          const to = path.join(target, 'files', ...file.key.split('/'));
          await mkdir(path.dirname(to), { recursive: true });
          await pipeline(body, createWriteStream(to));
        }
      }
    } finally {
      store.close();
    }
  }
  const secret = path.join(config.dataDir, 'secret');
  if (existsSync(secret)) await copyFile(secret, path.join(target, 'secret'));

  const entries: BackupFile[] = [];
  for (const rel of await listFiles(target)) {
    const full = path.join(target, rel);
    entries.push({ path: rel, bytes: (await stat(full)).size, sha256: await sha256(full) });
  }
  const manifest: BackupManifest = {
    format: manifestFormat,
    createdAt: new Date().toISOString(),
    engine,
    database,
    counts,
    files: entries,
  };
  const partial = path.join(target, `${manifestName}.partial`);
  await writeFile(partial, JSON.stringify(manifest, null, 2));
  await rename(partial, path.join(target, manifestName));
  return manifest;
}

/** Reads and checks a backup folder: manifest, every file's size and checksum, nothing missing. */
export async function verifyBackup(dir: string): Promise<BackupManifest> {
  dir = path.resolve(dir);
  const manifestFile = path.join(dir, manifestName);
  if (!existsSync(dir)) throw new BackupError(`No backup at ${dir}`);
  if (!existsSync(manifestFile)) {
    throw new BackupError(`${dir} is not a complete backup: ${manifestName} is missing (an interrupted backup?)`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`The backup's ${manifestName} is damaged (not JSON)`);
  }
  if (manifest.format !== manifestFormat || !Array.isArray(manifest.files) || !manifest.counts) {
    throw new BackupError(`The backup's ${manifestName} is not a Bathylog backup manifest (${manifestFormat})`);
  }
  if (!manifest.files.some((f) => f.path === manifest.database)) {
    throw new BackupError(`The backup lists no database file (${manifest.database})`);
  }
  for (const f of manifest.files) {
    const full = path.join(dir, f.path);
    if (path.relative(dir, full).startsWith('..'))
      throw new BackupError(`The manifest names a file outside the backup: ${f.path}`);
    if (!existsSync(full)) throw new BackupError(`The backup is incomplete: ${f.path} is missing`);
    const { size } = await stat(full);
    if (size !== f.bytes || (await sha256(full)) !== f.sha256) {
      throw new BackupError(`The backup is damaged: ${f.path} does not match its checksum`);
    }
  }
  return manifest;
}

/**
 * Restores a verified backup into the configured data folder, which must be empty (and, for
 * PostgreSQL, a database schema without tables). Checks the restored row counts against the
 * manifest.
 */
export async function restoreBackup(config: Config, dir: string): Promise<BackupManifest> {
  dir = path.resolve(dir);
  const manifest = await verifyBackup(dir);
  const engine = isPostgres(config) ? 'postgres' : 'sqlite';
  if (manifest.engine !== engine) {
    throw new BackupError(
      `This is a ${manifest.engine} backup; the configuration uses ${engine}` +
        (manifest.engine === 'postgres' ? ' (set DATABASE_URL)' : ' (unset DATABASE_URL)'),
    );
  }
  const data = config.dataDir;
  if (!(await isEmptyFolder(data))) {
    throw new BackupError(`The data folder ${data} is not empty: restore only into an empty (or new) folder`);
  }
  const bucket = config.storage.backend === 's3' ? createFileStore(config.storage, data) : null;
  if (bucket && !(await isEmptyStore(bucket))) {
    throw new BackupError(
      `The bucket ${bucket.description} already holds files: restore only into an empty bucket or prefix`,
    );
  }
  let client: pg.Client | null = null;
  if (engine === 'postgres') {
    client = new (loadPg().Client)({ connectionString: config.databaseUrl! });
    await client.connect();
  }
  try {
    const schema = pgSchema(config);
    if (client) {
      const tables = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1',
        [schema],
      );
      if (Number(tables.rows[0]!.n) > 0) {
        throw new BackupError(
          `The database schema "${schema}" already holds tables: restore only into an empty database`,
        );
      }
    }
    await mkdir(data, { recursive: true });
    for (const f of manifest.files) {
      if (f.path === manifest.database && engine === 'postgres') continue;
      if (bucket && f.path.startsWith('files/')) {
        // Into the bucket, whichever store the backup was made from.
        await bucket.put(f.path.slice('files/'.length), createReadStream(path.join(dir, f.path)));
        continue;
      }
      const to = path.join(data, f.path);
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(path.join(dir, f.path), to);
    }
    let counts: TableCounts;
    if (client) {
      const schema = pgSchema(config);
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
      await run('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${config.databaseUrl!}`,
        path.join(dir, manifest.database),
      ]).catch(async (err: unknown) => {
        throw new BackupError(`pg_restore failed: ${(err as Error).message}`);
      });
      counts = await pgCounts(client, schema);
    } else {
      counts = sqliteCounts(path.join(data, manifest.database));
    }
    for (const t of countedTables) {
      if (counts[t] !== manifest.counts[t]) {
        throw new BackupError(`Restored ${counts[t]} ${t} rows, the manifest says ${manifest.counts[t]}`);
      }
    }
    return manifest;
  } catch (err) {
    // Leave the folder as empty as it was found: nothing half-restored to start a server on.
    if (engine === 'sqlite')
      for (const e of await readdir(data).catch(() => []))
        await rm(path.join(data, e), { recursive: true, force: true });
    if (bucket) for (const area of storedAreas) await bucket.deletePrefix(`${area}/`).catch(() => undefined);
    throw err;
  } finally {
    await client?.end();
    bucket?.close();
  }
}

/** The backups in a folder (sub-folders with a manifest), newest first. */
export async function listBackups(folder: string): Promise<Array<{ dir: string; createdAt: string }>> {
  if (!existsSync(folder)) return [];
  const out: Array<{ dir: string; createdAt: string }> = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(folder, entry.name);
    try {
      const m = JSON.parse(await readFile(path.join(dir, manifestName), 'utf8')) as BackupManifest;
      if (m.format === manifestFormat) out.push({ dir, createdAt: m.createdAt });
    } catch {
      // no manifest: partial or foreign
    }
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
