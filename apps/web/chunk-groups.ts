import type { Plugin } from 'vite';
import { earlyGetsScript } from './src/api/early-gets.ts';

/**
 * The lazily loaded modules whose code is heavy and needed by few screens (Leaflet, uPlot, the
 * coastline): they and what only they import form the `maps` chunk. Everything else loaded
 * lazily forms the `app` chunk.
 */
const heavy = [
  /[\\/]src[\\/]app[\\/]routes[\\/]review-map\.tsx$/,
  /[\\/]src[\\/]features[\\/]review[\\/]components[\\/]replay-map\.tsx$/,
  /[\\/]src[\\/]features[\\/]milestones[\\/]milestones-modal\.tsx$/,
  /[\\/]src[\\/]components[\\/]dive-map[\\/]coastline\.ts$/,
];

/**
 * Fewer, larger chunks for the signed-in screens, for a ship's link with 600 ms round trips. Left
 * to itself the bundler makes a chunk per lazily loaded screen and per set of screens sharing a
 * module: about 80 files, 45 of them for the console, which on a 600 ms link queue behind the
 * browser's six connections; many small files also compress worse than one. Here the lazily loaded
 * code forms two chunks: `app` (what the screens import statically) and `maps` (Leaflet, uPlot and
 * what only they need).
 *
 * A group must never take a module of the entry's static graph, or the entry would import the
 * group and the login screen would load it. Rolldown tags those modules `$initial`, after tree
 * shaking (react-bootstrap's barrel imports every component, but only those the shell renders are
 * initial): a first group with a higher priority takes them, and as it holds only modules the
 * entry needs, they stay in the entry's chunk. The groups do not pull in their modules'
 * dependencies (`includeDependenciesRecursively: false`): those are in the entry or in a group.
 */
export function chunkGroups(): Plugin {
  /** What the lazily loaded modules import statically, the heavy ones apart. */
  const app = new Set<string>();
  let base = '/';
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
                    name: (id: string) => (app.has(id) ? 'app' : 'maps'),
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
    },
    buildEnd() {
      const info = (id: string) => this.getModuleInfo(id);
      const ids = [...this.getModuleIds()];
      const lazy = new Set(ids.flatMap((id) => info(id)?.dynamicallyImportedIds ?? []));
      const queue = [...lazy].filter((id) => !heavy.some((re) => re.test(id)));
      app.clear();
      while (queue.length) {
        const id = queue.pop()!;
        if (app.has(id)) continue;
        app.add(id);
        queue.push(...(info(id)?.importedIds ?? []));
      }
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
