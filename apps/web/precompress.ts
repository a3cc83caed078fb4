import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;

/**
 * Writes a .br and a .gz beside every compressible file of the build, so the server sends the
 * client pre-compressed (a ship's satellite link pays for every byte; compressing once at build
 * time costs nothing per request). Files under 1 kB are left alone.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'bathylog-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle)];
      for (const name of files) {
        if (!compressible.test(name) || name.startsWith('.vite/')) continue;
        const file = path.join(outDir, name);
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
      }
    },
  };
}
