import path from 'node:path';
import type { Plugin } from 'vite';
import { earlyGetsScript } from './src/api/early-gets.ts';

/**
 * The folder convention that decides the `maps` chunk: map and chart code (Leaflet, uPlot, the
 * coastline and our components drawing with them) lives in a folder named `maps`
 * (src/components/maps/ today; lint lets only such folders import those libraries). A module under
 * a `maps` folder, and every module that statically imports one, directly or not, is map code: a
 * screen that draws a map statically is map code as a whole, its route included, and so is a part
 * loaded on demand (the replay map, the milestones editor). Nothing else names a file here, so a
 * new screen, with or without a map, needs no edit in this file.
 */
export function inMapsFolder(srcDir: string, id: string): boolean {
  const file = path.relative(srcDir, id.replace(/\?.*$/, ''));
  return !file.startsWith('..') && !path.isAbsolute(file) && file.split(path.sep).slice(0, -1).includes('maps');
}

/**
 * The video player (docs/video.md#playback) and hls.js behind it: a chunk of their own, `video`,
 * fetched only when someone plays a recording. The player lives in a folder named `player`; hls.js
 * is what it imports on demand.
 */
export function inVideoPlayer(srcDir: string, id: string): boolean {
  const clean = id.replace(/\?.*$/, '');
  if (/[\\/]node_modules[\\/]hls\.js[\\/]/.test(clean)) return true;
  const file = path.relative(srcDir, clean);
  return !file.startsWith('..') && !path.isAbsolute(file) && file.split(path.sep).slice(0, -1).includes('player');
}

/**
 * Fewer, larger chunks for the signed-in screens (docs/lean-client.md#what-keeps-the-first-load-small). Left to itself the bundler makes a
 * chunk per lazily loaded screen and per set of screens sharing a module: about 80 files, 45 of
 * them for the console, which on a 600 ms link queue behind the browser's six connections; many
 * small files also compress worse than one. Here the lazily loaded code forms two chunks: `app`
 * (what the lazily loaded modules that are not map code import statically, map code apart) and
 * `maps` (map code, above, and what only it needs). `app` never imports `maps` statically, as
 * whatever imports map code is map code: a stored session preloads `app` without the maps.
 *
 * A group must never take a module of the entry's static graph, or the entry would import the
 * group and the login screen would load it. Rolldown tags those modules `$initial`, after tree
 * shaking (react-bootstrap's barrel imports every component, but only those the shell renders are
 * initial): a first group with a higher priority takes them, and as it holds only modules the
 * entry needs, they stay in the entry's chunk. The groups do not pull in their modules'
 * dependencies (`includeDependenciesRecursively: false`): those are in the entry or in a group.
 */
export function chunkGroups(): Plugin {
  /** What the lazily loaded modules import statically, map code apart. */
  const app = new Set<string>();
  let base = '/';
  let srcDir = '';
  return {
    name: 'bathylog-chunk-groups',
    apply: 'build',
    config() {
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  { name: 'index', tags: ['$initial'], priority: 2, includeDependenciesRecursively: false },
                  {
                    name: (id: string) => (inVideoPlayer(srcDir, id) ? 'video' : app.has(id) ? 'app' : 'maps'),
                    priority: 1,
                    includeDependenciesRecursively: false,
                  },
                ],
              },
            },
          },
        },
      };
    },
    configResolved(config) {
      base = config.base;
      srcDir = path.join(config.root, 'src');
    },
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const modules = appModules(
        ids,
        (id) => this.getModuleInfo(id),
        (id) => inMapsFolder(srcDir, id),
        (id) => inVideoPlayer(srcDir, id),
      );
      app.clear();
      for (const id of modules) app.add(id);
    },
    // A stored session's first screen needs the app chunk and its first GETs (src/api/early-gets.ts):
    // sent beside the entry, not after it.
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === 'app');
        if (chunk?.type !== 'chunk') return;
        const css = [...(chunk.viteMetadata?.importedCss ?? [])].map((f) => base + f);
        const script = `${earlyGetsScript()};${sessionPreload(base + chunk.fileName, css)}`;
        return [{ tag: 'script', injectTo: 'head', children: script }];
      },
    },
  };
}

/** What chunk-groups reads of a module: its static and dynamic imports. */
interface ModuleLinks {
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}

/**
 * The `app` group: what the lazily loaded modules import statically, map code apart. Map code is
 * what `inMaps` names (the `maps` folders) and every module that statically imports it, so no
 * module of `app` imports one of `maps` statically.
 */
export function appModules(
  ids: readonly string[],
  info: (id: string) => ModuleLinks | null,
  inMaps: (id: string) => boolean,
  inVideo: (id: string) => boolean = () => false,
): Set<string> {
  const importers = new Map<string, string[]>();
  for (const id of ids) {
    for (const dep of info(id)?.importedIds ?? []) {
      const list = importers.get(dep);
      if (list) list.push(id);
      else importers.set(dep, [id]);
    }
  }
  const mapCode = new Set<string>();
  const up = ids.filter(inMaps);
  while (up.length) {
    const id = up.pop()!;
    if (mapCode.has(id)) continue;
    mapCode.add(id);
    up.push(...(importers.get(id) ?? []));
  }
  const app = new Set<string>();
  const outside = (id: string) => mapCode.has(id) || inVideo(id);
  const down = ids.flatMap((id) => info(id)?.dynamicallyImportedIds ?? []).filter((id) => !outside(id));
  while (down.length) {
    const id = down.pop()!;
    if (app.has(id)) continue;
    app.add(id);
    down.push(...(info(id)?.importedIds ?? []).filter((dep) => !outside(dep)));
  }
  return app;
}

/**
 * The inline script that, when a session is stored (the readable `id` cookie of lib/session.ts), adds a
 * modulepreload link for the app chunk and its style sheet while the page is still being parsed,
 * so they cross the link beside the entry. The login screen (no session) fetches neither.
 */
export function sessionPreload(js: string, css: string[]): string {
  const links = [
    ...css.map((href) => ({ rel: 'stylesheet', href })),
    { rel: 'modulepreload', href: js, crossOrigin: '' },
  ];
  return (
    `if(/(^|;\\s*)id=[^;]/.test(document.cookie))for(const l of ${JSON.stringify(links)})` +
    'document.head.appendChild(Object.assign(document.createElement("link"),l))'
  );
}
