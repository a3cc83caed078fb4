#!/usr/bin/env node
// The client's size budgets (docs/lean-client.md#budgets-checked-on-every-npm-test), checked on the
// build output: exits 1 when one is exceeded. Sizes are gzip (level 9, as apps/web/precompress.ts
// serves them) of JavaScript and CSS together.
//   - the login screen: the entry chunk, everything it imports statically, and their CSS;
//   - the whole app: every JavaScript and CSS file of the build (maps and charts included), but
//   - the video player's chunk (the player and hls.js, fetched only to play a recording), which has
//     its own budget.
// Each lazily loaded chunk is listed beside them (entry + the chunk and its static imports).
// Usage: node scripts/check-bundle-budget.mjs [distDir] [--json]
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dist = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'apps/web/dist'));
const asJson = args.includes('--json');

/**
 * kB = 1,000 bytes, as Vite reports sizes. Both budgets serve a ship's thin link: the login screen 54 kB
 * (150 kB until 2026-11-29, then 80 kB, then 65 kB once the entry's Bootstrap and header were trimmed to
 * 64.9 kB, 55 kB at 54.1 kB once React Router gave way to wouter; 52.2 kB since react-bootstrap's unread
 * members and prop types and Bootstrap's unused grid and light colours left the build), the whole app
 * 287 kB (54% of the original client's 530 kB; 265 kB until checklists, the dive report, completeness,
 * ship-to-shore and the date-time picker added about 25 kB on 2026-11-26, 310 kB until the taxa,
 * publication, aux-data managers and video screens, then the Bootstrap split and the `screens` chunk,
 * made it 312.9 kB under a 315 kB budget; 302.0 kB with wouter, 298.0 kB after the trims above under
 * 300 kB, 284.1 kB once our form hook took react-hook-form's and its zod resolver's place; the
 * 240 kB aimed at is not reached), and the video player with hls.js, fetched only to play a
 * recording, 130 kB apart. The figures of each build: bench/results/lean-client-log.md.
 */
export const budgets = { login: 54_000, app: 287_000, video: 130_000 };

const gzipCache = new Map();
function gzipSize(file) {
  let n = gzipCache.get(file);
  if (n === undefined) {
    n = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, n);
  }
  return n;
}

/** The files a browser fetches for these manifest chunks: their static imports, transitively, and CSS. */
function closure(manifest, keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  keys.forEach(visit);
  return [...files];
}

const total = (files) => files.reduce((sum, f) => sum + gzipSize(f), 0);
const split = (files) => ({
  js: total(files.filter((f) => f.endsWith('.js'))),
  css: total(files.filter((f) => f.endsWith('.css'))),
});

const manifestFile = path.join(dist, '.vite/manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`No ${path.relative(root, manifestFile)}: build the client first (npm run build).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entry) {
  console.error('The manifest names no entry chunk.');
  process.exit(1);
}
const shell = closure(manifest, [entry]);

const routes = [{ name: 'login (entry)', ...split(shell), files: shell.length }];
// The lazily loaded chunks (apps/web/chunk-groups.ts makes `app`, `screens`, `maps` and `video`),
// each with what a browser fetches for it: the entry, the chunk, its static imports and their CSS.
for (const key of Object.keys(manifest).filter((k) => k !== entry && manifest[k].file.endsWith('.js'))) {
  const files = closure(manifest, [entry, key]);
  const name = manifest[key].name ?? path.basename(key).replace(/\.[jt]sx?$/, '');
  routes.push({ name: `${name} (+ entry)`, ...split(files), files: files.length });
}

const assets = path.join(dist, 'assets');
// The video player's chunk (apps/web/chunk-groups.ts `video`) crosses the link only when a recording plays.
const videoFiles = new Set(
  Object.values(manifest)
    .filter((c) => c.name === 'video')
    .map((c) => c.file),
);
const all = readdirSync(assets)
  .filter((f) => /\.(js|css)$/.test(f))
  .map((f) => `assets/${f}`)
  .filter((f) => !videoFiles.has(f));
const app = split(all);
const video = split([...videoFiles]);

const checks = [
  { name: 'login screen JS+CSS', size: routes[0].js + routes[0].css, budget: budgets.login },
  { name: 'whole app JS+CSS', size: app.js + app.css, budget: budgets.app },
  { name: 'video player chunk JS', size: video.js + video.css, budget: budgets.video },
];
const failed = checks.filter((c) => c.size > c.budget);

if (asJson) {
  console.log(JSON.stringify({ routes, app: { ...app, files: all.length }, checks }, null, 2));
} else {
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`.padStart(9);
  console.log('gzip sizes (level 9)            JS        CSS      total  files');
  for (const r of [...routes, { name: 'whole app', ...app, files: all.length }]) {
    console.log(
      `  ${r.name.padEnd(26)} ${kb(r.js)}  ${kb(r.css)}  ${kb(r.js + r.css)}  ${String(r.files).padStart(4)}`,
    );
  }
  for (const c of checks) {
    const verdict = c.size > c.budget ? 'OVER BUDGET' : 'ok';
    console.log(`${c.name}: ${kb(c.size).trim()} of ${kb(c.budget).trim()}: ${verdict}`);
  }
}
process.exit(failed.length ? 1 : 0);
