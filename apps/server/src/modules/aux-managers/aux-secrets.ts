/**
 * A manager's YAML may hold credentials (a password under `source:`, or in a URL). They are stored as written,
 * answered masked, and a YAML sent back with the mask keeps the stored ones (docs/aux-managers.md#secrets).
 */
export const secretMask = '********';

const secretKey = /(password|passwd|token|secret|api_?key)$/i;

function collect(value: unknown, key: string, out: Set<string>): void {
  if (typeof value === 'string') {
    if (secretKey.test(key) && value !== '' && value !== secretMask) out.add(value);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      try {
        const url = new URL(value);
        if (url.password) {
          out.add(url.password);
          out.add(decodeURIComponent(url.password));
        }
      } catch {
        // not a URL after all
      }
    }
  } else if (Array.isArray(value)) value.forEach((v) => collect(v, key, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) collect(v, k, out);
}

/** The credentials a parsed `source:` holds, longest first (so one inside another is masked whole). */
export function secretsOf(source: unknown): string[] {
  const out = new Set<string>();
  collect(source, '', out);
  return [...out].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** The YAML with every credential replaced by the mask. */
export function maskSecrets(yamlText: string, secrets: readonly string[]): string {
  let text = yamlText;
  for (const s of secrets) text = text.split(s).join(secretMask);
  return text;
}

/**
 * A YAML sent back from the client: each mask takes the stored credential that stood at its place (in order
 * of appearance in the stored text); a new credential written in clear is kept as written.
 */
export function unmaskSecrets(incoming: string, storedText: string, secrets: readonly string[]): string {
  if (!incoming.includes(secretMask) || secrets.length === 0) return incoming;
  const found: Array<{ at: number; secret: string }> = [];
  let masked = storedText;
  for (const secret of secrets) {
    let from = 0;
    for (;;) {
      const at = masked.indexOf(secret, from);
      if (at < 0) break;
      found.push({ at, secret });
      masked = masked.slice(0, at) + '\u0000'.repeat(secret.length) + masked.slice(at + secret.length);
      from = at + secret.length;
    }
  }
  const ordered = found.sort((a, b) => a.at - b.at).map((f) => f.secret);
  let i = 0;
  return incoming.split(secretMask).reduce((acc, part) => `${acc}${ordered[i++] ?? secretMask}${part}`);
}
