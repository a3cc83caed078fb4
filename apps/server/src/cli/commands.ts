/**
 * What the commands do: each opens the configuration, the database or the whole server in this
 * process. Loaded by main.ts only when a command runs, so help and usage errors answer at once.
 */
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  createUserSchema,
  formatZodError,
  roles as allRoles,
  taxonImportKinds,
  type TaxonImportKind,
} from '@bathylog/shared';
import { apiPrefix } from '../app.js';
import { ConfigError, isPostgres, type Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { randomAlphanumeric } from '../lib/random.js';
import { AppError } from '../lib/app-error.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { UsersService } from '../modules/users/users.service.js';
import { BackupError, createBackup, restoreBackup } from '../db/backup.js';
import { checkIntegrity } from '../db/integrity.js';
import { TaxaService } from '../modules/taxa/taxa.service.js';
import { createFileStore } from '../storage/index.js';
import { migrateFiles } from '../storage/migrate.js';
import { AuxManagersService } from '../modules/aux-managers/aux-managers.service.js';
import {
  CliError,
  UsageError,
  err,
  kinds,
  out,
  parseKind,
  type GlobalOptions,
  type Kind,
  type Values,
} from './cli-args.js';
import { adminToken, cliCaller, cliConfig, openCliApp, type CliApp } from './cli-context.js';

interface RunArgs {
  values: Values;
  positionals: string[];
  global: GlobalOptions;
}

/** An error the operator can act on (exit code 1, its message alone). */
export function isOperatorError(e: unknown): e is Error {
  return e instanceof CliError || e instanceof BackupError || e instanceof ConfigError || e instanceof AppError;
}

async function withApp<T>(global: GlobalOptions, fn: (cli: CliApp) => Promise<T>): Promise<T> {
  const cli = await openCliApp(global);
  try {
    return await fn(cli);
  } finally {
    await cli.close();
  }
}

/** Prints "label n/total" to stderr at most every 500 ms, and always the last time. */
function progress(label: string, total: number) {
  let last = 0;
  return (done: number, extra = '') => {
    const now = Date.now();
    if (done < total && now - last < 500) return;
    last = now;
    err(`${label}: ${done}/${total}${extra}`);
  };
}

// ---------------------------------------------------------------------------------------------
// Import / export (Sealog JSON, through the same routes scripts use)

/** The kind of a Sealog JSON record, told by its fields. */
function detectKind(record: Record<string, unknown>): Kind | null {
  if ('cruise_id' in record) return 'cruises';
  if ('lowering_id' in record) return 'lowerings';
  if ('event_value' in record) return 'events';
  if ('data_source' in record) return 'aux-data';
  return null;
}

const postPath: Record<Kind, string> = {
  cruises: '/cruises',
  lowerings: '/lowerings',
  events: '/events',
  'aux-data': '/event_aux_data',
};

/** The create body for one exported record: without the fields a create does not take; events marked not live. */
export function forCreate(kind: Kind, record: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...record };
  if (kind === 'events') {
    delete copy.aux_data;
    delete copy.cruise_id;
    delete copy.lowering_id;
    // History, not live logging, however recent (docs/wire.md#live-or-imported).
    copy.publish = false;
  }
  if (kind === 'cruises' || kind === 'lowerings') {
    const meta = `${kind.slice(0, -1)}_additional_meta`;
    const m = copy[meta];
    if (m && typeof m === 'object') {
      const { [`${kind.slice(0, -1)}_files`]: _files, ...rest } = m as Record<string, unknown>;
      copy[meta] = rest;
    }
  }
  return copy;
}

