import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: never compress this route's answers (files already compressed, byte ranges). */
    compress?: false;
  }
}

/**
 * Thin ship links: JSON and CSV answers (lists, exports) go compressed when the caller accepts it.
 * Brotli at quality 4 keeps streamed exports fast; the built client is compressed at build time.
 */
const compressOptions = {
  threshold: 1024,
  encodings: ['br', 'gzip', 'deflate'] as Array<'br' | 'gzip' | 'deflate'>,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

/**
 * Compression only where it can act (docs/performance.md#per-request): answers of reads (GET and
 * their HEAD) are compressed, request bodies are decompressed only on routes that take one.
 * Writes answer a few bytes (below the threshold) and reads carry no body, so neither runs the
 * other's hooks. Decided per route from the route table, as `config.access` is, before the plugin
 * attaches its hooks; a read declaring `config.compress: false` is left alone. Call before any
 * route is registered.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const reads = methods.every((m) => m === 'GET' || m === 'HEAD');
    const config = route.config as FastifyContextConfig | undefined;
    if (route.compress === undefined) route.compress = reads && config?.compress !== false ? compressOptions : false;
    if (route.decompress === undefined && reads) route.decompress = false;
  });
  await app.register(compress, { ...compressOptions, global: false, globalDecompression: true });
}
