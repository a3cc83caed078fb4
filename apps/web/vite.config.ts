import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chunkGroups } from './chunk-groups.ts';
import { clientRuntime, runtimeAliases } from './client-runtime.ts';
import { iconMasks } from './icon-masks.ts';
import { precompress } from './precompress.ts';
import { pruneCss } from './prune-css.ts';
import { reactBootstrapMembers } from './react-bootstrap-members.ts';

// The server serves dist/ at `/`; in development Vite proxies the API and the websocket to it.
const server = process.env.BATHYLOG_DEV_SERVER ?? 'http://localhost:8000';

const runtime = clientRuntime();

export default defineConfig(({ command }) => ({
  // React Fast Refresh needs React DOM: on Preact an edited component reloads the page instead.
  plugins: [
    react(runtime === 'preact' ? { refreshExclude: /./ } : {}),
    chunkGroups({ firstScreen: 'src/app/first-screen.ts' }),
    reactBootstrapMembers(import.meta.dirname),
    precompress(),
  ],
  resolve: { alias: runtimeAliases(runtime) },
  css: {
    postcss: { plugins: command === 'build' ? [pruneCss(import.meta.dirname), iconMasks(import.meta.dirname)] : [] },
  },
  // The manifest lets scripts/check-bundle-budget.mjs follow each chunk's imports.
  // No modulepreload polyfill: every browser the client supports has modulepreload.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    modulePreload: { polyfill: false },
    // Leaflet's images stay files, fetched when drawn: inlined, the maps chunk carried all five in
    // base64 (7.9 kB gzip), both resolutions and the default marker we never draw included.
    assetsInlineLimit: (file) => (/[\\/]leaflet[\\/]dist[\\/]images[\\/]/.test(file) ? false : undefined),
  },
  server: {
    proxy: {
      '/sealog-server': { target: server, changeOrigin: true },
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
}));
