import { availableParallelism } from 'node:os';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { clientRuntime, runtimeAliases } from './apps/web/client-runtime.ts';

const webRuntime = clientRuntime();

/**
 * The client's tests resolve dependencies as the browser build does. Vitest adds Node's export
 * conditions, and @restart/ui's `node` build is CommonJS, whose require('react') would load React
 * beside Preact's compat layer (the aliases reach only what Vite transforms).
 */
const browserConditions: Plugin = {
  name: 'bathylog-browser-conditions',
  configEnvironment: {
    order: 'post',
    handler(name, config) {
      if (name === 'client' && config.resolve)
        config.resolve.conditions = ['browser', 'module', 'development|production'];
    },
  },
};

/**
 * The crash suite's SIGKILL cycles, the several-hosts suite and the online backup taken while clients
 * log events (about three minutes of CPU over both engines): minutes each, run by the soak script.
 */
const soakOnly = [
  'apps/server/test/soak/crash.test.ts',
  'apps/server/test/hosts/hosts.test.ts',
  'apps/server/test/soak/backup-restore.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default is one worker on a two-core machine (cores − 1). Most files spend their time
    // waiting on PostgreSQL, child processes and real peers, so two forks keep both cores busy
    // (docs/performance.md#how-long-the-tests-take). VITEST_MAX_WORKERS sets another number.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? Math.max(2, availableParallelism() - 1)),
    projects: [
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts', 'packages/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          // Run by `npm run test:soak` at full count (scripts/soak.mjs sets BATHYLOG_SOAK=1), which CI
          // runs after `npm test`: docs/performance.md#how-long-the-tests-take.
          exclude: [...configDefaults.exclude, ...(process.env.BATHYLOG_SOAK === '1' ? [] : soakOnly)],
          environment: 'node',
          // One process per worker runs file after file, so the server's modules and dependencies
          // load once per worker instead of once per file (a second of CPU each:
          // docs/performance.md#how-long-the-tests-take). Each file builds its own apps and
          // databases, and the module-level caches serve many apps in one process.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // CI: one retry for a test that lost a timing race on a loaded two-core machine (as the
          // browser suite does); scripts/test.mjs names every failure beside its summary line.
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        // The client's tests run on what ships (apps/web/client-runtime.ts): Preact's compat layer
        // in React's place, for our code and for every dependency, so dependencies are inlined
        // (transformed by Vite, where the aliases apply) rather than loaded by Node.
        plugins: webRuntime === 'preact' ? [browserConditions] : [],
        resolve: { alias: runtimeAliases(webRuntime), mainFields: ['browser', 'module', 'main'] },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          testTimeout: 15_000,
          server: { deps: { inline: webRuntime === 'preact' ? true : [] } },
        },
      },
    ],
  },
});
