import { realpath } from 'node:fs/promises';
import { lookup } from 'node:dns/promises';
import path from 'node:path';
import { isRefusedShipIp, isRefusedShipUrl } from '../lib/ship-address.js';

/**
 * Where a recording's copy lives (docs/video.md#copies): a file under the data folder, named
 * relative to it or by an absolute path inside it, or an http(s) URL (a video server's HLS
 * playlist). Nothing else: no other scheme, no credentials in a URL (they would reach logs and
 * every reader's browser), and no path that leaves the data folder, by `..` or by a symlink.
 */
export type MediaSource =
  | { kind: 'file'; path: string }
  /** `name`: what a URL signed anew for each run (a stored copy in a bucket) is cached and known by. */
  | { kind: 'url'; url: string; name?: string };

export class MediaUriError extends Error {}

async function resolvesToRefused(host: string): Promise<boolean> {
  try {
    const addresses = await lookup(host.replace(/^\[|\]$/g, ''), { all: true });
    return addresses.some((a) => isRefusedShipIp(a.address));
  } catch {
    // A name that does not resolve here is ffmpeg's to fail on (ffprobe answers it).
    return false;
  }
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The source a stored or given URI names, checked; throws MediaUriError with the reason. */
export async function mediaSource(uri: string, dataDir: string): Promise<MediaSource> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) && !/^[A-Za-z]:[\\/]/.test(uri)) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new MediaUriError('is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new MediaUriError('must be a path under the data folder or an http(s) URL');
    }
    if (url.username || url.password) throw new MediaUriError('may not carry credentials');
    // ffmpeg would fetch it from this server: not this machine's own services nor the link's
    // neighbours (cloud metadata), by a literal address or by a name resolving to one.
    if (isRefusedShipUrl(url.href) || (await resolvesToRefused(url.hostname))) {
      throw new MediaUriError('may not name a loopback or link-local address');
    }
    return { kind: 'url', url: url.href };
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(uri)) throw new MediaUriError('holds control characters');
  const root = path.resolve(dataDir);
  const joined = path.resolve(root, uri);
  if (!inside(root, joined)) throw new MediaUriError('is outside the data folder');
  let real: string;
  let realRoot: string;
  try {
    [realRoot, real] = await Promise.all([realpath(root), realpath(joined)]);
  } catch {
    throw new MediaUriError('names no file');
  }
  if (!inside(realRoot, real)) throw new MediaUriError('is outside the data folder');
  return { kind: 'file', path: real };
}

/** The input ffmpeg and ffprobe read for a source. */
export function mediaInput(source: MediaSource): string {
  return source.kind === 'file' ? source.path : source.url;
}

/**
 * The protocols ffmpeg may open for a source: a local file (and an HLS playlist's local segments)
 * only the file protocol, so a playlist cannot make the server fetch a URL; a URL the web ones.
 */
export function protocolWhitelist(source: MediaSource): string {
  return source.kind === 'file' ? 'file,crypto' : 'http,https,tcp,tls,crypto';
}
