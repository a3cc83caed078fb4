import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * HTML sinks: places where a string is parsed as markup. Stored text (an event value, a cruise
 * name, a user's full name …) that reaches one runs as script in every viewer's page, so the client
 * never writes HTML from strings: React renders text, and the libraries that take HTML (Leaflet's
 * tooltips, popups, icons, layer names and attributions) get an element built with textContent or
 * an escaped string from apps/web/src/lib/html-text.ts. A constant string literal is allowed where
 * a library needs markup of its own.
 */
const htmlSinkMessage = 'HTML sink: pass text (textElement / escapeHtml from apps/web/src/lib/html-text.ts), not HTML.';
export const htmlSinkSelectors = [
  // el.innerHTML = …, el.outerHTML = …, Object.assign(el, { innerHTML: … })
  'AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]',
  'Property[key.name=/^(innerHTML|outerHTML|srcdoc)$/]',
  'CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment|setHTMLUnsafe|parseHTMLUnsafe)$/]',
  "CallExpression[callee.object.name='document'][callee.property.name=/^(write|writeln)$/]",
  "JSXAttribute[name.name='dangerouslySetInnerHTML']",
  // Leaflet reads a string as HTML: tooltips, popups and their content take a textElement(…).
  "CallExpression[callee.property.name=/^(bindTooltip|bindPopup|setContent|setTooltipContent|setPopupContent)$/][arguments.length>0]:not([arguments.0.callee.name='textElement'])",
  "CallExpression[callee.object.name='L'][callee.property.name=/^(tooltip|popup)$/] > ObjectExpression > Property[key.name='content']:not([value.callee.name='textElement'])",
  "CallExpression[callee.property.name='divIcon'] > ObjectExpression > Property[key.name='html']:not([value.callee.name='textElement']):not([value.type='Literal'])",
  // Layer names in the layers control and attributions are HTML strings in Leaflet.
  "CallExpression[callee.property.name=/^(addBaseLayer|addOverlay)$/]:not([arguments.1.callee.name='escapeHtml']):not([arguments.1.type='Literal'])",
  "CallExpression[callee.object.property.name='control'][callee.property.name='layers']:matches([arguments.0.type='ObjectExpression'], [arguments.1.type='ObjectExpression'])",
  "CallExpression[callee.property.name=/^(addAttribution|setPrefix)$/]:not([arguments.0.type='Literal'])",
  "Property[key.name='attribution']:not([value.callee.name=/^(attributionHtml|escapeHtml)$/]):not([value.type='Literal'])",
].map((selector) => ({ selector, message: htmlSinkMessage }));

// Server import direction ----------------------------------------------------------------------
// Who may import whom in apps/server (and packages/shared); docs/architecture.md#server-import-direction
// gives the layers and the reasons. `import-x/no-restricted-paths`: a file under `target` may not
// import a file under `from`. Paths are relative to this file.
const server = 'apps/server/src';
const serverDirs = (...names) => names.map((name) => `${server}/${name}`);
/** The composition roots: they wire the layers together, nothing imports them back. */
const serverRoots = serverDirs('app.ts', 'main.ts', 'cli', 'jobs');
const migrationFiles = `${server}/db/migrations/[0-9]*.ts`;
const serverModules = readdirSync(new URL(`./${server}/modules`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Modules import each other through their services and public helpers, never another module's
 * routes or repositories. Shared repositories: the access rule's SQL (every record read goes
 * through it), the records base of cruises and lowerings, and the audit trail, which every write
 * appends to inside its own transaction.
 */
const sharedRepositories = [
  'access/access.repository.ts',
  'records/records.repository.ts',
  'audit/audit.repository.ts',
];
/**
 * Repository imports across modules that predate the rule, by importing module: reads to move
 * behind the owning module's service. The list only shrinks; a new entry is a design decision.
 */
const repositoryDebt = {
  auth: ['users/users.repository.ts'],
  cruises: ['lowerings/lowerings.repository.ts'],
  lowerings: ['cruises/cruises.repository.ts'],
  events: ['event-aux-data/event-aux-data.repository.ts'],
  'event-aux-data': ['events/events.repository.ts'],
  'event-exports': [
    'event-aux-data/event-aux-data.repository.ts',
    'events/events.repository.ts',
    'events/record-windows.repository.ts',
  ],
  files: ['event-aux-data/event-aux-data.repository.ts', 'events/events.repository.ts'],
  'gis-exports': ['event-aux-data/event-aux-data.repository.ts', 'events/record-windows.repository.ts'],
};

/** Zones that hold for tests too. */
const serverCommonZones = [
  {
    target: 'packages/shared',
    from: ['apps', 'e2e', 'bench'],
    message: 'packages/shared is below the apps: it imports nothing from them.',
  },
  {
    // Everything except the migrations themselves and their registry (db/migrations/index.ts).
    target: [
      `${server}/*.ts`,
      `${server}/!(db)/**`,
      `${server}/db/*.ts`,
      `${server}/db/!(migrations)/**`,
      'apps/server/test/**',
      'bench/**',
    ],
    from: migrationFiles,
    message: 'A migration is frozen once released: share SQL through db/sql/, not by importing a migration.',
  },
];

const serverImportZones = [
  ...serverCommonZones,
  {
    target: migrationFiles,
    from: `${server}/db/migrations/*.ts`,
    message: 'A migration imports no other migration (a released one must never change): share SQL through db/sql/.',
  },
  {
    target: `${server}/lib`,
    from: [
      ...serverDirs('plugins', 'origins', 'modules', 'realtime', 'db', 'seed', 'storage', 'context.ts'),
      ...serverRoots,
    ],
    message: 'lib/ is the bottom layer: it imports no plugin, module, realtime, db or app code.',
  },
  {
    target: `${server}/storage`,
    from: [
      ...serverDirs('plugins', 'origins', 'modules', 'realtime', 'db', 'seed', 'context.ts', 'config.ts'),
      ...serverRoots,
    ],
    message: 'storage/ (the file store) is below db/ and the modules: it imports only lib/.',
  },
  {
    target: `${server}/db`,
    from: [...serverDirs('plugins', 'origins', 'modules', 'realtime', 'seed', 'context.ts'), ...serverRoots],
    message: 'db/ is below the modules: modules register what db/ runs for them (db/write-worker-thread.ts).',
  },
  {
    target: `${server}/plugins`,
    from: [...serverDirs('origins', 'modules', 'realtime', 'seed'), ...serverRoots],
    message: 'plugins/ is below the modules: a module registers what a plugin needs from it.',
  },
  {
    target: `${server}/realtime`,
    from: [...serverDirs('origins', 'modules', 'seed'), ...serverRoots],
    message: 'realtime/ is below the modules: modules publish on the bus; jobs are started by the app (jobs/).',
  },
  {
    target: `${server}/origins`,
    from: [...serverDirs('modules', 'seed'), ...serverRoots],
    message: 'origins/ (where a record came from) is below the modules: a module registers what the guard allows.',
  },
  {
    target: `${server}/modules`,
    from: [...serverDirs('seed'), ...serverRoots],
    message: 'Modules are started by the app; background jobs live in jobs/ and call modules, not the other way.',
  },
  ...serverModules.map((name) => ({
    target: `${server}/modules/${name}`,
    from: `${server}/modules/*/*.{repository,routes}.ts`,
    // Absolute globs (with a glob `from`, import-x matches exceptions as they are, not resolved).
    except: [`${name}/**`, ...sharedRepositories, ...(repositoryDebt[name] ?? [])].map((file) =>
      new URL(`./${server}/modules/${file}`, import.meta.url).pathname.replace(/\.ts$/, '.[t]s'),
    ),
    message: "Another module's routes and repositories are its own: call its service (or a public file of it).",
  })),
];

/** Tests arrange their data through any layer, but migrations stay frozen and shared stays below. */
const serverTestImportZones = serverCommonZones;
// Web import direction ------------------------------------------------------------------------
/**
 * The client's layers, lowest first; each imports only from its own layer and those below it:
 *   lib/ + api/   helpers, settings, the HTTP and realtime client (one layer: each uses the other)
 *   components/   generic UI: no domain words beyond what a prop says
 *   domain/       the data and UI that several screens share: events, records, lowering fetchers
 *   features/X/   one screen (or a modal editor) and what only it uses; never another feature
 *   app/          routes and layout: the one place that composes features (a screen that shows
 *                 another feature's part takes it as a prop or slot filled in app/routes/)
 * A new feature folder is covered without an edit here: the zones are made from the folder list.
 */
const webSrc = 'apps/web/src';
const webFeatures = readdirSync(path.join(import.meta.dirname, webSrc, 'features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const webLayer = (...names) => names.map((n) => `${webSrc}/${n}`);
export const webImportZones = [
  {
    target: webLayer('lib', 'api'),
    from: webLayer('components', 'domain', 'features', 'app'),
    message:
      'Web import direction: lib/ and api/ are the lowest layer and import no components, domain, features or app.',
  },
  {
    target: webLayer('components'),
    from: webLayer('domain', 'features', 'app'),
    message: 'Web import direction: components/ imports only lib/ and api/ (pass domain data in as props).',
  },
  {
    target: webLayer('domain'),
    from: webLayer('features', 'app'),
    message: 'Web import direction: domain/ is shared by the features and imports none of them, nor app/.',
  },
  ...webFeatures.map((name) => ({
    target: webLayer(`features/${name}`),
    from: webLayer('features'),
    except: [`./${name}`],
    message: `Web import direction: features/${name} imports no other feature; move shared code to domain/ or components/, or let app/ pass the other feature's part in as a prop.`,
  })),
  {
    target: webLayer('features'),
    from: webLayer('app'),
    message: 'Web import direction: features import nothing from app/ (app/ composes features, not the reverse).',
  },
];
const mapLibraries = ['leaflet', 'react-leaflet', 'uplot', 'topojson-client', 'world-atlas'];
const webImportDirection = [
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webImportZones }],
    },
  },
  {
    // The map and chart libraries are imported only under a `maps` folder (src/components/maps/):
    // apps/web/chunk-groups.ts puts what reaches such a folder in the `maps` chunk, not in `app`.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/maps/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: mapLibraries.flatMap((name) => [name, `${name}/*`]),
              message: 'Map and chart libraries are imported only under a maps/ folder (see apps/web/chunk-groups.ts).',
            },
          ],
        },
      ],
    },
  },
];
// ---------------------------------------------------------------------------------------------

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'bench/results/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-syntax': ['error', ...htmlSinkSelectors],
    },
  },
  // Server import direction (zones above).
  {
    files: ['apps/server/**/*.ts', 'packages/shared/**/*.ts', 'bench/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Relative imports name the compiled `.js`; the file on disk is `.ts`.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: serverImportZones, basePath: import.meta.dirname }] },
  },
  {
    files: ['apps/server/**/*.test.ts', 'apps/server/src/**/testing/**/*.ts', 'apps/server/test/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverTestImportZones, basePath: import.meta.dirname }],
    },
  },
  ...webImportDirection,
);
