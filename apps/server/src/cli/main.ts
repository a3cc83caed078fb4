import { parseArgs, type ParseArgsConfig } from 'node:util';
import { roles as allRoles } from '@bathylog/shared/roles';
import { UsageError, err, out, parseKind, type GlobalOptions, type Values } from './cli-args.js';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Longer help: what it does, what it needs. */
  details: string;
  options: Options;
  optionHelp: Array<[string, string]>;
  positionals: { min: number; max: number };
  run(args: { values: Values; positionals: string[]; global: GlobalOptions }): Promise<void>;
}

const globalOptions: Options = {
  data: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
const globalHelp: Array<[string, string]> = [
  ['--data <folder>', 'the data folder (default: BATHYLOG_DATA, else ./data)'],
  ['--config <file>', 'a JSON configuration file (as BATHYLOG_CONFIG)'],
  ['-h, --help', 'this help'],
];

/** The commands' code, with the server it opens: loaded only when a command runs. */
const load = () => import('./commands.js');

const commands: Command[] = [
  {
    name: 'backup',
    summary: 'write a consistent backup of the database and the file store',
    usage: 'backup <dir>',
    details:
      'Safe while the server runs and takes events. <dir> must be new or empty. SQLite: a snapshot made\n' +
      'with VACUUM INTO; PostgreSQL: pg_dump (needs the PostgreSQL client tools). The file store and the\n' +
      'secret are copied, and manifest.json (row counts, sha256 of every file) is written last.',
    options: {},
    optionHelp: [],
    positionals: { min: 1, max: 1 },
    run: async (args) => (await load()).backup(args),
  },
  {
    name: 'restore',
    summary: 'restore a backup into an empty data folder',
    usage: 'restore <dir>',
    details:
      'Checks the backup first (manifest, every checksum) and refuses a damaged or partial one. The data\n' +
      'folder must be empty or missing; for PostgreSQL the database (schema) must hold no tables.\n' +
      'Start the server on the restored folder afterwards.',
    options: {},
    optionHelp: [],
    positionals: { min: 1, max: 1 },
    run: async (args) => (await load()).restore(args),
  },
  {
    name: 'storage-migrate',
    summary: 'copy the files from the data folder to the S3 bucket, or back (resumable, verified)',
    usage: 'storage-migrate --to s3|local',
    details:
      'Copies every file (images and thumbnails, cruise and lowering files) between <data>/files and the\n' +
      'bucket the storage.s3 settings name, checks each copy by sha256 and journals it, so a run that\n' +
      'stops resumes where it stopped. The source is left as it is. Run it while the server runs, then\n' +
      'stop the server, run it again (only new files are copied), set BATHYLOG_STORAGE and start.\n' +
      'Writes a report (counts, failures) to stdout and <data>/storage-migrate/report-<to>.json;\n' +
      'exits with 1 when a file failed.',
    options: { to: { type: 'string' } },
    optionHelp: [['--to <s3|local>', 'where the files go']],
    positionals: { min: 0, max: 0 },
    run: async (args) => (await load()).storageMigrate(args),
  },
  {
    name: 'user create',
    summary: 'create a user',
    usage: 'user create --username <name> --password <password> [--admin | --roles <r1,r2>]',
    details: `Roles: ${allRoles.join(', ')}. Without --roles or --admin: event_watcher, event_logger.`,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      fullname: { type: 'string' },
      email: { type: 'string' },
      roles: { type: 'string' },
      admin: { type: 'boolean' },
    },
    optionHelp: [
      ['--username <name>', 'required'],
      ['--password <password>', 'required'],
      ['--fullname <name>', 'default: the username'],
      ['--email <address>', 'default: <username>@localhost.localdomain'],
      ['--roles <r1,r2>', 'comma separated roles'],
      ['--admin', 'all roles, admin included'],
    ],
    positionals: { min: 0, max: 0 },
    run: async (args) => (await load()).createUser(args),
  },
  {
    name: 'user reset-password',
    summary: 'set a new password (for a lost admin password)',
    usage: 'user reset-password <username> [--password <password>] [--enable]',
    details:
      'Without --password a random one is made and printed. The user is signed out of every browser\n' +
      'session. --enable also re-enables a disabled user.',
    options: { password: { type: 'string' }, enable: { type: 'boolean' } },
    optionHelp: [
      ['--password <password>', 'the new password (default: a random one, printed)'],
      ['--enable', 're-enable the user if disabled'],
    ],
    positionals: { min: 1, max: 1 },
    run: async (args) => (await load()).resetPassword(args),
  },
  {
    name: 'import',
    summary: 'import cruises, lowerings, events or aux data from Sealog JSON',
    usage: 'import <file.json> [--kind cruises|lowerings|events|aux-data]',
    details:
      'The file holds an array of records as Sealog exports them (ids are kept; records already present\n' +
      'are skipped). Events may carry their aux_data (event_exports format). The kind is told from the\n' +
      'fields unless --kind says it. Progress goes to stderr.',
    options: { kind: { type: 'string' } },
    optionHelp: [['--kind <kind>', 'cruises, lowerings, events or aux-data']],
    positionals: { min: 1, max: 1 },
    run: async ({ values, positionals, global }) =>
      (await load()).importFile(global, positionals[0]!, values.kind as string | undefined),
  },
  {
    name: 'taxa-import',
    summary: 'import taxa: a WoRMS Darwin Core export, a CSV/JSON subset, or names fetched from WoRMS',
    usage: 'taxa-import [<folder> | <file>...] [--kind <kind>] [--source <label>] [--fetch <name,name>]',
    details:
      'A folder is an unzipped WoRMS Darwin Core export: its taxon.txt, vernacularname.txt and\n' +
      'speciesprofile.txt are read in that order. The kind of a file is told from its name (those three,\n' +
      '.csv, .json) unless --kind says it. --fetch asks the WoRMS REST service (BATHYLOG_WORMS_URL) for the\n' +
      'names with all their ancestors. Records of the same AphiaID are replaced. Progress goes to stderr.',
    options: { kind: { type: 'string' }, source: { type: 'string' }, fetch: { type: 'string' } },
    optionHelp: [
      ['--kind <kind>', 'dwc-taxon, dwc-vernacular, dwc-speciesprofile, csv or json'],
      ['--source <label>', 'the version kept with each record (default: the kind and today)'],
      ['--fetch <names>', 'comma separated scientific names to fetch from WoRMS'],
    ],
    positionals: { min: 0, max: 20 },
    run: async (args) => (await load()).taxaImport(args),
  },
  {
    name: 'export',
    summary: 'export cruises, lowerings, events (with aux data) or aux data as Sealog JSON',
    usage: 'export <cruises|lowerings|events|aux-data> [--cruise <id> | --lowering <id>] [--out <file>]',
    details: 'Writes to stdout unless --out is given. Events are exported with their aux data (event_exports).',
    options: { cruise: { type: 'string' }, lowering: { type: 'string' }, out: { type: 'string' } },
    optionHelp: [
      ['--cruise <id>', 'only this cruise (its events, lowerings, aux data)'],
      ['--lowering <id>', 'only this lowering'],
      ['--out <file>', 'write to a file (progress on stderr)'],
    ],
    positionals: { min: 1, max: 1 },
    run: async ({ values, positionals, global }) =>
      (await load()).exportKind(global, parseKind(positionals[0], 'The kind'), values),
  },
  {
    name: 'dwca',
    summary: 'the Darwin Core Archive of a lowering or a cruise, validated (OBIS, GBIF)',
    usage: 'dwca <lowering|cruise> <id or name> [--out <file.zip>] [--report <file.json>] [--force]',
    details:
      'Builds the archive, runs the validator and prints its report on stderr; writes the zip only when it\n' +
      'validates (or with --force). The file name defaults to <cruise>_<dive>_dwca.zip (docs/publication.md).',
    options: { out: { type: 'string' }, report: { type: 'string' }, force: { type: 'boolean' } },
    optionHelp: [
      ['--out <file.zip>', 'where to write the archive'],
      ['--report <file.json>', "also write the validator's report as JSON"],
      ['--force', 'write the archive even when the validator finds errors'],
    ],
    positionals: { min: 2, max: 2 },
    run: async ({ values, positionals, global }) =>
      (await import('./publication-commands.js')).dwca(global, positionals[0]!, positionals[1]!, values),
  },
  {
    name: 'check',
    summary: "check the database's integrity",
    usage: 'check',
    details:
      'SQLite: integrity_check, foreign keys and the full-text index. PostgreSQL: amcheck on every index\n' +
      'when the extension is installed. Both: aux data belongs to events, the search index covers every\n' +
      'event. Exit code 1 when a problem is found.',
    options: {},
    optionHelp: [],
    positionals: { min: 0, max: 0 },
    run: async (args) => (await load()).check(args),
  },
  {
    name: 'aux-backfill',
    summary: "stamp past events with the aux-data managers' data (dry run unless --run)",
    usage: 'aux-backfill (--events <id,id,...> | --lowering <id> | --cruise <id>) [--managers <name,...>] [--run]',
    details:
      "Like Sealog's aux_data_manager_runner -e/-l/-c: every named event through the enabled managers (or\n" +
      'those named). Without --run nothing is written: each event and manager is listed with what a run\n' +
      'would do (written, unchanged, no_data, stale, not_backfillable, excluded, external, error). A second\n' +
      'run writes nothing new. --lowering and --cruise take the record id or its name (S0492).',
    options: {
      events: { type: 'string', short: 'e' },
      lowering: { type: 'string', short: 'l' },
      cruise: { type: 'string', short: 'c' },
      managers: { type: 'string' },
      run: { type: 'boolean' },
    },
    optionHelp: [
      ['-e, --events <ids>', 'comma-separated event ids'],
      ['-l, --lowering <id>', "a lowering's id or name"],
      ['-c, --cruise <id>', "a cruise's id or name"],
      ['--managers <names>', 'comma-separated manager names (default: every enabled one)'],
      ['--run', 'write (default: a dry run)'],
    ],
    positionals: { min: 0, max: 0 },
    run: async (args) => (await load()).auxBackfill(args),
  },
  {
    name: 'config',
    summary: 'print the effective configuration (secrets masked)',
    usage: 'config',
    details: 'Defaults, then the BATHYLOG_CONFIG file, then environment variables, as the server reads them.',
    options: {},
    optionHelp: [],
    positionals: { min: 0, max: 0 },
    run: async (args) => (await load()).printConfig(args),
  },
];

