import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSafeName, joinInside, resolveExistingInside, safeSegments, uploadFileName } from './safe-path.js';

describe('safe names and segments', () => {
  it.each(['report.pdf', 'frame 01.jpg', '.hidden', 'ünïcode.txt', '..a'])('accepts %j', (name) => {
    expect(isSafeName(name)).toBe(true);
  });

  it.each(['', '.', '..', 'a/b', 'a\\b', 'a\u0000b', 'line\nbreak', 'x'.repeat(256)])('refuses %j', (name) => {
    expect(isSafeName(name)).toBe(false);
  });

  it('splits request paths and refuses absolute, empty and dot segments', () => {
    expect(safeSegments('a/b.jpg')).toEqual(['a', 'b.jpg']);
    for (const bad of ['', '/etc/passwd', 'a//b', 'a/../b', '../b', 'a/.', 'a/b/'])
      expect(safeSegments(bad)).toBeNull();
  });

  it('keeps the last component of an uploaded name', () => {
    expect(uploadFileName('../../etc/passwd')).toBe('passwd');
    expect(uploadFileName('C:\\Users\\pi\\notes.txt')).toBe('notes.txt');
    expect(uploadFileName('..')).toBeNull();
    expect(uploadFileName('dir/')).toBeNull();
    expect(uploadFileName(undefined)).toBeNull();
  });
});

describe('resolving under a root', () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'safe-path-'));
  const root = path.join(base, 'root');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'sub', 'ok.txt'), 'ok');
  writeFileSync(path.join(base, 'outside.txt'), 'no');
  symlinkSync(path.join(base, 'outside.txt'), path.join(root, 'out-link.txt'));
  symlinkSync(path.join(root, 'sub', 'ok.txt'), path.join(root, 'in-link.txt'));
  mkdirSync(path.join(base, 'rootx'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('joins only inside the root', () => {
    expect(joinInside(root, ['sub', 'ok.txt'])).toBe(path.join(root, 'sub', 'ok.txt'));
    expect(joinInside(root, ['..', 'outside.txt'])).toBeNull();
    expect(joinInside(root, ['..', 'rootx'])).toBeNull();
    expect(joinInside(root, ['/etc/passwd'])).toBeNull();
  });

  it('follows symlinks only while they stay inside', async () => {
    expect(await resolveExistingInside(root, ['sub', 'ok.txt'])).toBe(path.join(root, 'sub', 'ok.txt'));
    expect(await resolveExistingInside(root, ['in-link.txt'])).toBe(path.join(root, 'sub', 'ok.txt'));
    expect(await resolveExistingInside(root, ['out-link.txt'])).toBeNull();
    expect(await resolveExistingInside(root, ['missing.txt'])).toBeNull();
  });
});
