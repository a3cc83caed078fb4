import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type BrowserContext, type ConsoleMessage } from '@playwright/test';
import { apiLogin, serverUrl, type ApiClient } from './api';

/**
 * Shared fixtures for every spec:
 * - `baseURL` points at the server started by the global setup;
 * - every test fails on console errors, uncaught page errors and 5xx answers in its context
 *   (`consoleErrors.allow(/pattern/)` lets one test expect a particular message);
 * - `adminApi` is an API client logged in as admin/demo for seeding data.
 *
 * Chromium reports each 4xx answer as a console error ("Failed to load resource: … 401"). Those
 * are normal protocol answers here (a wrong password is a 401, an empty list a 404), so they are
 * not counted; 5xx answers are.
 */
export interface ConsoleGuard {
  /** Messages seen so far that count as errors. */
  errors: string[];
  /** Ignore errors matching this pattern for the rest of the test. */
  allow: (pattern: RegExp) => void;
  /** Watch another context the test created with browser.newContext(). */
  watch: (context: BrowserContext) => void;
}

const expected4xx = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

export const test = base.extend<{ consoleErrors: ConsoleGuard; adminApi: ApiClient }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  baseURL: async ({}, use) => {
    await use(serverUrl());
  },

  consoleErrors: [
    async ({ context }, use, testInfo) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      const record = (text: string) => {
        if (!allowed.some((p) => p.test(text))) errors.push(text);
      };
      const watch = (ctx: BrowserContext) => {
        ctx.on('console', (msg: ConsoleMessage) => {
          if (msg.type() !== 'error') return;
          const text = msg.text();
          if (expected4xx.test(text)) return;
          const loc = msg.location();
          record(`console.error: ${text}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
        });
        ctx.on('weberror', (err) => record(`page error: ${err.error().stack ?? err.error().message}`));
        ctx.on('response', (res) => {
          if (res.status() >= 500) record(`HTTP ${res.status()} ${res.request().method()} ${res.url()}`);
        });
      };
      watch(context);
      const guard: ConsoleGuard = { errors, allow: (p) => allowed.push(p), watch };
      await use(guard);
      if (errors.length) {
        await testInfo.attach('console-errors', { body: errors.join('\n'), contentType: 'text/plain' });
      }
      expect(errors, 'console errors, page errors or 5xx answers during the test').toEqual([]);
    },
    { auto: true },
  ],

  // eslint-disable-next-line no-empty-pattern
  adminApi: async ({}, use) => {
    const client = await apiLogin('admin', 'demo');
    await use(client);
    await client.dispose();
  },
});

export { expect };

/** Storage state of the admin session saved by the setup project. */
export const adminStorageState = path.join(
  process.env.E2E_RUN_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results'),
  'admin.json',
);
