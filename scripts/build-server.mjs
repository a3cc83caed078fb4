#!/usr/bin/env node
// Compiles the server (apps/server/src + packages/shared) into ES modules in apps/server/dist, so it
// starts with plain `node`: no TypeScript transpiler at run time. Three entries: the server
// (main.js), the SQLite write thread (write-worker-thread.js, which db/write-worker.ts starts from
// beside main.js) and the operator CLI (cli.js, run by bin/bathylog.mjs).
// The npm packages it uses stay imports (installed node_modules); only our own code is bundled, but
// for the write thread, which carries its JavaScript packages inside (see `threadExternal`).
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');

export const serverBuild = {
  entry: path.join(serverDir, 'src/main.ts'),
  outfile: path.join(serverDir, 'dist/main.js'),
  /** Bundled beside main.js: db/write-worker.ts starts it as ./write-worker-thread.js. */
  threadEntry: path.join(serverDir, 'src/write-thread.ts'),
  /** The operator CLI, beside main.js for the same reason (its commands open databases). */
  cliEntry: path.join(serverDir, 'src/cli/bin.ts'),
  clifile: path.join(serverDir, 'dist/cli.js'),
  /** What the build is made from: newer files here mean it is out of date. */
  sources: ['apps/server/src', 'apps/server/package.json', 'packages/shared/src', 'scripts/build-server.mjs'],
};

/**
 * The write thread is built alone, with the JavaScript packages it uses (Kysely) inside its file:
 * resolving and linking Kysely's 150-odd ES modules was most of the thread's start-up, 340-370 ms
 * of CPU per thread against about 105 ms bundled, and a SQLite server starts two (the write and
 * the read thread). Only the native addon stays an import; node-postgres is never loaded there
 * (db/database.ts loads it for PostgreSQL only).
 */
const threadExternal = ['better-sqlite3', 'pg', 'pg/*'];

/** The newest modification time under `p` (a file or a folder; node_modules and dist skipped), 0 if absent. */
export function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs; // a deleted file shows only in its folder's time
  for (const entry of readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
}

/** Whether every entry of the build exists and none is older than a source. */
export function serverBuildIsFresh() {
  const sourceTime = Math.max(...serverBuild.sources.map((s) => newest(path.join(root, s))));
  return [serverBuild.outfile, serverBuild.clifile].every((f) => existsSync(f) && statSync(f).mtimeMs >= sourceTime);
}

/**
 * Builds into a folder of its own, then renames each file into dist: a server or CLI starting
 * meanwhile (another test worker, a second terminal) reads either the old file or the new one,
 * never a half-written one.
 */
export async function buildServer() {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {})
    .filter((name) => !name.startsWith('@bathylog/'))
    .flatMap((name) => [name, `${name}/*`]);
  const dist = path.dirname(serverBuild.outfile);
  const staging = path.join(dist, `.build-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(staging, { recursive: true });
  try {
    const common = {
      outdir: staging,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      legalComments: 'none',
      logLevel: 'warning',
    };
    await build({
      ...common,
      entryPoints: {
        [path.basename(serverBuild.outfile, '.js')]: serverBuild.entry,
        [path.basename(serverBuild.clifile, '.js')]: serverBuild.cliEntry,
      },
      // Code the entries load with import() (the CLI's commands, the server's rarely used parts)
      // goes into chunks of its own, so `bathylog --help` or a usage error loads a few kB rather than
      // the whole server. The chunks (chunk-<hash>.js) sit beside the entries: code that finds files
      // beside itself (db/write-worker.ts's write thread) may end up in one.
      splitting: true,
      external,
    });
    await build({
      ...common,
      entryPoints: { 'write-worker-thread': serverBuild.threadEntry },
      external: threadExternal,
    });
    // Chunks first (their names hold their content's hash, so they never replace one a running
    // process may still import), then the maps, the entries last: an entry never names a chunk
    // that is not there yet.
    const order = (f) => (f.startsWith('chunk-') ? 0 : f.endsWith('.map') ? 1 : 2);
    const files = readdirSync(staging).sort((a, b) => order(a) - order(b));
    for (const file of files) renameSync(path.join(staging, file), path.join(dist, file));
    removeOldChunks(dist, new Set(files));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Chunks of earlier builds, once a day old: a server started from an older build may still import
 * its own chunks, so they outlive their build by a day.
 */
function removeOldChunks(dist, current) {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const file of readdirSync(dist)) {
    if (!file.startsWith('chunk-') || current.has(file)) continue;
    const full = path.join(dist, file);
    if (statSync(full).mtimeMs < dayAgo) rmSync(full, { force: true });
  }
}

/** Builds the server unless the build is already up to date. */
export async function ensureServerBuild() {
  if (!serverBuildIsFresh()) await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  await buildServer();
  console.log(
    `Server built into ${path.relative(root, path.dirname(serverBuild.outfile))} in ${Math.round(performance.now() - t0)} ms`,
  );
}
