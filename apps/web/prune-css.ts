import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import purgeCSSPlugin from '@fullhuman/postcss-purgecss';

/** The style sheets pruned: Bootstrap's and its icon font's (our own CSS is all used). */
const pruned = /node_modules[\\/]bootstrap(-icons)?[\\/]/;

/**
 * The class-name prefixes react-bootstrap joins with a prop at run time (`${prefix}-${variant}`,
 * `${prefix}-${size}` …): `variant="outline-secondary"` in our code keeps `.btn-outline-secondary`.
 */
const variantPrefixes = [
  'alert',
  'badge',
  'bg',
  'border',
  'btn',
  'btn-group',
  'dropdown-menu',
  'form-control',
  'form-select',
  'list-group',
  'modal',
  'nav',
  'navbar-expand',
  'pagination',
  'progress-bar',
  'table',
  'text',
  'text-bg',
];

/**
 * The grid's classes, all of them: react-bootstrap's `<Col>` and `<Row>` build them from props
 * (`xl={{ span: 5, offset: 1 }}` → `col-xl-5 offset-xl-1`, `md={listWidth.md}` → a number known
 * only at run time), which no reading of the sources finds reliably; a dropped one moves a screen
 * silently. About 3 kB of gzip.
 */
const gridClasses = /^(col|offset|order|row-cols)(-(sm|md|lg|xl|xxl))?(-[\w]+)?$/;

/**
 * Every word of a source file, each joined to the variant prefixes; and react-bootstrap's
 * `${bsPrefix}-dialog` joined to the file's words (its prefix is a literal there: 'modal').
 */
function extract(content: string): string[] {
  const found = content.match(/[\w-]+/g) ?? [];
  const words = new Set(found);
  const suffixes = found.filter((w) => w.startsWith('-') && w.length > 1);
  const bases = found.filter((w) => /^[a-z]/.test(w));
  for (const suffix of suffixes) for (const base of bases) words.add(`${base}${suffix}`);
  for (const word of found) for (const prefix of variantPrefixes) words.add(`${prefix}-${word}`);
  return [...words];
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(tsx?|html)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

/**
 * react-bootstrap's modules we use: the components our sources import, the members of them we
 * render (`Form.Control` → FormControl.js), and what those import. Their literal class names
 * (`show`, `dropdown-item` …) are kept; the components we never render (floating labels,
 * offcanvas, carousel …) are not scanned, so their CSS goes.
 */
export function reactBootstrapFiles(sources: string[], webRoot: string): string[] {
  const esm = path.dirname(createRequire(path.join(webRoot, 'package.json')).resolve('react-bootstrap/esm/index.js'));
  const names = new Set<string>();
  const members = new Set<string>();
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    const aliases = new Map<string, string>();
    for (const [, list] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'react-bootstrap'/g)) {
      for (const item of list!.split(',')) {
        const [name, alias] = item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/);
        if (!name) continue;
        names.add(name);
        aliases.set(alias ?? name, name);
      }
    }
    for (const [, local, member] of text.matchAll(/\b([A-Z]\w*)\.([A-Z]\w*)/g)) {
      const name = aliases.get(local!);
      if (name) members.add(`${name}.${member}`);
    }
  }
  const files = new Set<string>();
  const visit = (name: string) => {
    const file = path.join(esm, `${name}.js`);
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    // `Object.assign(Form, { Control: FormControl, Switch })`: members followed only when rendered.
    const code = text.replace(/^import .*$/gm, '');
    const assigned = new Map<string, string>();
    for (const [, body] of text.matchAll(/Object\.assign\(\w+,\s*\{([^}]*)\}\)/g)) {
      for (const entry of body!.split(',')) {
        const [key, ident = key] = entry.split(':').map((part) => part.trim());
        if (key && ident) assigned.set(ident, key);
      }
    }
    // `import DropdownMenu from './DropdownMenu.js'` and `import DropdownMenu, { placement } from …`.
    for (const [, ident, rel] of text.matchAll(/import\s+(\w+)\s*(?:,\s*\{[^}]*\})?\s*from\s*'\.\/([\w.-]+)'/g)) {
      const key = assigned.get(ident!);
      const usedOnlyAsMember = key && code.match(new RegExp(`\\b${ident}\\b`, 'g'))!.length <= 1;
      if (usedOnlyAsMember && !members.has(`${name}.${key}`)) continue;
      visit(rel!.replace(/\.js$/, ''));
    }
    for (const [, rel] of text.matchAll(/import\s*\{[^}]*\}\s*from\s*'\.\/([\w.-]+)'/g))
      visit(rel!.replace(/\.js$/, ''));
  };
  for (const name of names) visit(name);
  return [...files];
}

/**
 * A PostCSS plugin for the production build: drops the rules of Bootstrap and Bootstrap Icons that
 * no class name in our sources (or in the react-bootstrap components we use) can match. Bootstrap
 * stays a plain import (its look and the theme's AA contrast fixes in theme.css are unchanged);
 * the login screen no longer pays for 2,000 icon rules and every responsive utility.
 */
export function pruneCss(webRoot: string) {
  const sources = [...sourceFiles(path.join(webRoot, 'src')), path.join(webRoot, 'index.html')];
  const purge = purgeCSSPlugin({
    content: [...sources, ...reactBootstrapFiles(sources, webRoot)],
    defaultExtractor: extract,
    safelist: {
      // Set on <body> or by Popper / transitions at run time.
      standard: ['modal-open', 'show', 'showing', 'fade', 'collapsing', 'collapse-horizontal', gridClasses],
      greedy: [/tooltip/],
    },
  }) as unknown as { OnceExit: (root: CssRoot, helpers: unknown) => Promise<void> };
  return {
    postcssPlugin: 'bathylog-prune-css',
    OnceExit(root: CssRoot, helpers: unknown) {
      if (!pruned.test(root.source?.input.file ?? '')) return;
      return purge.OnceExit(root, helpers);
    },
  };
}

interface CssRoot {
  source?: { input: { file?: string } };
}
