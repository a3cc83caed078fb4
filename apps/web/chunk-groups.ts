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
 * small files also compress worse than one. Here the lazily loaded code forms three chunks: `app`
 * (what the lazily loaded modules that are not map code import statically, map code apart, but
 * for `screens`), `screens` (the code one screen alone uses, but the console's: screenChunks,
 * when `firstScreen` names the module that loads the first screen) and `maps` (map code, above,
 * and what only it needs). `app` never imports `maps` statically, as whatever imports map code is
 * map code: a stored session preloads `app` without the maps.
 *
 * A group must never take a module of the entry's static graph, or the entry would import the
 * group and the login screen would load it. Rolldown tags those modules `$initial`, after tree
 * shaking (react-bootstrap's barrel imports every component, but only those the shell renders are
 * initial): a first group with a higher priority takes them, and as it holds only modules the
 * entry needs, they stay in the entry's chunk. The groups do not pull in their modules'
 * dependencies (`includeDependenciesRecursively: false`): those are in the entry or in a group.
 */
export function chunkGroups(options: { firstScreen?: string } = {}): Plugin {
  /** What the lazily loaded modules import statically, map code apart. */
  const app = new Set<string>();
  /** The screens' own code (screenChunks): module → its chunk's name. */
  const own = new Map<string, string>();
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
                    name: (id: string) =>
                      inVideoPlayer(srcDir, id) ? 'video' : (own.get(id) ?? (app.has(id) ? 'app' : 'maps')),
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
      own.clear();
      if (!options.firstScreen) return;
      const first = firstScreenEntries(path.resolve(srcDir, '..', options.firstScreen), (id) => this.getModuleInfo(id));
      const chunks = screenChunks(
        ids,
        (id) => this.getModuleInfo(id),
        (id) => inMapsFolder(srcDir, id),
        (id) => inVideoPlayer(srcDir, id),
        first,
      );
      for (const [id, name] of chunks) own.set(id, name);
    },
    // A stored session's first screen needs the app chunk and its first GETs (src/api/early-gets.ts):
    // sent beside the entry, not after it.
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const named = (name: string) => {
          const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === name);
          if (chunk?.type !== 'chunk') return undefined;
          return { js: base + chunk.fileName, css: [...(chunk.viteMetadata?.importedCss ?? [])].map((f) => base + f) };
        };
        const app = named('app');
        if (!app) return;
        const script = `${earlyGetsScript()};${sessionPreload(app.js, app.css, named('screens'))}`;
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
  const mapCode = mapCodeOf(ids, info, inMaps);
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

/** Map code: the modules `inMaps` names and every module that statically imports one, directly or not. */
function mapCodeOf(ids: readonly string[], info: (id: string) => ModuleLinks | null, inMaps: (id: string) => boolean) {
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
  return mapCode;
}

/** What a module imports statically, transitively, itself included, but for the modules `outside` names. */
function staticClosure(start: string, info: (id: string) => ModuleLinks | null, outside: (id: string) => boolean) {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length) {
    const id = todo.pop()!;
    if (seen.has(id) || outside(id)) continue;
    seen.add(id);
    todo.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * The modules a stored session's first screen loads at once (src/app/first-screen.ts): what the
 * first-screen module and our modules it imports statically import with `import()`: the signed-in
 * header and footer, the console, the screens' style sheet. Their code stays in `app`, which
 * index.html preloads beside the entry, so the console costs no request after the entry's.
 */
export function firstScreenEntries(file: string, info: (id: string) => ModuleLinks | null): Set<string> {
  const library = (id: string) => id.includes(`${path.sep}node_modules${path.sep}`);
  const entries = new Set<string>();
  for (const id of staticClosure(file, info, library))
    for (const dep of info(id)?.dynamicallyImportedIds ?? []) entries.add(dep);
  return entries;
}

/**
 * The screens' own code (docs/lean-client.md#what-keeps-the-first-load-small): what one lazily
 * loaded module alone reaches (a management screen, the taxon picker, with any library only it
 * uses) goes to the `screens` chunk, fetched when a screen other than the console opens, beside
 * `app`, which keeps what two or more of them share and what the first screen loads (`first`: the
 * console, the signed-in header and footer). Map code and the video player keep their chunks; a
 * module that map code also imports stays in `app`. One chunk for all those screens rather than
 * one each: 27 small chunks made the whole app 16 kB larger (each compressed alone, each with its
 * imports and exports), and a screen opened later costs no request once one of them was opened.
 */
export function screenChunks(
  ids: readonly string[],
  info: (id: string) => ModuleLinks | null,
  inMaps: (id: string) => boolean,
  inVideo: (id: string) => boolean,
  first: ReadonlySet<string>,
): Map<string, string> {
  const mapCode = mapCodeOf(ids, info, inMaps);
  const outside = (id: string) => mapCode.has(id) || inVideo(id);
  const users = new Map<string, Set<string>>();
  const addUser = (id: string, user: string) => users.set(id, (users.get(id) ?? new Set()).add(user));
  const entries = new Set(ids.flatMap((id) => info(id)?.dynamicallyImportedIds ?? []).filter((id) => !outside(id)));
  for (const entry of entries) for (const id of staticClosure(entry, info, outside)) addUser(id, entry);
  for (const code of mapCode)
    for (const dep of info(code)?.importedIds ?? [])
      for (const id of staticClosure(dep, info, outside)) addUser(id, '');
  const shared = new Set<string>();
  for (const entry of first) for (const id of staticClosure(entry, info, outside)) shared.add(id);
  const chunks = new Map<string, string>();
  for (const [id, by] of users) {
    if (by.size !== 1 || shared.has(id)) continue;
    const [entry] = [...by];
    if (entry) chunks.set(id, 'screens');
  }
  return chunks;
}

/**
 * The inline script that, when a session is stored (the readable `id` cookie of lib/session.ts), adds a
 * modulepreload link for the app chunk and its style sheet while the page is still being parsed,
 * so they cross the link beside the entry; on any page but the console also the screens' chunk
 * (`screens`). The login screen (no session) fetches none of them.
 */
export function sessionPreload(js: string, css: string[], screens?: { js: string; css: string[] }): string {
  const links = (chunk: { js: string; css: string[] }) => [
    ...chunk.css.map((href) => ({ rel: 'stylesheet', href })),
    { rel: 'modulepreload', href: chunk.js, crossOrigin: '' },
  ];
  const add = (list: object[]) =>
    `for(const l of ${JSON.stringify(list)})document.head.appendChild(Object.assign(document.createElement("link"),l))`;
  return (
    `if(/(^|;\\s*)id=[^;]/.test(document.cookie)){${add(links({ js, css }))}` +
    (screens ? `;if(location.pathname!=="/")${add(links(screens))}` : '') +
    '}'
  );
}
