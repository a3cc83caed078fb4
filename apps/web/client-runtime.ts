import path from 'node:path';
import type { Alias } from 'vite';

/**
 * What runs the client, kept small for a ship's thin link. The client is React source code (it
 * imports `react` and `react-dom`, as do react-bootstrap, TanStack Query and wouter), and by default those imports resolve to Preact's compat layer: about 60 kB gzip
 * less than React DOM, with the same API for everything the app and its libraries use
 * (docs/lean-client.md). `BATHYLOG_CLIENT_RUNTIME=react` builds, serves and tests it on React DOM
 * instead.
 */
export type ClientRuntime = 'preact' | 'react';

export function clientRuntime(value = process.env.BATHYLOG_CLIENT_RUNTIME): ClientRuntime {
  if (value === undefined || value === '' || value === 'preact') return 'preact';
  if (value === 'react') return 'react';
  throw new Error(`BATHYLOG_CLIENT_RUNTIME must be "preact" or "react", not ${JSON.stringify(value)}`);
}

/**
 * The aliases that put Preact's compat layer in React's place, for our code and for every
 * dependency that imports React. Exact matches, so `react-bootstrap` or `react-dom/client` are left
 * alone. The JSX runtimes are compat's, which load compat's hooks into Preact before any element
 * is made; `react-dom/client` is compat's createRoot with React's autoFocus (src/lib/preact-client.ts).
 */
export function runtimeAliases(runtime: ClientRuntime = clientRuntime()): Alias[] {
  if (runtime === 'react') return [];
  return [
    { find: /^react$/, replacement: 'preact/compat' },
    { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
    { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
    { find: /^react-dom$/, replacement: 'preact/compat' },
    { find: /^react-dom\/client$/, replacement: path.join(import.meta.dirname, 'src/lib/preact-client.ts') },
    // wouter's fallback for React before 18 (1.4 kB gzip with its CommonJS wrapper): compat has
    // useSyncExternalStore itself.
    { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
    // Testing Library's act() (unit tests only).
    { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  ];
}
