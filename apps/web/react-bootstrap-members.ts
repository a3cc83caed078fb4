import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';
import { sourceFiles } from './prune-css.ts';

/** react-bootstrap's ES modules (`react-bootstrap/esm/Form.js` …). */
const esmFile = /[\\/]node_modules[\\/]react-bootstrap[\\/]esm[\\/][\w.-]+\.js$/;

/** `export default Object.assign(Form, { Group: FormGroup, Switch, … });`: a component's members. */
const membersBlock = /export default Object\.assign\((\w+), \{\n([\s\S]*?)\n\}\);/;

/** `.Control`, `.TOOLTIP_OFFSET`: a member named after a component's key, wherever it is read. */
const memberReads = (code: string) => [...code.matchAll(/\.([A-Z]\w*)\b/g)].map((m) => m[1]!);

/** The entries of a members block: key and the text of its value (`Key` alone for a shorthand). */
function entries(body: string): { key: string; value: string; text: string }[] {
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//'))
    .map((line) => {
      const text = line.replace(/,$/, '');
      const [key, value = key] = text.split(/:\s*/, 2) as [string, string?];
      return { key: key.trim(), value: value.trim(), text };
    });
}

/**
 * The members of react-bootstrap's compound components that something reads: a key is kept when
 * `.Key` appears in our sources or in react-bootstrap's own modules (outside the members blocks),
 * or in the value of a member kept (NavDropdown's `Item: Dropdown.Item`). By name, not by
 * component: `Form.Text` keeps `InputGroup.Text` too, which costs a few bytes and never drops a
 * member that is read.
 */
export function usedMembers(sources: string[], esmDir: string): Set<string> {
  const blocks: { key: string; value: string }[] = [];
  const used = new Set<string>();
  for (const file of sources) for (const name of memberReads(readFileSync(file, 'utf8'))) used.add(name);
  for (const name of readdirSync(esmDir).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(path.join(esmDir, name), 'utf8');
    const block = membersBlock.exec(code);
    for (const read of memberReads(block ? code.replace(block[0], '') : code)) used.add(read);
    if (block) blocks.push(...entries(block[2]!));
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const { key, value } of blocks) {
      if (!used.has(key)) continue;
      for (const read of memberReads(value))
        if (!used.has(read)) {
          used.add(read);
          grew = true;
        }
    }
  }
  return used;
}

/** A react-bootstrap module without its prop types, displayNames and the members `used` does not name. */
export function pruneModule(code: string, used: ReadonlySet<string>): string {
  let out = code
    .replace(/^\w+\.propTypes = \w+;$/gm, '')
    .replace(/^const propTypes = \{$[\s\S]*?^\};$/m, '')
    .replace(/^\w+\.displayName = '\w+';$/gm, '');
  const block = membersBlock.exec(out);
  if (block) {
    const kept = entries(block[2]!).filter(({ key }) => used.has(key));
    out = out.replace(
      block[0],
      `export default Object.assign(${block[1]}, {\n${kept.map((e) => e.text).join(',\n')}\n});`,
    );
  }
  return out;
}

/**
 * A build-only plugin (docs/lean-client.md#what-keeps-the-first-load-small): react-bootstrap's
 * compound components carry their parts as members (`Object.assign(Navbar, { Offcanvas, Text, … })`),
 * which the bundler cannot drop, so every `<Form>` brought floating labels and ranges, every
 * `<Navbar>` the offcanvas menu and its modal code. Here the members no code reads go from the
 * members block, and with them the modules only they imported. The components' `propTypes` (the
 * assignment and the `const propTypes = {…}` it names) and `displayName`s go too: React's
 * development build checks the one and its developer tools show the other; Preact and React's
 * production build read neither (ProgressBar's one read is in its children's prop check, which goes
 * with its `propTypes`). The few prop types built outside those objects (OverlayTrigger's
 * `PropTypes.oneOf(…)`) are calls the bundler is told are pure, so nothing reads the prop-types
 * package and it goes as well.
 */
export function reactBootstrapMembers(webRoot: string): Plugin {
  let used: Set<string> | undefined;
  const esmDir = () =>
    path.dirname(createRequire(path.join(webRoot, 'package.json')).resolve('react-bootstrap/esm/index.js'));
  return {
    name: 'bathylog-react-bootstrap-members',
    apply: 'build',
    config() {
      return { build: { rolldownOptions: { treeshake: { manualPureFunctions: ['PropTypes'] } } } };
    },
    buildStart() {
      used = usedMembers(sourceFiles(path.join(webRoot, 'src')), esmDir());
    },
    transform(code, id) {
      if (!esmFile.test(id.replace(/\?.*$/, ''))) return null;
      const out = pruneModule(code, used!);
      return out === code ? null : { code: out, map: null };
    },
  };
}
