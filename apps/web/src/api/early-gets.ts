/*
 * The GETs a stored session's first screen needs, sent by an inline script of index.html while the
 * page is still being parsed (a ship's link has 600 ms round trips, and the scripts take
 * a second to cross it). The build writes the script (apps/web/chunk-groups.ts, from the lists
 * below); request() in client.ts takes each answer once instead of asking again. This module
 * imports nothing: the build reads it too.
 */

export const serverRoot = '/sealog-server';
export const apiRoot = `${serverRoot}/api/v1`;

/**
 * By page, the URLs (as request() builds them) sent early: on every page the profile (the
 * session check); on the console (`/`) its templates too.
 */
export const earlyGets: { all: string[]; byPath: Record<string, string[]> } = {
  all: [`${apiRoot}/auth/profile`],
  byPath: { '/': [`${apiRoot}/event_templates?sort=event_name`] },
};

/**
 * localStorage key holding the `id` of a session whose roles read no templates (an event_watcher,
 * a guest): its console is not asked for templates early, as the server would refuse them (403).
 */
export const noTemplatesKey = 'bathylog.noTemplates';

/** Remembers, once the profile is known, whether this session's console asks for templates early. */
export function rememberTemplateReader(sessionId: string, readsTemplates: boolean): void {
  try {
    if (readsTemplates) localStorage.removeItem(noTemplatesKey);
    else localStorage.setItem(noTemplatesKey, sessionId);
  } catch {
    // Storage refused (private mode): the early GET goes as before.
  }
}

/** Whether the session with this `id` reads no templates, as last seen. */
export function readsNoTemplates(sessionId: string): boolean {
  try {
    return localStorage.getItem(noTemplatesKey) === sessionId;
  } catch {
    return false;
  }
}

/** Where the inline script leaves the answers: URL → the fetch's promise. */
export const earlyGetsGlobal = '__bathylogEarlyGets';

/**
 * The inline script: with a stored session (the readable `id` cookie beside the HttpOnly session
 * cookie, lib/session.ts), a fetch for each early URL of this page, with the headers request()
 * sends (the empty-list header of docs/wire.md#empty-lists among them); the session cookie goes along.
 */
export function earlyGetsScript(): string {
  return (
    `(()=>{const m=/(?:^|;\\s*)id=([^;]+)/.exec(document.cookie);if(!m)return;let n=false;` +
    `try{n=localStorage.getItem(${JSON.stringify(noTemplatesKey)})===decodeURIComponent(m[1])}catch(e){}` +
    `const g=${JSON.stringify(earlyGets)},h={Accept:"application/json","x-bathylog-empty-list":"200"},` +
    `s=window.${earlyGetsGlobal}={};` +
    `for(const u of g.all.concat(n?[]:g.byPath[location.pathname]||[]))` +
    `s[u]=fetch(u,{headers:h,credentials:"same-origin"}).catch(()=>null)})()`
  );
}

/** The early answer for a GET of `url`, once; undefined when none was sent (or it was taken). */
export function takeEarlyGet(url: string): Promise<Response | null> | undefined {
  const sent = (window as unknown as Record<string, Record<string, Promise<Response | null>> | undefined>)[
    earlyGetsGlobal
  ];
  const answer = sent?.[url];
  if (answer) delete sent[url];
  return answer;
}
