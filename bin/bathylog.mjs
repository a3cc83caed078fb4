#!/usr/bin/env node
// `npx bathylog`: the operator CLI (apps/server/src/cli). Runs the compiled CLI (apps/server/dist/cli.js,
// built by `npm start`, `npm run build` or `npm test`) when it is up to date with the sources, else the
// TypeScript sources through tsx.
import { pathToFileURL } from 'node:url';
import { serverBuild, serverBuildIsFresh } from '../scripts/build-server.mjs';

if (serverBuildIsFresh()) {
  await import(pathToFileURL(serverBuild.clifile).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../apps/server/src/cli/bin.ts', import.meta.url).href);
}
