#!/usr/bin/env node
// Comments and docs must give their reason themselves or point at a heading in docs/ that exists:
// a successor has the repository, not the specifications it was first written from. This check
// fails (listing file:line) on
//   (a) a reference to `docs/<file>.md` (or `bench/results/<file>.md`), or a relative Markdown link,
//       whose file or `#anchor` (GitHub's heading slug) does not exist;
//   (b) a citation of a document outside the repository: numbered seed specifications, section
//       signs, the client-behaviour or API reference files, the design and style notes, issue numbers.
// Run by `npm run lint`; `node scripts/check-citations.mjs --summary` also counts problems per folder.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders and root files scanned (tracked files only). */
const scannedRoots = ['apps/', 'packages/', 'e2e/', 'scripts/', 'bench/', 'bin/', 'docs/', '.ci/'];
const scannedRootFiles = /^(README\.md|[^/]+\.(?:js|mjs|cjs|ts|json))$/;
const skipped = [
  /(^|\/)node_modules\//,
  /(^|\/)dist\//,
  /^bench\/results\//,
  /^apps\/server\/demo\/.*\.json$/,
  /package-lock\.json$/,
];
const textFile = /\.(?:[cm]?[jt]sx?|md|css|html|json|ya?ml|sh)$|^\.ci\/[^.]+$|^bin\/[^.]+$/;
/** This check and its test name the patterns and broken references they look for. */
const selfFiles = new Set(['scripts/check-citations.mjs', 'scripts/check-citations.test.ts']);

/** Citations of documents outside the repository (case-insensitive). */
export const outsideCitations = [
  { pattern: /\bseeds? ?0\d\d\b/i, what: 'a numbered seed specification' },
  { pattern: /§/, what: 'a section sign (a section of an outside document)' },
  { pattern: /client-behaviou?r(?:\.md)?\b/i, what: 'the client-behaviour reference' },
  { pattern: /sealog-api\.md/i, what: 'the Sealog API reference file' },
  {
    pattern: /(?<![\w-])reference\/|\breference (?:\d|#)/i,
    what: 'the reference folder or a numbered reference section',
  },
  { pattern: /\b(?:DESIGN|STYLE)\.md\b/, what: 'the design or style notes' },
  { pattern: /\bissues?[ -]#?\d+/i, what: 'an issue number' },
];

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function headingSlug(text) {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text: its headings (outside code fences) and explicit `<a id|name>`. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = headingSlug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(a[1]);
  }
  return anchors;
}

/** `docs/x.md#y` or `bench/results/x.md#y` anywhere in a line, resolved from the repository root. */
const rootedReference = /(?<![\w-])((?:docs|bench\/results)\/[\w./-]+?\.md)(#[\w-]+)?/g;
/** Markdown link targets in a .md file: `](file.md#anchor)`, `](#anchor)`. */
const markdownLink = /\]\(\s*<?([^)\s>#]*)(#[^)\s>]*)?>?(?:\s+"[^"]*")?\s*\)/g;

/**
 * Problems in the given files (paths relative to `root`); `read(file)` returns a file's text.
 * Each problem is `{ file, line, message }`.
 */
export function checkFiles(root, files, read = (file) => readFileSync(path.join(root, file), 'utf8')) {
  const problems = [];
  const anchorCache = new Map();
  const anchorsFor = (file) => {
    if (!anchorCache.has(file)) {
      const full = path.join(root, file);
      anchorCache.set(file, existsSync(full) ? anchorsOf(readFileSync(full, 'utf8')) : null);
    }
    return anchorCache.get(file);
  };
  const checkTarget = (file, lineNo, target, anchor, shown) => {
    const anchors = anchorsFor(target);
    if (anchors === null) {
      problems.push({ file, line: lineNo, message: `${shown}: no such file` });
    } else if (anchor && !anchors.has(decodeURIComponent(anchor.slice(1)))) {
      problems.push({ file, line: lineNo, message: `${shown}: no heading with the anchor ${anchor} in ${target}` });
    }
  };

  for (const file of files) {
    if (selfFiles.has(file)) continue;
    const text = read(file);
    const lines = text.split('\n');
    const isMarkdown = file.endsWith('.md');
    lines.forEach((line, i) => {
      const lineNo = i + 1;
      for (const m of line.matchAll(rootedReference)) {
        checkTarget(file, lineNo, path.posix.normalize(m[1]), m[2], m[0]);
      }
      if (isMarkdown) {
        for (const m of line.matchAll(markdownLink)) {
          const [whole, target, anchor] = m;
          if (/^[a-z][\w+.-]*:/i.test(target) || (!target && !anchor)) continue;
          if (target && !target.endsWith('.md')) {
            if (!existsSync(path.join(root, path.posix.dirname(file), target))) {
              problems.push({ file, line: lineNo, message: `${whole}: no such file` });
            }
            continue;
          }
          const resolved = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
          if (resolved.startsWith('..')) continue;
          checkTarget(file, lineNo, resolved, anchor, whole);
        }
      }
      for (const { pattern, what } of outsideCitations) {
        const m = pattern.exec(line);
        if (m) {
          problems.push({
            file,
            line: lineNo,
            message: `cites ${what} ("${m[0]}"): state the reason, or point to a heading in docs/`,
          });
        }
      }
    });
  }
  return problems;
}

/** The tracked files this check reads. */
export function scannedFiles(root) {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  return tracked.filter(
    (f) =>
      f &&
      (scannedRoots.some((r) => f.startsWith(r)) || scannedRootFiles.test(f)) &&
      !skipped.some((s) => s.test(f)) &&
      textFile.test(f) &&
      existsSync(path.join(root, f)),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkFiles(root, scannedFiles(root));
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  if (process.argv.includes('--summary')) {
    const perFolder = new Map();
    for (const p of problems) {
      const folder = p.file
        .split('/')
        .slice(0, p.file.startsWith('apps/') ? 2 : 1)
        .join('/');
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    for (const [folder, n] of [...perFolder].sort()) console.error(`  ${folder}: ${n}`);
  }
  if (problems.length > 0) {
    console.error(`check-citations: ${problems.length} problem(s)`);
    // Not process.exit(): it would cut off what is still being written to a pipe.
    process.exitCode = 1;
  }
}
