#!/usr/bin/env node
// Compiles the server (apps/server/src + packages/shared) into one ES module,
// apps/server/dist/main.js, so it starts with plain `node`: no TypeScript transpiler at run time.
// The SQLite write thread (src/write-thread.ts) is a second entry beside it.
// The npm packages it uses stay imports (installed node_modules); only our own code is bundled.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {})
  .filter((name) => !name.startsWith('@bathylog/'))
  .flatMap((name) => [name, `${name}/*`]);

export const serverBuild = {
  entry: path.join(serverDir, 'src/main.ts'),
  outfile: path.join(serverDir, 'dist/main.js'),
  /** Bundled beside main.js: db/write-worker.ts starts it as ./write-worker-thread.js. */
  threadEntry: path.join(serverDir, 'src/write-thread.ts'),
  /** What the build is made from: newer files here mean it is out of date. */
  sources: ['apps/server/src', 'apps/server/package.json', 'packages/shared/src', 'scripts/build-server.mjs'],
};

export async function buildServer() {
  await build({
    entryPoints: {
      [path.basename(serverBuild.outfile, '.js')]: serverBuild.entry,
      'write-worker-thread': serverBuild.threadEntry,
    },
    outdir: path.dirname(serverBuild.outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  await buildServer();
  console.log(
    `Server built into ${path.relative(root, serverBuild.outfile)} in ${Math.round(performance.now() - t0)} ms`,
  );
}
