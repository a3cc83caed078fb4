import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appModules, inMapsFolder, screenChunks } from '../apps/web/chunk-groups.ts';

/**
 * The client build's split of the lazily loaded code (apps/web/chunk-groups.ts) follows the `maps`
 * folders: a screen is placed by what it imports, never by its name. The graphs below are made up
 * (module ids as Rolldown gives them: absolute paths); the real build is checked by the bundle
 * budget (scripts/check-bundle-budget.mjs).
 */
const srcDir = path.resolve('/repo/apps/web/src');
const id = (file: string) => path.join(srcDir, file);
const leaflet = path.resolve('/repo/node_modules/leaflet/dist/leaflet-src.js');

type Graph = Record<string, { imports?: string[]; lazy?: string[] }>;

function split(graph: Graph): Set<string> {
  const ids = Object.keys(graph);
  return appModules(
    ids,
    (m) => (graph[m] ? { importedIds: graph[m].imports ?? [], dynamicallyImportedIds: graph[m].lazy ?? [] } : null),
    (m) => inMapsFolder(srcDir, m),
  );
}

/** The console's shape: a router loading screens, one of them with a map, one opening an editor on demand. */
const app: Graph = {
  [id('main.tsx')]: { imports: [id('app/router.tsx')] },
  [id('app/router.tsx')]: { lazy: [id('app/routes/lowerings.tsx'), id('app/routes/review-map.tsx')] },
  [id('app/routes/lowerings.tsx')]: {
    imports: [id('features/lowerings/lowerings-screen.tsx'), id('app/milestones-modal-slot.tsx')],
  },
  [id('app/milestones-modal-slot.tsx')]: { lazy: [id('features/milestones/milestones-modal.tsx')] },
  [id('features/lowerings/lowerings-screen.tsx')]: { imports: [id('components/alerts.tsx')] },
  [id('features/milestones/milestones-modal.tsx')]: {
    imports: [id('components/maps/dive-map/index.ts'), id('features/milestones/tweak-form.tsx')],
  },
  [id('features/milestones/tweak-form.tsx')]: {},
  [id('app/routes/review-map.tsx')]: { imports: [id('features/review/map-screen.tsx')] },
  [id('features/review/map-screen.tsx')]: {
    imports: [
      id('components/maps/dive-map/index.ts'),
      id('components/alerts.tsx'),
      id('features/review/lib/position.ts'),
    ],
  },
  [id('features/review/lib/position.ts')]: {},
  [id('components/maps/dive-map/index.ts')]: { imports: [id('components/maps/dive-map/dive-map.tsx')] },
  [id('components/maps/dive-map/dive-map.tsx')]: { imports: [leaflet, id('lib/html-text.ts')] },
  [leaflet]: {},
  [id('lib/html-text.ts')]: {},
  [id('components/alerts.tsx')]: {},
};

describe('the app and maps chunks', () => {
  it('put screens without map code in app, and map code with all that imports it in maps', () => {
    const inApp = split(app);
    expect([...inApp].map((m) => path.relative(srcDir, m)).sort()).toEqual([
      'app/milestones-modal-slot.tsx',
      'app/routes/lowerings.tsx',
      'components/alerts.tsx',
      'features/lowerings/lowerings-screen.tsx',
    ]);
  });

  it('place a new screen by what it imports, with no list to edit', () => {
    const graph: Graph = {
      ...app,
      [id('app/router.tsx')]: {
        lazy: [
          ...app[id('app/router.tsx')]!.lazy!,
          id('features/archive/archive-screen.tsx'),
          id('features/dives/dives-screen.tsx'),
        ],
      },
      // A screen drawing a map (statically, through any number of modules).
      [id('features/archive/archive-screen.tsx')]: { imports: [id('features/archive/archive-map.tsx')] },
      [id('features/archive/archive-map.tsx')]: { imports: [id('components/maps/dive-map/index.ts')] },
      // A screen without one.
      [id('features/dives/dives-screen.tsx')]: { imports: [id('components/alerts.tsx')] },
    };
    const inApp = split(graph);
    expect(inApp.has(id('features/dives/dives-screen.tsx'))).toBe(true);
    expect(inApp.has(id('features/archive/archive-screen.tsx'))).toBe(false);
    expect(inApp.has(id('features/archive/archive-map.tsx'))).toBe(false);
    expect(inApp.has(leaflet)).toBe(false);
  });

  it('never let an app module import a maps module statically', () => {
    const inApp = split(app);
    for (const m of inApp) {
      for (const dep of app[m]?.imports ?? []) expect(inApp.has(dep)).toBe(true);
    }
  });

  it('count as map code only modules of our sources under a maps folder', () => {
    expect(inMapsFolder(srcDir, id('components/maps/dive-map/coastline.ts'))).toBe(true);
    expect(inMapsFolder(srcDir, id('features/review/maps/track.tsx'))).toBe(true);
    expect(inMapsFolder(srcDir, `${id('components/maps/dive-map/dive-map.css')}?used`)).toBe(true);
    expect(inMapsFolder(srcDir, id('features/review/map-screen.tsx'))).toBe(false);
    expect(inMapsFolder(srcDir, id('maps.ts'))).toBe(false);
    expect(inMapsFolder(srcDir, path.resolve('/repo/node_modules/some-lib/src/maps/index.js'))).toBe(false);
  });

  it("give code that one lazily loaded module alone reaches to the screens chunk, but the first screen's", () => {
    const graph: Graph = {
      ...app,
      [id('app/router.tsx')]: { lazy: [...app[id('app/router.tsx')]!.lazy!, id('app/routes/home.tsx')] },
      [id('app/routes/home.tsx')]: { imports: [id('components/alerts.tsx'), id('features/event-log/screen.tsx')] },
      [id('features/event-log/screen.tsx')]: {},
    };
    const ids = Object.keys(graph);
    const info = (m: string) =>
      graph[m] ? { importedIds: graph[m].imports ?? [], dynamicallyImportedIds: graph[m].lazy ?? [] } : null;
    const chunks = screenChunks(
      ids,
      info,
      (m) => inMapsFolder(srcDir, m),
      () => false,
      new Set([id('app/routes/home.tsx')]),
    );
    expect([...chunks.keys()].map((m) => path.relative(srcDir, m)).sort()).toEqual([
      'app/milestones-modal-slot.tsx',
      'app/routes/lowerings.tsx',
      'features/lowerings/lowerings-screen.tsx',
    ]);
    // Shared by two screens, the console's, map code: not a screen's own.
    expect(chunks.has(id('components/alerts.tsx'))).toBe(false);
    expect(chunks.has(id('features/event-log/screen.tsx'))).toBe(false);
    expect(chunks.has(id('features/review/lib/position.ts'))).toBe(false);
  });
});
