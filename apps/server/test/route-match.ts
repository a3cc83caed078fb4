import type { RouteEntry } from '../src/plugins/route-table.js';
import { createTestApp } from './test-app.js';

/**
 * The route a request reaches, by the router's rules: at the first segment where two patterns
 * differ, a literal segment wins over a `:param`, and a `:param` over a `*` wildcard. Returns
 * `METHOD /pattern`, or null when no route takes the request.
 */
export function routeOf(routes: RouteEntry[], method: string, url: string): string | null {
  const segments = url.split('?')[0]!.split('/');
  let best: { rank: number[]; name: string } | null = null;
  for (const route of routes) {
    if (route.method !== method) continue;
    const rank = matchRank(route.url.split('/'), segments);
    if (!rank) continue;
    if (!best || compareRanks(rank, best.rank) > 0) best = { rank, name: `${route.method} ${route.url}` };
  }
  return best?.name ?? null;
}

/** Per segment: 2 literal, 1 param, 0 wildcard; null when the pattern does not match. */
function matchRank(pattern: string[], segments: string[]): number[] | null {
  const rank: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p === '*') {
      rank.push(0);
      return rank;
    }
    const s = segments[i];
    if (s === undefined) return null;
    if (p.startsWith(':')) {
      if (s === '') return null;
      rank.push(1);
    } else if (p === s) rank.push(2);
    else return null;
  }
  return segments.length === pattern.length ? rank : null;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** `METHOD /pattern` of every route a freshly built server registers. */
export async function serverRoutes(): Promise<string[]> {
  const t = await createTestApp('sqlite');
  try {
    return [...new Set(t.routes.map((r) => `${r.method} ${r.url}`))];
  } finally {
    await t.close();
  }
}
