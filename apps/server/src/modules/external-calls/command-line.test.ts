import { describe, expect, it } from 'vitest';
import { displayCommand, isExportableId, splitCommandLine, substituteRecord } from './command-line.js';

describe('export command lines', () => {
  it('splits on whitespace and honours quotes and escapes, without a shell', () => {
    expect(splitCommandLine('./venv/bin/python ./misc/sealog_data_export.py -v -L {id}')).toEqual([
      './venv/bin/python',
      './misc/sealog_data_export.py',
      '-v',
      '-L',
      '{id}',
    ]);
    expect(splitCommandLine(`"/opt/my tools/export" 'a b' c\\ d "say \\"hi\\"" ''`)).toEqual([
      '/opt/my tools/export',
      'a b',
      'c d',
      'say "hi"',
      '',
    ]);
    expect(splitCommandLine('echo $HOME; rm -rf / | cat')).toEqual(['echo', '$HOME;', 'rm', '-rf', '/', '|', 'cat']);
    expect(() => splitCommandLine('export "unterminated')).toThrow('unterminated double quote');
  });

  it('substitutes the record after splitting, so ids with spaces stay one argument', () => {
    const words = splitCommandLine('export -L {id} --uid={uid}');
    expect(substituteRecord(words, { id: 'S 0492; rm', uid: '6410f20b6594c9977675e47b' })).toEqual([
      'export',
      '-L',
      'S 0492; rm',
      '--uid=6410f20b6594c9977675e47b',
    ]);
    expect(substituteRecord(['export.sh', '-v'], { id: 'S0492', uid: 'x' })).toEqual(['export.sh', '-v', 'S0492']);
    expect(displayCommand(['export', '-L', 'S 0492'])).toBe('export -L "S 0492"');
    // Paths show by their file name: no server folder (a temporary one) is echoed to the admin.
    expect(displayCommand(['/usr/bin/node', '/tmp/bathylog-export-x1/export script.js', '-o', './out/', 'S0492'])).toBe(
      'node "export script.js" -o ./out/ S0492',
    );
    expect(displayCommand(['./venv/bin/python', './misc/sealog_data_export.py', '-L', 'S0492'])).toBe(
      'python sealog_data_export.py -L S0492',
    );
  });

  it('substitutes {id} only as a whole argument; inside other text it is refused', () => {
    expect(() => substituteRecord(['sh', '-c', 'export.sh {id}'], { id: 'S0492', uid: 'x' })).toThrow(
      '{id} must be a whole argument',
    );
    expect(() => substituteRecord(['export', '--lowering={id}'], { id: 'S0492', uid: 'x' })).toThrow(
      '{id} must be a whole argument',
    );
    expect(substituteRecord(['sh', '-c', 'export.sh "$1"', 'sh', '{id}'], { id: 'S0492', uid: 'x' })).toEqual([
      'sh',
      '-c',
      'export.sh "$1"',
      'sh',
      'S0492',
    ]);
  });

  it('passes only ids that cannot be options, paths or shell text', () => {
    for (const id of ['FKt230303', 'S0492', 'AT37-14', 'J2-1234.1', 'S 0492', 'a+b_c'])
      expect(isExportableId(id), id).toBe(true);
    for (const id of [
      '--help',
      '-v',
      '.',
      '..',
      '../x',
      'a/b',
      'a\\b',
      'x;rm',
      '$(id)',
      '`id`',
      "it's",
      'a"b',
      '',
      'line\nbreak',
      ' lead',
    ])
      expect(isExportableId(id), id).toBe(false);
  });
});