export async function importFile(global: GlobalOptions, file: string, kindOption: string | undefined): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new CliError(`Cannot read ${file} as JSON: ${(e as Error).message}`);
  }
  const records = (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
  if (records.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) {
    throw new CliError(`${file} must hold a JSON object or an array of objects (Sealog JSON)`);
  }
  const kind = kindOption ? parseKind(kindOption, '--kind') : records[0] ? detectKind(records[0]) : 'events';
  if (!kind) throw new CliError(`Cannot tell what ${file} holds; say it with --kind (${kinds.join(', ')})`);

  const failures: string[] = [];
  let created = 0;
  let present = 0;
  let auxCreated = 0;
  await withApp(global, async ({ app, ctx }) => {
    const token = await adminToken(ctx);
    const post = async (route: string, body: unknown) => {
      const res = await app.inject({
        method: 'POST',
        url: `${apiPrefix}${route}`,
        headers: { authorization: token, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      const parsedBody = res.body ? (res.json<{ message?: string }>() ?? {}) : {};
      return { status: res.statusCode, message: parsedBody.message ?? '' };
    };
    const show = progress(`Importing ${kind} from ${path.basename(file)}`, records.length);
    let next = 0;
    let done = 0;
    // A few requests in flight: the server's write path (group commit) gets company.
    const worker = async () => {
      while (next < records.length) {
        const index = next++;
        const record = records[index]!;
        const res = await post(postPath[kind], forCreate(kind, record));
        const isDuplicate = res.status === 400 && /duplicate/i.test(res.message);
        if (res.status === 201 || res.status === 204) created++;
        else if (isDuplicate) present++;
        else
          failures.push(
            `record ${index + 1}${record.id ? ` (${String(record.id)})` : ''}: ${res.status} ${res.message}`,
          );
        if (kind === 'events' && Array.isArray(record.aux_data) && (res.status === 201 || isDuplicate)) {
          for (const aux of record.aux_data as Array<Record<string, unknown>>) {
            const a = await post('/event_aux_data', { ...aux, event_id: aux.event_id ?? record.id });
            if (a.status === 201 || a.status === 204) auxCreated++;
            else failures.push(`aux data of record ${index + 1}: ${a.status} ${a.message}`);
          }
        }
        show(++done, failures.length ? ` (${failures.length} failed)` : '');
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  });
  out(
    `Imported ${created} ${kind}${kind === 'events' ? ` and ${auxCreated} aux data records` : ''}` +
      `${present ? `; ${present} were already there` : ''}${failures.length ? `; ${failures.length} failed` : ''}.`,
  );
  if (failures.length) {
    for (const f of failures.slice(0, 20)) err(`  ${f}`);
    if (failures.length > 20) err(`  … and ${failures.length - 20} more`);
    throw new CliError(`${failures.length} records could not be imported`);
  }
}

function exportPath(kind: Kind, values: Values): string {
  const cruise = values.cruise as string | undefined;
  const lowering = values.lowering as string | undefined;
  if (cruise && lowering) throw new UsageError('Give --cruise or --lowering, not both');
  const scope = cruise ? `bycruise/${cruise}` : lowering ? `bylowering/${lowering}` : null;
  switch (kind) {
    case 'cruises':
      if (cruise) return `/cruises/${cruise}`;
      if (lowering) return `/cruises/bylowering/${lowering}`;
      return '/cruises';
    case 'lowerings':
      if (lowering) return `/lowerings/${lowering}`;
      if (cruise) return `/lowerings/bycruise/${cruise}`;
      return '/lowerings';
    case 'events':
      return scope ? `/event_exports/${scope}` : '/event_exports';
    case 'aux-data':
      return scope ? `/event_aux_data/${scope}` : '/event_aux_data';
  }
}

export async function exportKind(global: GlobalOptions, kind: Kind, values: Values): Promise<void> {
  const route = exportPath(kind, values);
  const target = values.out as string | undefined;
  await withApp(global, async ({ app, ctx }) => {
    const token = await adminToken(ctx);
    const res = await app.inject({
      method: 'GET',
      url: `${apiPrefix}${route}`,
      headers: { authorization: token },
      payloadAsStream: true,
    });
    let body: Readable = res.stream();
    if (res.statusCode === 404) {
      // "No records found": an empty export, as a file that imports cleanly.
      body.resume();
      body = Readable.from(['[]']);
    } else if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString();
      let message = text;
      try {
        message = (JSON.parse(text) as { message: string }).message;
      } catch {
        // plain text
      }
      throw new CliError(`Export failed (${res.statusCode}): ${message}`);
    }
    let bytes = 0;
    let last = Date.now();
    const counter = async function* (source: AsyncIterable<Buffer | string>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        if (target && Date.now() - last > 1000) {
          last = Date.now();
          err(`Exporting ${kind}: ${(bytes / 1e6).toFixed(1)} MB`);
        }
        yield chunk;
      }
    };
    if (target) await pipeline(body, counter, createWriteStream(target));
    else await pipeline(body, counter, process.stdout, { end: false });
    if (target) err(`Exported ${kind} to ${target} (${(bytes / 1e6).toFixed(2)} MB).`);
  });
}

// ---------------------------------------------------------------------------------------------
// Configuration

const secretPaths = [
  ['secret'],
  ['adminPassword'],
  ['reCaptchaSecret'],
  ['smtp', 'password'],
  ['storage', 's3', 'secretAccessKey'],
];

/** The effective configuration with passwords and secrets replaced by "***". */
export function maskedConfig(config: Config): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  for (const keys of secretPaths) {
    let node = copy;
    for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
    const last = keys.at(-1)!;
    if (node[last] !== null && node[last] !== undefined) node[last] = '***';
  }
  if (typeof copy.databaseUrl === 'string') {
    try {
      const url = new URL(copy.databaseUrl);
      if (url.password) url.password = '***';
      copy.databaseUrl = url.toString();
    } catch {
      copy.databaseUrl = '***';
    }
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------
// The other commands

export async function backup({ positionals, global }: RunArgs): Promise<void> {
  const config = cliConfig(global);
  const started = Date.now();
  const manifest = await createBackup(config, positionals[0]!);
  const c = manifest.counts;
  out(
    `Backup written to ${path.resolve(positionals[0]!)} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${c.cruises} cruises, ${c.lowerings} lowerings, ${c.events} events, ${c.event_aux_data} aux data, ` +
      `${c.users} users, ${manifest.files.length} files.`,
  );
}

export async function restore({ positionals, global }: RunArgs): Promise<void> {
  const config = cliConfig(global);
  const manifest = await restoreBackup(config, positionals[0]!);
  const c = manifest.counts;
  out(
    `Restored the backup of ${manifest.createdAt} into ${config.dataDir}` +
      `${isPostgres(config) ? ' and the PostgreSQL database' : ''}: ${c.cruises} cruises, ` +
      `${c.lowerings} lowerings, ${c.events} events, ${c.event_aux_data} aux data.`,
  );
}

export async function storageMigrate({ values, global }: RunArgs): Promise<void> {
  const to = values.to as string | undefined;
  if (to !== 's3' && to !== 'local') throw new UsageError('--to must be s3 or local');
  const config = cliConfig(global);
  if (!config.storage.s3.bucket) {
    throw new CliError('No bucket configured: set BATHYLOG_S3_BUCKET (and the endpoint and credentials) first');
  }
  const local = createFileStore({ ...config.storage, backend: 'local' }, config.dataDir);
  const bucket = createFileStore({ ...config.storage, backend: 's3' }, config.dataDir);
  const [source, target] = to === 's3' ? [local, bucket] : [bucket, local];
  const folder = path.join(config.dataDir, 'storage-migrate');
  try {
    await target.check();
    const report = await migrateFiles({
      source,
      target,
      journal: path.join(folder, `journal-${to}.jsonl`),
      onFile: (done, total) => {
        if (done === total || done % 50 === 0) err(`Copying files to ${target.description}: ${done}/${total}`);
      },
    });
    await writeFile(path.join(folder, `report-${to}.json`), JSON.stringify(report, null, 2));
    out(
      `${report.files} files in ${report.from}: ${report.copied} copied and verified, ${report.alreadyThere} already ` +
        `in ${report.to}, ${report.replaced} replaced, ${report.failed.length} failed (${report.seconds} s).`,
    );
    for (const f of report.failed) out(`  failed: ${f.key}: ${f.reason}`);
    if (report.failed.length > 0) {
      throw new CliError(`${report.failed.length} files were not copied: run the command again to retry them`);
    }
  } finally {
    local.close();
    bucket.close();
  }
}

export async function createUser({ values, global }: RunArgs): Promise<void> {
  const username = values.username as string | undefined;
  if (!username) throw new UsageError('--username is required');
  if (values.password === undefined) throw new UsageError('--password is required');
  if (values.admin && values.roles) throw new UsageError('Give --admin or --roles, not both');
  // Every role but guest: an admin is never offered as a guest account on the login page.
  const roles = values.admin
    ? allRoles.filter((r) => r !== 'guest')
    : values.roles
      ? String(values.roles)
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
      : ['event_watcher', 'event_logger'];
  const parsed = createUserSchema.safeParse({
    username,
    password: values.password,
    fullname: values.fullname ?? username,
    email: values.email ?? `${username}@localhost.localdomain`,
    roles,
  });
  if (!parsed.success) throw new UsageError(formatZodError(parsed.error));
  await withApp(global, async ({ ctx }) => {
    const id = await new UsersService(ctx).create(await cliCaller(ctx), parsed.data);
    out(`Created user ${username} (${id}) with roles ${roles.join(', ')}.`);
  });
}

export async function resetPassword({ values, positionals, global }: RunArgs): Promise<void> {
  const username = positionals[0]!;
  const password = (values.password as string | undefined) ?? randomAlphanumeric(16);
  if (password.length > 50) throw new UsageError('--password: at most 50 characters');
  await withApp(global, async ({ ctx }) => {
    const user = await new UsersRepository(ctx.database.db).findByUsername(username);
    if (!user) throw new CliError(`No user named ${username}`);
    const caller = await cliCaller(ctx);
    // The CLI must not count as the user itself (owners may not re-enable themselves).
    const actor = caller.user.id === user.id ? { ...caller, user: { ...caller.user, id: 'bathylog-cli' } } : caller;
    await new UsersService(ctx).update(actor, user.id, { password, ...(values.enable ? { disabled: false } : {}) });
    out(
      values.password
        ? `The password of ${username} has been changed.`
        : `The new password of ${username} is: ${password}`,
    );
  });
}

export async function check({ global }: RunArgs): Promise<void> {
  const config = cliConfig(global);
  const file = path.join(config.dataDir, 'bathylog.sqlite');
  if (!isPostgres(config) && !existsSync(file)) throw new CliError(`No database in ${config.dataDir}`);
  const database = openDatabase({
    url: config.databaseUrl,
    sqlitePath: file,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    poolSize: 1,
  });
  try {
    const report = await checkIntegrity(database);
    for (const c of report.checks) out(`checked: ${c}`);
    for (const p of report.problems) out(`PROBLEM: ${p}`);
    if (!report.ok) throw new CliError(`${report.problems.length} integrity problems found`);
    out('The database is intact.');
  } finally {
    await database.close();
  }
}

export async function printConfig({ global }: RunArgs): Promise<void> {
  out(JSON.stringify(maskedConfig(cliConfig(global)), null, 2));
}

// ---------------------------------------------------------------------------------------------
// Taxonomy (docs/taxa.md#importing): the same service as POST /taxa/imports and /taxa/fetch

const dwcFiles: Array<[string, TaxonImportKind]> = [
  ['taxon.txt', 'dwc-taxon'],
  ['vernacularname.txt', 'dwc-vernacular'],
  ['speciesprofile.txt', 'dwc-speciesprofile'],
];

/** The kind of a taxonomy file, told by its name (a WoRMS export's file names, .csv, .json). */
function taxonFileKind(file: string): TaxonImportKind | null {
  const base = path.basename(file).toLowerCase();
  const dwc = dwcFiles.find(([name]) => name === base);
  if (dwc) return dwc[1];
  if (base.endsWith('.csv')) return 'csv';
  if (base.endsWith('.json')) return 'json';
  return null;
}

export async function taxaImport({ values, positionals, global }: RunArgs): Promise<void> {
  const kindOption = values.kind as string | undefined;
  if (kindOption !== undefined && !(taxonImportKinds as readonly string[]).includes(kindOption))
    throw new UsageError(`--kind must be one of ${taxonImportKinds.join(', ')}`);
  const names = ((values.fetch as string | undefined) ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (positionals.length === 0 && names.length === 0)
    throw new UsageError('Name a WoRMS export folder, taxonomy files, or --fetch <names>');
  // A folder is a WoRMS Darwin Core export: its three files, taxa first.
  const files: Array<[string, TaxonImportKind]> = [];
  for (const given of positionals) {
    if (!existsSync(given)) throw new CliError(`${given} does not exist`);
    if (statSync(given).isDirectory()) {
      const found = dwcFiles.filter(([name]) => existsSync(path.join(given, name)));
      if (found.length === 0) throw new CliError(`${given} holds no taxon.txt (a WoRMS Darwin Core export, unzipped)`);
      for (const [name, kind] of found) files.push([path.join(given, name), kind]);
    } else {
      const kind = (kindOption as TaxonImportKind | undefined) ?? taxonFileKind(given);
      if (!kind)
        throw new CliError(`Cannot tell what ${given} holds; say it with --kind (${taxonImportKinds.join(', ')})`);
      files.push([given, kind]);
    }
  }
  const source = values.source as string | undefined;
  await withApp(global, async ({ ctx }) => {
    const service = new TaxaService(ctx);
    const caller = await cliCaller(ctx);
    for (const [file, kind] of files) {
      const size = statSync(file).size;
      const show = progress(`Importing ${kind} from ${path.basename(file)} (bytes)`, size);
      let read = 0;
      const input =
        kind === 'json'
          ? { json: JSON.parse(await readFile(file, 'utf8')) as unknown }
          : {
              stream: createReadStream(file).on('data', (chunk) => {
                read += chunk.length;
                show(read);
              }),
            };
      try {
        const done = await service.import(caller, kind, source, input);
        if (read < size) show(size);
        out(`${path.basename(file)}: ${done.taxa} taxa, ${done.vernaculars} vernacular names (${done.source}).`);
        if (done.message) err(`  ${done.message}`);
      } catch (e) {
        if (e instanceof AppError) throw new CliError(`${path.basename(file)}: ${e.message}`);
        throw e;
      }
    }
    if (names.length > 0) {
      try {
        const fetched = await service.fetchFromWorms(caller, names);
        for (const f of fetched.found)
          out(`${f.name}: ${f.aphia_ids.length ? `AphiaID ${f.aphia_ids.join(', ')}` : 'not found in WoRMS'}`);
        out(`Fetched ${fetched.taxa} taxa with their ancestors (${fetched.source}).`);
      } catch (e) {
        if (e instanceof AppError) throw new CliError(e.message);
        throw e;
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Aux-data backfill (docs/aux-managers.md#backfill)

const list = (v: unknown) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function auxBackfill({ values, global }: RunArgs): Promise<void> {
  const named = ['events', 'lowering', 'cruise'].filter((k) => values[k] !== undefined);
  if (named.length !== 1) throw new UsageError('Give exactly one of --events, --lowering, --cruise');
  await withApp(global, async ({ ctx }) => {
    const service = new AuxManagersService(ctx);
    const managers = await service.list();
    let managerIds: string[] | undefined;
    if (values.managers !== undefined) {
      managerIds = list(values.managers).map((name) => {
        const found = managers.find((m) => m.name === name);
        if (!found)
          throw new CliError(`No aux-data manager named ${name} (known: ${managers.map((m) => m.name).join(', ')})`);
        return found.id;
      });
    }
    const body = {
      ...(values.events !== undefined ? { event_ids: list(values.events) } : {}),
      ...(values.lowering !== undefined
        ? { lowering_id: await service.recordId('lowering', String(values.lowering)) }
        : {}),
      ...(values.cruise !== undefined ? { cruise_id: await service.recordId('cruise', String(values.cruise)) } : {}),
      ...(managerIds ? { manager_ids: managerIds } : {}),
      dry_run: !values.run,
    };
    if (body.event_ids?.some((id) => !/^[0-9a-f]{24}$/i.test(id)))
      throw new UsageError('--events takes 24-hex event ids');
    const result = await service.backfill(body);
    for (const row of result.rows)
      out(
        `${row.ts}  ${row.event_id}  ${row.event_value.padEnd(12)}  ${row.manager}: ${row.outcome}${row.message ? ` (${row.message})` : ''}`,
      );
    const totals = Object.entries(result.totals)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    out(
      `${result.dry_run ? 'Dry run (nothing written; --run writes)' : 'Backfilled'}: ${result.events} events; ${totals || 'no managers'}.`,
    );
  });
}
