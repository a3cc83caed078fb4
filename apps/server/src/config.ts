import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { clientSettingsSchema, configureZodMessages, pathLabel, roles } from '@bathylog/shared';

/**
 * One typed configuration object. Sources, later wins: defaults, the JSON file named by
 * BATHYLOG_CONFIG, environment variables. An invalid value stops start-up with its key named.
 */
const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
const int = (min: number) => z.coerce.number().int().min(min);

/**
 * A proxy whose X-Forwarded-For is believed: an address, an address/prefix (or IPv4 netmask), or
 * one of the names `loopback`, `linklocal`, `uniquelocal`.
 */
export function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', range, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/** An S3 endpoint: http(s), a host and maybe a port, nothing else (credentials never go in a URL). */
function isPlainHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      !url.username &&
      !url.password &&
      (url.pathname === '/' || url.pathname === '') &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}

export const configSchema = z.strictObject({
  port: int(0).max(65535).default(8000),
  host: z.string().default('0.0.0.0'),
  mode: z.enum(['demo', 'production']).default('production'),
  dataDir: z.string().default('./data'),
  databaseUrl: z.string().nullable().default(null),
  /** PostgreSQL schema for the tables (created when missing); default: the connection's search_path. */
  databaseSchema: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain SQL identifier')
    .nullable()
    .default(null),
  /** SQLite commit durability (docs/storage.md): `full` makes every acknowledged write survive a power cut. */
  sqliteSynchronous: z.enum(['full', 'normal', 'extra']).default('full'),
  /**
   * bcrypt cost of passwords stored from now on (docs/security.md#password-hashes): 10 as Sealog; each
   * step up doubles a login's CPU. Stored hashes keep their own cost.
   */
  passwordHashCost: int(4).max(14).default(10),
  /** JWT secret; when unset a random one is kept in <data>/secret. */
  secret: z.string().nullable().default(null),
  adminPassword: z.string().nullable().default(null),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Folder with the built client; served at `/` when it exists. */
  webDir: z.string().nullable().default(null),
  publicUrl: z.string().nullable().default(null),
  /**
   * Taxa (docs/taxa.md#fetching-from-worms): the WoRMS REST service records are fetched from by name
   * where the ship is online. Only an admin's fetch calls it; nothing else leaves the ship.
   */
  worms: z
    .strictObject({
      url: z
        .string()
        .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s) URL')
        .default('https://www.marinespecies.org/rest'),
      timeoutMs: int(100).default(15000),
    })
    .prefault({}),
  useAccessControl: bool.default(false),
  /**
   * Navigation aux sources for exports with `use_renav=true` (docs/sealog-clients.md#exports-with-renav):
   * an event holding a record of a `sources` entry (post-processed) exports it without its
   * `realtimeSources` records.
   */
  renav: z
    .strictObject({
      sources: z.array(z.string().min(1)).default(['vehicleReNavData']),
      realtimeSources: z.array(z.string().min(1)).default(['vehicleRealtimeNavData']),
    })
    .prefault({}),
  /** The public archive: anonymous visitors browse public cruises and dives read-only (docs/public-archive.md). */
  publicArchive: bool.default(false),
  /**
   * With the archive on, the roles whose holders read as they would without it (access lists
   * decide); every other non-admin caller reads the archive (docs/public-archive.md#who-reads-the-archive).
   * None by default: the guest and self-registered users must never be granted by a default.
   */
  archiveReaderRoles: z.array(z.enum(roles)).default([]),
  registration: z
    .strictObject({
      disabled: bool.default(false),
      roles: z.array(z.string()).min(1).default(['event_watcher', 'event_logger']),
    })
    .prefault({}),
  reCaptchaSecret: z.string().nullable().default(null),
  smtp: z
    .strictObject({
      host: z.string().nullable().default(null),
      port: int(1).max(65535).default(587),
      secure: bool.default(false),
      user: z.string().nullable().default(null),
      password: z.string().nullable().default(null),
      from: z.string().default('bathylog@localhost'),
      notify: z.array(z.string()).default([]),
    })
    .prefault({}),
  loginRateLimit: z
    .strictObject({
      /**
       * Failed logins a username may have from one address before each further try waits (1 s,
       * doubling); an address failing on twice as many usernames waits too (docs/security.md).
       */
      max: int(1).default(10),
      /** The longest of those waits. */
      windowSeconds: int(1).default(300),
    })
    .prefault({}),
  /**
   * Browser sessions (docs/security.md#browser-session): expire after the lifetime, renewed while
   * the client is used.
   */
  sessions: z
    .strictObject({
      lifetimeSeconds: int(60).default(7 * 24 * 60 * 60),
      /** A session token older than this is replaced by a fresh one on the next request. */
      renewAfterSeconds: int(0).default(60 * 60),
      /**
       * The client is embedded in frames of other sites (login-with-token): over https the session
       * cookie is then SameSite=None, else Lax.
       */
      embedded: bool.default(false),
    })
    .prefault({}),
  /**
   * Write requests (POST, PUT, PATCH, DELETE) per minute; 0 = no limit. `perAddress` counts only
   * writes that name no caller (login, register, password reset); `perKey` counts authenticated
   * writes per device key, or per user for a token, and is off by default: an import or a bot
   * posts one event per request and every one of them must be stored.
   */
  writeRateLimit: z
    .strictObject({
      perKey: int(0).default(0),
      perAddress: int(0).default(120),
    })
    .prefault({}),
  /**
   * Reverse proxies in front of the server (addresses or CIDR ranges). Only a request that comes
   * from one of them has its client address taken from X-Forwarded-For; from anywhere else the
   * header is ignored, so no client can choose the address that limits and logs record.
   */
  trustProxy: z
    .array(z.string().refine(isProxyAddress, 'must be an IP address, a CIDR range, loopback, linklocal or uniquelocal'))
    .default([]),
  /**
   * Origins (scheme://host[:port]) of the clients allowed to act with the session cookie: open the
   * websocket with it (the original Sealog client) and write. The server's own origin is always
   * allowed; Bearer callers need no entry.
   */
  allowedOrigins: z
    .array(z.string().regex(/^https?:\/\/[^/\s]+$/, 'must be an origin like https://host:port'))
    .default([]),
  /**
   * The Content-Security-Policy of the client's pages (docs/security.md, "Web client"):
   * `frameAncestors` are the origins (scheme://host[:port]) of pages allowed to embed the client
   * besides `client.loginWithTokenOrigins`; `extraOrigins` are sources added to the policy's
   * img-src and connect-src (tile servers named only in an overlay list fetched at run time).
   */
  contentSecurityPolicy: z
    .strictObject({
      frameAncestors: z
        .array(z.string().regex(/^https?:\/\/[^/\s;,'"]+$/, 'must be an origin like https://host:port'))
        .default([]),
      extraOrigins: z
        .array(
          z
            .string()
            .regex(
              /^(?:[a-z][a-z0-9+.-]*:\/\/)?[A-Za-z0-9.\-*[\]:_]+$/i,
              'must be an origin like https://tiles.example.org',
            ),
        )
        .default([]),
    })
    .prefault({}),
  /**
   * Exports, CSV and full event lists: how many run at once, and how many may wait (per caller and
   * in all) before the next is answered 503 with Retry-After.
   */
  heavyReads: z
    .strictObject({
      concurrent: int(1).default(2),
      queuePerCaller: int(0).default(1000),
      queueTotal: int(0).default(4000),
    })
    .prefault({}),
  uploadLimitMb: z.coerce.number().positive().default(20),
  bodyLimitMb: z.coerce.number().positive().default(1),
  /** Free-space monitor period (docs/wire.md#free-space-monitor); 0 turns the monitor off. */
  freeSpaceIntervalSeconds: int(0).default(60),
  /**
   * How often the automatic items of open checklist runs are re-evaluated (docs/checklists.md#conditions),
   * besides at once on every custom-var change; 0 turns the periodic pass off.
   */
  checklistIntervalSeconds: int(0).default(5),
  /**
   * Scheduled backups (docs/storage.md#backups), run by the server; 0 minutes = off. `bathylog
   * backup` works regardless.
   */
  backups: z
    .strictObject({
      /** Where backups go (one sub-folder each); default <data>/backups. */
      folder: z.string().nullable().default(null),
      /** Fractions allowed (0.1 = every 6 s: the several-hosts test counts backups in seconds). */
      intervalMinutes: z.coerce.number().min(0).default(0),
      /** How many scheduled backups to keep; older ones are deleted after a successful backup. */
      keep: int(1).default(7),
    })
    .prefault({}),
  /**
   * Where files live (docs/storage.md#files): the local folder `<data>/files` (the default), or
   * an S3-compatible bucket, never public: the server serves every file after its own checks.
   */
  storage: z
    .strictObject({
      backend: z.enum(['local', 's3']).default('local'),
      s3: z
        .strictObject({
          /** `http(s)://host[:port]` of an S3-compatible server (MinIO, Ceph …); null for AWS. */
          endpoint: z
            .string()
            .refine(isPlainHttpUrl, 'must be an http(s):// address without credentials, path or query')
            .nullable()
            .default(null),
          region: z.string().min(1).default('us-east-1'),
          bucket: z
            .string()
            .regex(
              /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
              'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)',
            )
            .nullable()
            .default(null),
          /** Prepended to every object key, e.g. `fleet/` (a missing final `/` is added). */
          prefix: z
            .string()
            .regex(/^(?:[A-Za-z0-9._-]+\/?)*$/, 'must be plain names separated by "/", with no leading "/"')
            .default(''),
          /** Path-style addresses (`endpoint/bucket/key`), as MinIO and most self-hosted servers need. */
          pathStyle: bool.default(false),
          accessKeyId: z.string().nullable().default(null),
          secretAccessKey: z.string().nullable().default(null),
          /** A JSON file `{"accessKeyId": …, "secretAccessKey": …}`, read at start (kept out of the config file). */
          credentialsFile: z.string().nullable().default(null),
          partSizeMb: z.coerce.number().min(5).max(5120).default(8),
          timeoutSeconds: int(1).default(30),
        })
        .prefault({}),
    })
    .prefault({}),
  /**
   * Ship-to-shore replication (docs/ship-to-shore.md): the bandwidth cap (kbit/s) a newly added
   * ship gets (null: none), and how often a follower asks for changes while nothing arrives.
   */
  sync: z
    .strictObject({
      bandwidthKbps: int(1).nullable().default(null),
      pollIntervalMs: int(50).default(2000),
      /** The longest a caught-up follower's request waits on this server for the next change. */
      maxWaitSeconds: int(0).default(25),
      /**
       * Whether a ship's address may be loopback or link-local (this machine, cloud metadata):
       * refused by default (docs/security.md#a-followed-ship); tests and benches on one machine allow it.
       */
      allowPrivateHosts: bool.default(false),
    })
    .prefault({}),
  /**
   * Video recordings (docs/video.md): the ffmpeg and ffprobe commands, how many frame grabs run at
   * once (a lowering-wide job uses all but one), their time-out, the frame cache's size, and the
   * folder (under the data folder) whose new recordings register themselves by their names.
   */
  video: z
    .strictObject({
      ffmpeg: z.string().min(1).default('ffmpeg'),
      ffprobe: z.string().min(1).default('ffprobe'),
      framegrabConcurrency: int(1).max(32).default(2),
      framegrabTimeoutMs: int(100).default(15000),
      frameCacheMb: int(1).default(256),
      watchFolder: z.string().nullable().default(null),
      watchIntervalSeconds: int(1).default(5),
    })
    .prefault({}),
  asnap: z
    .strictObject({
      enabled: bool.default(true),
      intervalSeconds: int(1).default(10),
      /** Quiet while another source's ASNAP events arrived within this many seconds. */
      externalQuietSeconds: int(1).default(60),
    })
    .prefault({}),
  /**
   * Data completeness (docs/completeness.md): the aux-data sources every event must carry (empty:
   * completeness off, every event complete), how long after an event's time its aux data may take
   * to arrive, and the largest `data_age` (seconds) a source's sample may have before it is stale.
   * A lowering may name its own sources in `lowering_additional_meta.required_aux_sources`.
   */
  completeness: z
    .strictObject({
      requiredAuxSources: z.array(z.string()).default([]),
      graceSeconds: z.coerce.number().min(0).default(10),
      maxAgeSeconds: z.coerce.number().positive().default(30),
    })
    .prefault({}),
  /**
   * Built-in aux-data managers (docs/aux-managers.md): `file` names a YAML file of managers read at start (a
   * vessel's ported Sealog configurations); each manager works `concurrency` requests at once from a queue of at
   * most `queueLimit` events; its source is probed every `probeSeconds`, and a source failing for
   * `errorAfterSeconds` turns from stale to error; with `alarmEvents` a change of a
   * manager's state logs an AUX_SOURCE_ALARM event, at most one per manager every `alarmIntervalSeconds`.
   */
  auxManagers: z
    .strictObject({
      /** Off: no manager runs in this process (the CLI; a server that must not stamp events). */
      enabled: bool.default(true),
      file: z.string().nullable().default(null),
      concurrency: int(1).max(64).default(4),
      queueLimit: int(10).default(10_000),
      probeSeconds: z.coerce.number().min(0).default(5),
      errorAfterSeconds: z.coerce.number().min(0).default(30),
      alarmEvents: bool.default(false),
      alarmIntervalSeconds: int(0).default(300),
    })
    .prefault({}),
  /**
   * HTTP timeouts, so slow or silent clients cannot hold connections: the request headers must
   * arrive within `headersTimeoutMs`, the whole request (body included) within `requestTimeoutMs`;
   * an idle keep-alive connection closes after `keepAliveTimeoutMs`, any socket idle for
   * `idleTimeoutMs` is closed. Raise `requestTimeoutMs` for large uploads over slow links.
   */
  http: z
    .strictObject({
      headersTimeoutMs: int(100).default(15_000),
      requestTimeoutMs: int(100).default(300_000),
      keepAliveTimeoutMs: int(100).default(10_000),
      idleTimeoutMs: int(100).default(300_000),
    })
    .prefault({}),
  /** nes websocket timings (docs/wire.md#nes-protocol); tests shorten them. */
  realtime: z
    .strictObject({
      heartbeatIntervalMs: int(10).default(15_000),
      heartbeatTimeoutMs: int(10).default(5_000),
      helloTimeoutMs: int(10).default(5_000),
      /** How long a socket's verified token is trusted before its user is re-read (disabled users stop receiving). */
      authRecheckMs: int(0).default(5_000),
      /** Frames a fan-out writes before it lets the event loop answer other work (docs/realtime.md#fleet-scale). */
      fanOutSlice: int(1).default(256),
    })
    .prefault({}),
  externalCalls: z
    .strictObject({
      exportCruise: z.string().nullable().default(null),
      exportLowering: z.string().nullable().default(null),
    })
    .prefault({}),
  /** Event values counted as samples in the dive metrics (docs/review-and-gis.md#dive-metrics). */
  sampleEventValues: z.array(z.string().min(1)).default([]),
  client: z.prefault(clientSettingsSchema, {}),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Environment variable → config path. Lists are comma separated. */
function fromEnv(env: Env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (keyPath: string, value: unknown) => {
    const parts = keyPath.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  };
  const map: Array<[string, string, ((v: string) => unknown)?]> = [
    ['PORT', 'port'],
    ['SEALOG_SERVER_PORT', 'port'],
    ['HOST', 'host'],
    ['BATHYLOG_MODE', 'mode'],
    ['BATHYLOG_DATA', 'dataDir'],
    ['DATABASE_URL', 'databaseUrl'],
    ['DATABASE_SCHEMA', 'databaseSchema'],
    ['BATHYLOG_SQLITE_SYNCHRONOUS', 'sqliteSynchronous', (v) => v.toLowerCase()],
    ['BATHYLOG_PASSWORD_HASH_COST', 'passwordHashCost'],
    ['SEALOG_SERVER_SECRET', 'secret'],
    ['BATHYLOG_SECRET', 'secret'],
    ['BATHYLOG_ADMIN_PASSWORD', 'adminPassword'],
    ['LOG_LEVEL', 'logLevel'],
    ['BATHYLOG_WEB_DIR', 'webDir'],
    ['BATHYLOG_PUBLIC_URL', 'publicUrl'],
    ['BATHYLOG_WORMS_URL', 'worms.url'],
    ['BATHYLOG_WORMS_TIMEOUT_MS', 'worms.timeoutMs'],
    ['BATHYLOG_ACCESS_CONTROL', 'useAccessControl'],
    ['BATHYLOG_PUBLIC_ARCHIVE', 'publicArchive'],
    ['BATHYLOG_ARCHIVE_READER_ROLES', 'archiveReaderRoles', list],
    ['BATHYLOG_REGISTRATION_DISABLED', 'registration.disabled'],
    ['BATHYLOG_REGISTRATION_ROLES', 'registration.roles', list],
    ['RECAPTCHA_SECRET', 'reCaptchaSecret'],
    ['SMTP_HOST', 'smtp.host'],
    ['SMTP_PORT', 'smtp.port'],
    ['SMTP_SECURE', 'smtp.secure'],
    ['SMTP_USER', 'smtp.user'],
    ['SMTP_PASSWORD', 'smtp.password'],
    ['MAIL_FROM', 'smtp.from'],
    ['MAIL_NOTIFY', 'smtp.notify', list],
    ['BATHYLOG_SESSION_LIFETIME', 'sessions.lifetimeSeconds'],
    ['BATHYLOG_SESSION_RENEW_AFTER', 'sessions.renewAfterSeconds'],
    ['BATHYLOG_SESSION_EMBEDDED', 'sessions.embedded'],
    ['BATHYLOG_RATE_LIMIT_PER_KEY', 'writeRateLimit.perKey'],
    ['BATHYLOG_RATE_LIMIT_PER_ADDRESS', 'writeRateLimit.perAddress'],
    ['BATHYLOG_ALLOWED_ORIGINS', 'allowedOrigins', list],
    ['BATHYLOG_FRAME_ANCESTORS', 'contentSecurityPolicy.frameAncestors', list],
    ['BATHYLOG_CSP_EXTRA_ORIGINS', 'contentSecurityPolicy.extraOrigins', list],
    ['BATHYLOG_TRUST_PROXY', 'trustProxy', list],
    ['BATHYLOG_HEAVY_READS', 'heavyReads.concurrent'],
    ['BATHYLOG_HEAVY_READ_QUEUE', 'heavyReads.queuePerCaller'],
    ['BATHYLOG_HEAVY_READ_QUEUE_TOTAL', 'heavyReads.queueTotal'],
    ['BATHYLOG_UPLOAD_LIMIT_MB', 'uploadLimitMb'],
    ['BATHYLOG_SAMPLE_EVENT_VALUES', 'sampleEventValues', list],
    ['BATHYLOG_HEADERS_TIMEOUT_MS', 'http.headersTimeoutMs'],
    ['BATHYLOG_REQUEST_TIMEOUT_MS', 'http.requestTimeoutMs'],
    ['BATHYLOG_KEEP_ALIVE_TIMEOUT_MS', 'http.keepAliveTimeoutMs'],
    ['BATHYLOG_IDLE_TIMEOUT_MS', 'http.idleTimeoutMs'],
    ['BATHYLOG_WS_HELLO_TIMEOUT_MS', 'realtime.helloTimeoutMs'],
    ['BATHYLOG_FREE_SPACE_INTERVAL', 'freeSpaceIntervalSeconds'],
    ['BATHYLOG_CHECKLIST_INTERVAL', 'checklistIntervalSeconds'],
    ['BATHYLOG_BACKUP_FOLDER', 'backups.folder'],
    ['BATHYLOG_BACKUP_INTERVAL_MINUTES', 'backups.intervalMinutes'],
    ['BATHYLOG_BACKUP_KEEP', 'backups.keep'],
    ['BATHYLOG_STORAGE', 'storage.backend', (v) => v.toLowerCase()],
    ['BATHYLOG_S3_ENDPOINT', 'storage.s3.endpoint'],
    ['BATHYLOG_S3_REGION', 'storage.s3.region'],
    ['BATHYLOG_S3_BUCKET', 'storage.s3.bucket'],
    ['BATHYLOG_S3_PREFIX', 'storage.s3.prefix'],
    ['BATHYLOG_S3_PATH_STYLE', 'storage.s3.pathStyle'],
    ['BATHYLOG_S3_ACCESS_KEY_ID', 'storage.s3.accessKeyId'],
    ['BATHYLOG_S3_SECRET_ACCESS_KEY', 'storage.s3.secretAccessKey'],
    ['BATHYLOG_S3_CREDENTIALS_FILE', 'storage.s3.credentialsFile'],
    ['BATHYLOG_S3_PART_SIZE_MB', 'storage.s3.partSizeMb'],
    ['BATHYLOG_S3_TIMEOUT_SECONDS', 'storage.s3.timeoutSeconds'],
    ['BATHYLOG_SYNC_BANDWIDTH_KBPS', 'sync.bandwidthKbps'],
    ['BATHYLOG_SYNC_MAX_WAIT_SECONDS', 'sync.maxWaitSeconds'],
    ['BATHYLOG_SYNC_ALLOW_PRIVATE_HOSTS', 'sync.allowPrivateHosts'],
    ['BATHYLOG_FFMPEG', 'video.ffmpeg'],
    ['BATHYLOG_FFPROBE', 'video.ffprobe'],
    ['BATHYLOG_FRAMEGRAB_CONCURRENCY', 'video.framegrabConcurrency'],
    ['BATHYLOG_FRAMEGRAB_TIMEOUT_MS', 'video.framegrabTimeoutMs'],
    ['BATHYLOG_FRAME_CACHE_MB', 'video.frameCacheMb'],
    ['BATHYLOG_RECORDINGS_WATCH', 'video.watchFolder'],
    ['BATHYLOG_RECORDINGS_WATCH_INTERVAL', 'video.watchIntervalSeconds'],
    ['BATHYLOG_ASNAP_ENABLED', 'asnap.enabled'],
    ['BATHYLOG_ASNAP_INTERVAL', 'asnap.intervalSeconds'],
    ['BATHYLOG_ASNAP_EXTERNAL_QUIET', 'asnap.externalQuietSeconds'],
    ['BATHYLOG_REQUIRED_AUX_SOURCES', 'completeness.requiredAuxSources', list],
    ['BATHYLOG_AUX_GRACE_SECONDS', 'completeness.graceSeconds'],
    ['BATHYLOG_AUX_MAX_AGE_SECONDS', 'completeness.maxAgeSeconds'],
    ['BATHYLOG_AUX_MANAGERS_ENABLED', 'auxManagers.enabled'],
    ['BATHYLOG_AUX_MANAGERS_FILE', 'auxManagers.file'],
    ['BATHYLOG_AUX_MANAGERS_CONCURRENCY', 'auxManagers.concurrency'],
    ['BATHYLOG_AUX_MANAGERS_PROBE_SECONDS', 'auxManagers.probeSeconds'],
    ['BATHYLOG_AUX_MANAGERS_ERROR_AFTER_SECONDS', 'auxManagers.errorAfterSeconds'],
    ['BATHYLOG_AUX_MANAGERS_ALARM_EVENTS', 'auxManagers.alarmEvents'],
    ['BATHYLOG_AUX_MANAGERS_ALARM_INTERVAL', 'auxManagers.alarmIntervalSeconds'],
    ['BATHYLOG_EXPORT_CRUISE_COMMAND', 'externalCalls.exportCruise'],
    ['BATHYLOG_EXPORT_LOWERING_COMMAND', 'externalCalls.exportLowering'],
    ['BATHYLOG_HEADER_TITLE', 'client.headerTitle'],
    ['BATHYLOG_LOGIN_TEXT', 'client.loginScreenText'],
    ['BATHYLOG_DISABLE_EVENT_LOGGING', 'client.disableEventLogging', (v) => v === 'true' || v === '1'],
    ['BATHYLOG_RECAPTCHA_SITE_KEY', 'client.recaptchaSiteKey'],
    ['BATHYLOG_LIVE_VIDEO_STREAMS', 'client.liveVideoStreams', liveStreamsFromEnv],
  ];
  for (const [name, keyPath, convert] of map) {
    const value = env[name];
    if (value !== undefined && value !== '') set(keyPath, convert ? convert(value) : value);
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(out[k]) ? merge(out[k], v) : v;
  return out;
}

/** Demo defaults: what `npm start` shows a visitor. */
const demoDefaults: Record<string, unknown> = {
  sampleEventValues: ['SAMPLE'],
  client: {
    headerTitle: 'Bathylog — R/V Falkor (too)',
    loginScreenText:
      'This is a Bathylog demonstration site with the real cruise FKt230303 of R/V Falkor (too) and its dive S0492.\n\nLog in as admin with the password demo, or as Guest.',
    defaultVessel: 'R/V Falkor (too)',
    categorySortOrder: ['vehicle', 'biology', 'geology', 'sample', 'problem'],
    auxDataSortOrder: ['vehicleRealtimeNavData'],
  },
  // Every event of dive S0492 carries the vehicle's navigation: events logged without it show up.
  completeness: { requiredAuxSources: ['vehicleRealtimeNavData'] },
};

/** `cam1=https://video.ship/cam1.m3u8,cam2=…` (docs/video.md#live-video) to `{ cam1: …, cam2: … }`. */
function liveStreamsFromEnv(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}

export function loadConfig(env: Env = process.env, overrides: ConfigInput = {}): Config {
  // Every server process (the server, the CLI, tests) reads its configuration first: from here on
  // zod's own messages, in configuration errors as in the API's 400s, are English.
  configureZodMessages();
  let file: Record<string, unknown> = {};
  if (env.BATHYLOG_CONFIG) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(env.BATHYLOG_CONFIG, 'utf8'));
      if (!isObject(parsed)) throw new Error('the file must hold a JSON object');
      file = parsed;
    } catch (err) {
      throw new ConfigError(`Invalid configuration file ${env.BATHYLOG_CONFIG}: ${(err as Error).message}`);
    }
  }
  let raw = merge(file, fromEnv(env));
  raw = merge(raw, overrides as Record<string, unknown>);
  if ((raw.mode ?? 'production') === 'demo') raw = merge(demoDefaults, raw);
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${pathLabel(issue.path)}: ${issue.message}`);
  }
  const config = result.data;
  config.dataDir = path.resolve(config.dataDir);
  if (config.webDir) config.webDir = path.resolve(config.webDir);
  if (config.auxManagers.file) config.auxManagers.file = path.resolve(config.auxManagers.file);
  config.backups.folder = path.resolve(config.backups.folder ?? path.join(config.dataDir, 'backups'));
  if (config.sessions.renewAfterSeconds >= config.sessions.lifetimeSeconds) {
    throw new ConfigError(
      'Invalid configuration: sessions.renewAfterSeconds: must be less than sessions.lifetimeSeconds',
    );
  }
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs) {
    throw new ConfigError('Invalid configuration: http.headersTimeoutMs: must not be more than http.requestTimeoutMs');
  }
  if (config.storage.backend === 's3' && !config.storage.s3.bucket) {
    throw new ConfigError('Invalid configuration: storage.s3.bucket: is required when storage.backend is s3');
  }
  if (config.storage.s3.prefix && !config.storage.s3.prefix.endsWith('/')) config.storage.s3.prefix += '/';
  if (config.storage.s3.credentialsFile)
    config.storage.s3.credentialsFile = path.resolve(config.storage.s3.credentialsFile);
  // The access-control switch is one setting for both ends.
  config.client.useAccessControl = config.useAccessControl;
  config.client.publicArchive = config.publicArchive;
  config.client.registrationDisabled = config.registration.disabled;
  return config;
}

export function isPostgres(config: Pick<Config, 'databaseUrl'>): boolean {
  return !!config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl);
}
