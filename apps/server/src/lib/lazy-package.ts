import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/**
 * A package loaded on its first use rather than when the server's code loads
 * (docs/performance.md#compiled-server). For the packages only some installations or some moments
 * need: the S3 client (a bucket), node-postgres (PostgreSQL), mqtt.js (an MQTT source), sharp
 * (thumbnails), yaml (an aux-data managers file), nodemailer (mail). Loaded together they were
 * about a second of CPU at every server start and every CLI command. The first use loads it
 * synchronously (Node's `require`, which also loads ES-module packages), once; import its types
 * with `import type`.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(name) as T);
}
