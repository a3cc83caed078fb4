import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startEmbedder } from './embedder';
import { startServer } from './server';

/**
 * Starts one shared demo server for the run, and the local page that embeds the client for the
 * auto-login test (its origin is the one the server accepts `login-with-token` from). Workers read
 * the addresses and the data folder from the environment (process.env set here reaches them).
 * E2E_KEEP_DATA=1 keeps the data folder.
 */
export default async function globalSetup(_config: FullConfig) {
  removeOldRuns();
  const embedder = await startEmbedder();
  const server = await startServer({
    mode: 'demo',
    // Completeness off: the specs log events without aux data, and the footer's missing-data
    // warning must not cover what they click (e2e/completeness.spec.ts runs its own server).
    config: { client: { loginWithTokenOrigins: [embedder.origin] }, completeness: { requiredAuxSources: [] } },
  });
  process.env.BATHYLOG_E2E_URL = server.url;
  process.env.BATHYLOG_E2E_DATA = server.dataDir;
  process.env.BATHYLOG_E2E_EMBEDDER = embedder.origin;
  console.log(`[e2e] server ${server.url}, data ${server.dataDir}`);
  return async () => {
    await embedder.stop();
    await server.stop({ keepData: process.env.E2E_KEEP_DATA === '1' });
  };
}

/** Folders of earlier runs (e2e/test-results/run-*) older than a day. */
function removeOldRuns() {
  const current = process.env.E2E_RUN_DIR;
  if (!current) return;
  const parent = path.dirname(current);
  if (!existsSync(parent)) return; // the first run in a fresh checkout
  for (const name of readdirSync(parent)) {
    const dir = path.join(parent, name);
    if (!name.startsWith('run-') || dir === current) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > 24 * 3600 * 1000) rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
}
