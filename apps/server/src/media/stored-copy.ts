import { checkedKey, storeKey } from '../storage/index.js';

/**
 * A recording's copy kept in the file store (docs/video.md#proxies): its URI is `store:` and the
 * store key, `store:recordings/<recording id>/<copy id>.mp4`, the same path the ship-to-shore
 * feed names it by. The server writes these itself (a proxy it made, a proxy copied from a ship);
 * a caller never registers one.
 */
const storedScheme = 'store:';

/** The store key a copy's URI names, or null when the copy is not in the store. */
export function storedKeyOf(uri: string): string | null {
  if (!uri.startsWith(storedScheme)) return null;
  const key = uri.slice(storedScheme.length);
  try {
    checkedKey(key);
  } catch {
    return null;
  }
  const parts = key.split('/');
  return parts.length === 3 && parts[0] === 'recordings' ? key : null;
}

/** The store key of a proxy the server makes. */
export function proxyKey(recordingId: string, copyId: string): string {
  return storeKey('recordings', recordingId, `${copyId}.mp4`);
}

/** The URI of a copy kept under a store key. */
export function storedUri(key: string): string {
  return `${storedScheme}${key}`;
}