function commandHelp(c: Command): string {
  const rows = [...c.optionHelp, ...globalHelp];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `Usage: bathylog ${c.usage}`,
    '',
    `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
    c.details,
    '',
    'Options:',
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
  ].join('\n');
}

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: bathylog <command> [options]',
    '',
    'The Bathylog operator CLI. It reads the same configuration as the server (BATHYLOG_CONFIG,',
    'environment variables such as BATHYLOG_DATA and DATABASE_URL).',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `bathylog <command> --help` for a command's options.",
  ].join('\n');
}

/** Runs the CLI on argv (without node and the script); returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  if (argv.length === 0 || (argv.length === 1 && ['-h', '--help', 'help'].includes(argv[0]!))) {
    (argv.length === 0 ? err : out)(mainHelp());
    return argv.length === 0 ? 2 : 0;
  }
  const two = argv.slice(0, 2).join(' ');
  const command = commands.find((c) => c.name === two) ?? commands.find((c) => c.name === argv[0]);
  if (!command) {
    const group = commands.filter((c) => c.name.startsWith(`${argv[0]} `));
    if (group.length && (argv.length === 1 || ['-h', '--help'].includes(argv[1]!))) {
      (argv.length === 1 ? err : out)(`Usage:\n${group.map((c) => `  bathylog ${c.usage}`).join('\n')}`);
      return argv.length === 1 ? 2 : 0;
    }
    err(`bathylog: unknown command "${group.length ? two : argv[0]}"\n\n${mainHelp()}`);
    return 2;
  }
  const rest = argv.slice(command.name.split(' ').length);
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { ...globalOptions, ...command.options },
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] });
  } catch (e) {
    err(`bathylog ${command.name}: ${(e as Error).message}\nUsage: bathylog ${command.usage} (see --help)`);
    return 2;
  }
  if (values.help) {
    out(commandHelp(command));
    return 0;
  }
  const global: GlobalOptions = {
    data: values.data as string | undefined,
    config: values.config as string | undefined,
  };
  try {
    if (positionals.length < command.positionals.min) throw new UsageError('missing argument');
    if (positionals.length > command.positionals.max) {
      throw new UsageError(`unexpected argument "${positionals[command.positionals.max]}"`);
    }
    await command.run({ values, positionals, global });
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err(`bathylog ${command.name}: ${e.message}\nUsage: bathylog ${command.usage} (see --help)`);
      return 2;
    }
    if ((await load()).isOperatorError(e)) {
      err(`bathylog ${command.name}: ${e.message}`);
      return 1;
    }
    err(`bathylog ${command.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  }
}
