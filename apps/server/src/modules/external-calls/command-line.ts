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
 * The arguments with the record substituted: `{id}` becomes the human id (cruise_id or
 * lowering_id, what Sealog's export script takes), `{uid}` the record's 24-hex id. A command
 * without either placeholder gets the human id appended as its last argument. Substitution
 * happens after splitting, so an id with spaces stays one argument.
 */
export function substituteRecord(words: string[], ids: { id: string; uid: string }): string[] {
  const hasPlaceholder = words.some((w) => w.includes('{id}') || w.includes('{uid}'));
  const out = words.map((w) => w.replaceAll('{uid}', ids.uid).replaceAll('{id}', ids.id));
  return hasPlaceholder ? out : [...out, ids.id];
}

/** How the command is shown in "Executing …": words joined, quoted where they hold spaces. */
export function displayCommand(words: string[]): string {
  return words.map((w) => (w === '' || /[\s"'\\]/.test(w) ? JSON.stringify(w) : w)).join(' ');
}
