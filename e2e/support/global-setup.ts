import type { FullConfig } from '@playwright/test';
import { embedderOrigin, startServer } from './server';

/**
 * Starts one shared demo server for the run. Workers read its address and data folder from the
 * environment (process.env set here reaches them). E2E_KEEP_DATA=1 keeps the data folder.
 */
export default async function globalSetup(_config: FullConfig) {
  const server = await startServer({
    mode: 'demo',
    config: {
      // The auto-login test posts from this origin (same site as the server: cookies stay first-party).
      client: { loginWithTokenOrigins: [embedderOrigin] },
    },
  });
  process.env.BATHYLOG_E2E_URL = server.url;
  process.env.BATHYLOG_E2E_DATA = server.dataDir;
  console.log(`[e2e] server ${server.url}, data ${server.dataDir}`);
  return async () => {
    await server.stop({ keepData: process.env.E2E_KEEP_DATA === '1' });
  };
}
