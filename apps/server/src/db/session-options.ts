/**
 * A PostgreSQL connection URL with session settings (`-c name=value`) added to those its
 * `options` parameter may give already (`?options=-c statement_timeout=5000`). node-postgres takes
 * `options` from the URL over a separate `options` setting, so a setting passed beside a URL that
 * has its own was lost: the schema's search_path (tables written to `public`), the bus's
 * commit mode, the leader's keepalives. The URL's own settings come first, ours after (the later
 * of two `-c` for one name wins).
 */
export function withSessionOptions(url: string, settings: Array<string | false | null | undefined>): string {
  const added = settings.filter((s): s is string => !!s);
  if (!added.length) return url;
  const u = new URL(url);
  const given = u.searchParams.get('options');
  u.searchParams.set('options', [given, ...added.map((s) => `-c ${s}`)].filter(Boolean).join(' '));
  return u.toString();
}
