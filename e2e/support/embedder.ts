import http from 'node:http';
import { findFreePort } from './server';

export interface Embedder {
  origin: string;
  /** URL of a page that embeds `target` in an iframe with id "app". */
  pageFor: (target: string) => string;
  stop: () => Promise<void>;
}

/**
 * A tiny local web server standing in for a page that embeds the client in an iframe (the
 * `login-with-token` auto-login). It must be a real local origin: Chromium's local-network
 * checks refuse a local iframe inside a page that Playwright fulfils itself.
 */
export async function startEmbedder(): Promise<Embedder> {
  const port = await findFreePort();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/embed.html') {
      res.writeHead(404).end();
      return;
    }
    const target = url.searchParams.get('target') ?? '';
    const safe = target.replace(/[^a-zA-Z0-9:/._?=&-]/g, '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>embedder</title><link rel="icon" href="data:,"></head>` +
        `<body><iframe id="app" src="${safe}" width="1200" height="700"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    pageFor: (target) => `${origin}/embed.html?target=${encodeURIComponent(target)}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
