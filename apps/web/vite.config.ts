import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

// The server serves dist/ at `/`; in development Vite proxies the API and the websocket to it.
const server = process.env.BATHYLOG_DEV_SERVER ?? 'http://localhost:8000';

export default defineConfig({
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    proxy: {
      '/sealog-server': { target: server, changeOrigin: true },
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
});
