import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
);
