/**
 * Splits a configured command line into program and arguments without a shell: whitespace
 * separates words; single quotes keep text literally; double quotes keep spaces and allow \" and
 * \\; a backslash outside quotes escapes the next character. No globbing, variables or pipes.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '\\' && i + 1 < line.length) word += line[++i];
    else word += ch;
  }
  if (quote) throw new Error(`unterminated ${quote === '"' ? 'double' : 'single'} quote`);
  if (inWord) words.push(word);
  return words;
}

/**
 * The characters a record id passed to an export command may hold: it starts with a letter or a
 * digit (never `-`, so it cannot be read as an option, nor `.`), then letters, digits, spaces and
 * `_ . + -`. No `/` or `\\` (export scripts name folders after it), no quotes, `$`, `;` or other
 * characters a shell would act on if a script hands the id to one.
 */
const exportableId = /^[A-Za-z0-9][A-Za-z0-9 _.+-]*$/;

/** Whether a record id may be passed to an export command (see `exportableId`). */
export function isExportableId(id: string): boolean {
  return exportableId.test(id);
}

/**
 * The arguments with the record substituted: a word that is exactly `{id}` becomes the human id
 * (cruise_id or lowering_id, what Sealog's export script takes); `{uid}`, the record's 24-hex id,
 * anywhere in a word. A command without either placeholder gets the human id appended as its last
 * argument. Substitution happens after splitting and only of whole words, so an id stays one
 * argument and is never part of a shell's command text (`sh -c '… {id}'` is refused: such a
 * script reads `$BATHYLOG_RECORD_ID` instead, see `recordEnvironment`).
 */
export function substituteRecord(words: string[], ids: { id: string; uid: string }): string[] {
  if (words.some((w) => w !== '{id}' && w.includes('{id}'))) {
    throw new Error('{id} must be a whole argument (a script run by a shell reads $BATHYLOG_RECORD_ID)');
  }
  const hasPlaceholder = words.some((w) => w === '{id}' || w.includes('{uid}'));
  const out = words.map((w) => (w === '{id}' ? ids.id : w.replaceAll('{uid}', ids.uid)));
  return hasPlaceholder ? out : [...out, ids.id];
}

/** The record exported, in the command's environment as well as in its arguments. */
export function recordEnvironment(kind: 'cruise' | 'lowering', ids: { id: string; uid: string }) {
  return { BATHYLOG_RECORD_KIND: kind, BATHYLOG_RECORD_ID: ids.id, BATHYLOG_RECORD_UID: ids.uid };
}

/**
 * How the command is shown in "Executing …" to the admin who started it: words joined, quoted where
 * they hold spaces, and a word that is a path (absolute, or relative with a folder) shown by its
 * file name alone. The server's folders (a temporary folder, the install path) are none of the
 * screen's business and change from run to run; the program and its arguments are what the admin
 * recognises.
 */
export function displayCommand(words: string[]): string {
  return words
    .map((w) => (/^(\/|\.{1,2}\/|[A-Za-z]:[\\/])/.test(w) && !/[\\/]$/.test(w) ? w.split(/[\\/]/).pop()! : w))
    .map((w) => (w === '' || /[\s"'\\]/.test(w) ? JSON.stringify(w) : w))
    .join(' ');
}
