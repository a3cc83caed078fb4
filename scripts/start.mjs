#!/usr/bin/env node
// `npm start`: build the client and the server when missing or older than their sources, then
// run the compiled server (plain node, no TypeScript transpiler) in the demo configuration
// (unless BATHYLOG_MODE says otherwise) as one process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, newest, serverBuild, serverBuildIsFresh } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');

const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'packages/shared/src',
];
const sourceTime = Math.max(...sources.map((s) => newest(path.join(root, s))));
if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < sourceTime) {
  console.log('Building the client…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (!serverBuildIsFresh()) {
  console.log('Building the server…');
  await buildServer();
}

const env = { ...process.env, BATHYLOG_MODE: process.env.BATHYLOG_MODE ?? 'demo' };
const server = spawn(process.execPath, ['--enable-source-maps', serverBuild.outfile], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
