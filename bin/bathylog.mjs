#!/usr/bin/env node
// `npx bathylog`: the operator CLI (apps/server/src/cli). Runs the compiled server code when it
// has been built, else the TypeScript sources through tsx, as `npm start` does.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../apps/server/dist/cli/bin.js', import.meta.url));
if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../apps/server/src/cli/bin.ts', import.meta.url).href);
}
