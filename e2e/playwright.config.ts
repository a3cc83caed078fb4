import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/chromium-args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// One folder per run (workers inherit the variable): runs started by different people at the same
// time must not clean each other's artifacts or saved session.
process.env.E2E_RUN_DIR ??= path.join(here, 'test-results', `run-${Date.now().toString(36)}-${process.pid}`);
const runDir = process.env.E2E_RUN_DIR;

/**
 * Browser tests: Debian's Chromium against the real server started by support/global-setup.ts on
 * a fresh data folder (demo mode, a free port in 8300-8399). `node scripts/test.mjs e2e` builds
 * the client first. A setup project logs in as admin once and saves the session.
 */
export default defineConfig({
  testDir: here,
  outputDir: path.join(runDir, 'artifacts'),
  globalSetup: path.join(here, 'support/global-setup.ts'),
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // CI: one retry for a test that lost a race with a spec running beside it on the same server; a
  // retried pass is reported as flaky in the JSON report.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    [
      'json',
      { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(here, 'test-results/playwright.json') },
    ],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // CI retries a failed test once, and that retry records the trace: recording every test's trace
    // (screenshots of each step) cost a fifth of the browser suite's CPU (docs/performance.md#how-long-the-tests-take).
    // Without retries (a developer's run) every test records and a failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts$/ },
    {
      name: 'chromium',
      testMatch: /.*\.spec\.ts$/,
      dependencies: ['setup'],
      // Tests tagged @soak (a whole cruise imported through the screens) run in `npm run test:soak`
      // (scripts/soak.mjs sets E2E_SOAK=1), not in `npm test`: docs/performance.md#how-long-the-tests-take.
      // The setup project is not filtered: every run needs its saved session.
      ...(process.env.E2E_SOAK === '1' ? { grep: /@soak/ } : { grepInvert: /@soak/ }),
      use: { storageState: path.join(runDir, 'admin.json') }, // = adminStorageState
    },
  ],
});
