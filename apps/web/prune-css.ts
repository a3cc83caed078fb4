import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import purgeCSSPlugin from '@fullhuman/postcss-purgecss';
import { parseSync } from 'vite';

/** Bootstrap's style sheet, imported by main.tsx: pruned to what the entry's modules can show. */
const bootstrapCss = /node_modules[\\/]bootstrap[\\/]dist[\\/]css[\\/]bootstrap(\.min)?\.css$/;
/** Bootstrap Icons' style sheet (imported by the signed-in header's menus): pruned to all sources. */
const iconsCss = /node_modules[\\/]bootstrap-icons[\\/]/;
/**
 * The signed-in screens' part of Bootstrap (docs/lean-client.md#what-keeps-the-first-load-small):
 * a style sheet of the `app` chunk that the build fills with the rules the screens use and the
 * entry's part lacks.
 */
const screensCss = /[\\/]src[\\/]app[\\/]bootstrap-screens\.css$/;

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
 * The grid's classes that our sources' `<Col>` and `<Row>` props can build. react-bootstrap builds
 * them at run time (`xl={{ span: 5, offset: 1 }}` → `col-xl-5 offset-xl-1`, `md={listWidth.md}` →
 * a number known only then), which no reading of the values finds reliably, and a dropped one moves
 * a screen silently: so a breakpoint prop keeps every class of that breakpoint the component can
 * build. On a `<Row>` (`md={3}`) that is `row-cols-md-*`; on anything else (`<Col>`, or `<Form.Group
 * as={Col}>`) `col-md`, `col-md-auto`, `col-md-1` … `col-md-12` and `offset-md-0` … `offset-md-11`,
 * and `order-md-*` when the tag's props name `order`. A breakpoint no tag names (`xxl` today) keeps
 * none of its classes. These are kept in both parts of Bootstrap (the entry's too): the whole grid
 * stays in the entry's style sheet, where it was.
 */
export function gridWords(content: string): string[] {
  const words: string[] = [];
  for (const [, tag, props] of content.matchAll(/<([A-Z][\w.]*)\s((?:=>|[^<>=]|=(?!>))*?)\/?>/g)) {
    for (const [, bp] of props!.matchAll(/\b(xs|sm|md|lg|xl|xxl)=/g)) {
      const infix = bp === 'xs' ? '' : `-${bp}`;
      const numbered = (prefix: string, first: number, last: number) => {
        for (let n = first; n <= last; n++) words.push(`${prefix}${infix}-${n}`);
      };
      if (tag === 'Row') {
        words.push(`row-cols${infix}-auto`);
        numbered('row-cols', 1, 6);
        continue;
      }
      words.push(`col${infix}`, `col${infix}-auto`);
      numbered('col', 1, 12);
      numbered('offset', 0, 11);
      if (/\border\b/.test(props!)) {
        words.push(`order${infix}-first`, `order${infix}-last`);
        numbered('order', 0, 5);
      }
    }
  }
  return [...new Set(words)];
}

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

/**
 * The entry's static module graph among our sources: main.tsx and what it imports with `import …
 * from`, transitively (not `import()`). What these render before a lazily loaded chunk arrives,
 * the login screen included, is drawn with the entry's style sheet alone.
 */
export function entrySourceFiles(srcDir: string): string[] {
  const seen = new Set<string>();
  const todo = [path.join(srcDir, 'main.tsx')];
  const resolve = (from: string, spec: string) => {
    const base = path.resolve(path.dirname(from), spec);
    return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find(
      (file) => existsSync(file) && statSync(file).isFile(),
    );
  };
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { module } = parseSync(file, readFileSync(file, 'utf8'));
    const specs = [
      ...module.staticImports.map((i) => i.moduleRequest.value),
      ...module.staticExports.flatMap((e) => e.entries.map((entry) => entry.moduleRequest?.value)),
    ];
    for (const spec of specs) {
      if (!spec?.startsWith('.')) continue;
      const target = resolve(file, spec);
      if (target && /\.tsx?$/.test(target)) todo.push(target);
    }
  }
  return [...seen];
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

/** A rule's place and declarations, without its selector. */
function bodyKey(node: CssNode): string {
  let key = `{${node.nodes?.map(String).join(';') ?? ''}}`;
  if (node.type === 'atrule') key = `@${node.name} ${node.params}${key}`;
  for (let p = node.parent; p && p.type === 'atrule'; p = p.parent) key = `@${p.name} ${p.params}>${key}`;
  return key;
}

/**
 * What a selector says of the element it styles: its specificity as one number (ids, then classes,
 * attributes and pseudo-classes, then types), its type, and the families of its classes (the part
 * before the first dash: `pagination-sm` is of `pagination`, as Bootstrap names a component's
 * modifiers after it).
 */
export function subject(selector: string): { specificity: number; type: string; families: string[] } {
  const s = selector.replace(/::[\w-]+/g, '').replace(/:(not|is|has)\(/g, '(');
  const ids = s.match(/#[\w-]+/g)?.length ?? 0;
  const classes = s.match(/\.[\w-]+|\[[^\]]*\]|:[\w-]+/g)?.length ?? 0;
  const types = s.match(/(^|[\s>+~(])[a-z][\w-]*/gi)?.length ?? 0;
  const last = s.split(/[\s>+~]+/).pop() ?? '';
  return {
    specificity: ids * 10_000 + classes * 100 + types,
    type: /^[a-z][\w-]*/i.exec(last)?.[0] ?? '',
    families: [...last.matchAll(/\.([a-z\d]+)/gi)].map((m) => m[1]!),
  };
}

/** Whether two selectors can style one element with the same weight: then the later one wins. */
function rivals(a: ReturnType<typeof subject>, b: ReturnType<typeof subject>): boolean {
  if (a.specificity !== b.specificity) return false;
  if (a.type && b.type && a.type !== b.type) return false;
  // A rule for an element type (or `*`) against one for classes: Bootstrap does not lean on their order.
  if (a.families.length === 0 || b.families.length === 0)
    return a.families.length === b.families.length && a.type === b.type;
  return a.families.some((f) => b.families.includes(f));
}

/**
 * Drops from `screens` what `shell` has: rules and at-rules with the same place and declarations,
 * and of a rule with the same declarations as one of shell's, the selectors shell's already has
 * (the two copies were pruned against different sources, so one may keep more of a list).
 *
 * Shell's rules come first in the page, the screens' after them, where Bootstrap had them
 * interleaved; so a rule of shell's stays in `screens` too when a rule there that came before it
 * in Bootstrap sets one of its properties at the same specificity, which would otherwise win now
 * (`.pagination-sm` after `.pagination`, or the small pagers would be large).
 */
function subtract(screens: CssRoot, shell: CssRoot) {
  const selectors = new Map<string, Set<string>>();
  const atRules = new Set<string>();
  shell.walk((node) => {
    if (node.type === 'rule') {
      const key = bodyKey(node);
      const set = selectors.get(key) ?? new Set<string>();
      for (const selector of node.selectors!) set.add(selector);
      selectors.set(key, set);
    } else if (node.type === 'atrule' && !node.nodes?.some((n) => n.type !== 'decl')) atRules.add(bodyKey(node));
  });
  /** For each property (`!` appended when important), the selectors of the screens' own rules that set it. */
  const setters = new Map<string, ReturnType<typeof subject>[]>();
  const props = declared;
  const note = (node: CssNode) => {
    for (const prop of props(node)) {
      const list = setters.get(prop) ?? [];
      list.push(...node.selectors!.map(subject));
      setters.set(prop, list);
    }
  };
  screens.walk((node) => {
    if (node.type === 'atrule' && atRules.has(bodyKey(node))) node.remove();
    if (node.type !== 'rule') return;
    const known = selectors.get(bodyKey(node));
    if (!known) return note(node);
    const mine = node.selectors!.map(subject);
    const overridden = props(node).some((prop) =>
      (setters.get(prop) ?? []).some((other) => mine.some((s) => rivals(s, other))),
    );
    if (overridden) return note(node);
    const left = node.selectors!.filter((selector) => !known.has(selector));
    if (left.length) {
      node.selectors = left;
      note(node);
    } else node.remove();
  });
  // Media queries and keyframes left without rules.
  screens.walk((node) => {
    if (node.type === 'atrule' && node.nodes?.length === 0) node.remove();
  });
}

/**
 * The rules of `theme` (theme.css, which comes after main.tsx's Bootstrap) that a rule of `screens`
 * (Bootstrap's rules loaded later) would now override: the same property for an element both can
 * style with the same weight. Their copies follow `screens`, so the theme still wins.
 */
function overridden(theme: CssRoot, screens: CssRoot): CssNode[] {
  const setters = new Map<string, ReturnType<typeof subject>[]>();
  screens.walk((node) => {
    if (node.type !== 'rule') return;
    for (const prop of declared(node))
      setters.set(prop, [...(setters.get(prop) ?? []), ...node.selectors!.map(subject)]);
  });
  const copies: CssNode[] = [];
  theme.walk((node) => {
    if (node.type !== 'rule' || node.parent?.type !== 'root') return;
    const mine = node.selectors!.map(subject);
    if (declared(node).some((prop) => (setters.get(prop) ?? []).some((other) => mine.some((s) => rivals(s, other)))))
      copies.push(node.clone());
  });
  return copies;
}

/** A rule's properties, `!` appended to the important ones. */
function declared(node: CssNode): string[] {
  return (node.nodes ?? []).filter((n) => n.type === 'decl').map((n) => `${n.prop}${n.important ? '!' : ''}`);
}

/**
 * Whether every page is drawn in Bootstrap's dark colour mode: index.html's `<html>` says
 * `data-bs-theme="dark"` and no source of ours sets the attribute (`data-bs-theme`, react-bootstrap's
 * `data-bs-theme` prop on Modal) on a part of the page.
 */
export function alwaysDark(html: string, sources: string[]): boolean {
  return (
    /<html[^>]*\sdata-bs-theme="dark"/.test(html) &&
    !sources.some((file) => !file.endsWith('.css') && /bs-theme|dataBsTheme/i.test(readFileSync(file, 'utf8')))
  );
}

/**
 * Bootstrap's light colour values that the dark mode redefines: in `:root,[data-bs-theme=light]`,
 * the custom properties a `[data-bs-theme=dark]` rule sets again. With `<html data-bs-theme="dark">`
 * and no light part in the page (alwaysDark), the dark rule, later and of the same weight, wins on
 * every element: those light values never apply (about 0.3 kB gzip of the login screen).
 */
function dropLightValuesDarkRedefines(root: CssRoot) {
  const dark = new Set<string>();
  for (const node of root.nodes)
    if (node.type === 'rule' && node.selector === '[data-bs-theme=dark]')
      for (const decl of node.nodes ?? []) if (decl.type === 'decl') dark.add(decl.prop!);
  for (const node of root.nodes) {
    if (node.type !== 'rule' || node.selectors?.join(',') !== ':root,[data-bs-theme=light]') continue;
    for (const decl of [...(node.nodes ?? [])]) if (decl.type === 'decl' && dark.has(decl.prop!)) decl.remove();
  }
}

/**
 * A PostCSS plugin for the production build: drops the rules of Bootstrap and Bootstrap Icons that
 * no class name in our sources (or in the react-bootstrap components we use) can match. Bootstrap
 * stays a plain import (its look and the theme's AA contrast fixes in theme.css are unchanged);
 * the login screen no longer pays for 2,000 icon rules and every responsive utility.
 *
 * Bootstrap comes in two parts. main.tsx's copy keeps the rules the entry's own modules can match
 * (the login screen's, the shell's); src/app/bootstrap-screens.css, in the `app` chunk, gets the
 * rules the other screens add to those, so the login screen does not load the tables', modals' and
 * menus' rules and no rule crosses the link twice.
 */
export function pruneCss(webRoot: string) {
  const srcDir = path.join(webRoot, 'src');
  const html = path.join(webRoot, 'index.html');
  const grid = sourceFiles(srcDir).flatMap((file) => gridWords(readFileSync(file, 'utf8')));
  const purge = (sources: string[]) =>
    purgeCSSPlugin({
      content: [...sources, ...reactBootstrapFiles(sources, webRoot)],
      defaultExtractor: extract,
      safelist: {
        // Set on <body> or by Popper / transitions at run time.
        standard: ['modal-open', 'show', 'showing', 'fade', 'collapsing', 'collapse-horizontal', ...grid],
        greedy: [/tooltip/],
      },
    }) as unknown as { OnceExit: (root: CssRoot, helpers: CssHelpers) => Promise<void> };
  const all = purge([...sourceFiles(srcDir), html]);
  const entry = purge([...entrySourceFiles(srcDir), html]);
  // Icons are named whole in our sources (`icon="bi-download"`), never built from parts: the words
  // as they are, without the joins above (`${id}-table` would keep `.bi-table`).
  const icons = purgeCSSPlugin({
    content: sourceFiles(srcDir),
    defaultExtractor: (content: string) => content.match(/[\w-]+/g) ?? [],
  }) as unknown as { OnceExit: (root: CssRoot, helpers: CssHelpers) => Promise<void> };
  const dark = alwaysDark(readFileSync(html, 'utf8'), sourceFiles(srcDir));
  const trim = (root: CssRoot) => {
    if (dark) dropLightValuesDarkRedefines(root);
  };
  const themeFile = path.join(srcDir, 'app/theme.css');
  const bootstrapFile = createRequire(path.join(webRoot, 'package.json')).resolve(
    'bootstrap/dist/css/bootstrap.min.css',
  );
  return {
    postcssPlugin: 'bathylog-prune-css',
    async OnceExit(root: CssRoot, helpers: CssHelpers) {
      const file = root.source?.input.file ?? '';
      if (bootstrapCss.test(file)) {
        await entry.OnceExit(root, helpers);
        return trim(root);
      }
      if (iconsCss.test(file)) return icons.OnceExit(root, helpers);
      if (!screensCss.test(file)) return;
      const text = readFileSync(bootstrapFile, 'utf8');
      const screens = helpers.postcss.parse(text, { from: bootstrapFile });
      const shell = helpers.postcss.parse(text, { from: bootstrapFile });
      await all.OnceExit(screens, helpers);
      await entry.OnceExit(shell, helpers);
      trim(screens);
      trim(shell);
      subtract(screens, shell);
      const theme = helpers.postcss.parse(readFileSync(themeFile, 'utf8'), { from: themeFile });
      // Bootstrap's rules first, then the theme's rules they would now override, then the file's own.
      root.prepend([...screens.nodes, ...overridden(theme, screens)]);
    },
  };
}

interface CssNode {
  type: string;
  selector?: string;
  selectors?: string[];
  prop?: string;
  important?: boolean;
  name?: string;
  params?: string;
  nodes?: CssNode[];
  parent?: CssNode;
  remove(): void;
  clone(): CssNode;
}

interface CssRoot {
  source?: { input: { file?: string } };
  nodes: CssNode[];
  walk(callback: (node: CssNode) => void): void;
  prepend(nodes: CssNode[]): void;
}

interface CssHelpers {
  postcss: { parse(css: string, opts: { from: string }): CssRoot };
}
