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
  ...webImportDirection,
);
