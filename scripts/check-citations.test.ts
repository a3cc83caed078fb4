import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { anchorsOf, checkFiles, headingSlug } from './check-citations.mjs';

interface Problem {
  file: string;
  line: number;
  message: string;
}

const check = checkFiles as (root: string, files: string[]) => Problem[];

/** A small repository: one doc with headings, and source files citing it and outside documents. */
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'check-citations-'));
  write(
    'docs/wire.md',
    [
      '# The wire contract',
      '## Event exports',
      '## Tokens and `?token=`',
      '```',
      '## Not a heading (inside a fence)',
      '```',
      '## Event exports',
    ].join('\n'),
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('headingSlug and anchorsOf', () => {
  it('make GitHub anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect(headingSlug('Durability: what a 2xx promises')).toBe('durability-what-a-2xx-promises');
    expect(headingSlug("The milestones editor's data")).toBe('the-milestones-editors-data');
    expect(headingSlug('Tokens and `?token=`')).toBe('tokens-and-token');
    const anchors = anchorsOf('# A\n## Event exports\n```\n## Fenced\n```\n## Event exports\n<a id="kept"></a>');
    expect([...anchors].sort()).toEqual(['a', 'event-exports', 'event-exports-1', 'kept']);
  });
});

describe('check-citations', () => {
  it('passes a comment whose docs reference resolves to a heading, and plain uses of the words', () => {
    write(
      'apps/server/src/ok.ts',
      [
        '/** Exports stream in chunks (docs/wire.md#event-exports). */',
        '// The second heading of that name: docs/wire.md#event-exports-1; the file alone: docs/wire.md',
        "// A reference to a record, an issue with the link, the seed 12 of a fuzz run, RFC 7946's section 3.2.",
        'const issues = result.error.issues[0];',
      ].join('\n'),
    );
    write('docs/ok.md', 'See [the contract](wire.md#tokens-and-token) and [exports](./wire.md#event-exports).\n');
    expect(check(root, ['apps/server/src/ok.ts', 'docs/ok.md'])).toEqual([]);
  });

  it('reports a docs reference whose file or heading does not exist, with file and line', () => {
    write(
      'apps/server/src/broken.ts',
      ['// fine', '/** See docs/wire.md#event-imports. */', '// And docs/nowhere.md#anything.'].join('\n'),
    );
    write('docs/broken.md', 'Text\n\n[Missing](wire.md#no-such-heading) and [gone](gone.md).\n');
    const problems = check(root, ['apps/server/src/broken.ts', 'docs/broken.md']);
    expect(problems.map((p) => `${p.file}:${p.line}`)).toEqual([
      'apps/server/src/broken.ts:2',
      'apps/server/src/broken.ts:3',
      'docs/broken.md:3',
      'docs/broken.md:3',
    ]);
    expect(problems[0]!.message).toContain('no heading with the anchor #event-imports in docs/wire.md');
    expect(problems[1]!.message).toContain('no such file');
  });

  it('reports citations of documents outside the repository', () => {
    const cited = [
      'seed 001 ' + '\u00a7' + '4',
      'Seed 000',
      'reference ' + '\u00a7' + '5.6',
      'client-' + 'behaviour 10.2',
      'sealog-' + 'api.md',
      'shared/' + 'reference/screens',
      'reference 7.6',
      'DESIGN' + '.md',
      'issue 13',
      'Issue #11',
    ];
    write('packages/shared/src/cites.ts', cited.map((c) => `// Because of ${c}.`).join('\n'));
    const problems = check(root, ['packages/shared/src/cites.ts']);
    const lines = [...new Set(problems.map((p) => p.line))];
    expect(lines).toEqual(cited.map((_, i) => i + 1));
    expect(problems.every((p) => p.message.startsWith('cites '))).toBe(true);
  });
});
