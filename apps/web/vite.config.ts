import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.MIXROOM_API_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api/realtime': { target: api.replace(/^http/, 'ws'), ws: true },
      '/api': api,
      // The sign-in screen is this app: only its data calls go to the server.
      '/oidc': {
        target: api,
        bypass: (req) =>
          req.method === 'GET' &&
          /^\/oidc\/interaction\/[^/]+$/.test(req.url ?? '') &&
          req.headers.accept?.includes('text/html')
            ? '/index.html'
            : undefined,
      },
    },
  },
  build: { sourcemap: true, chunkSizeWarningLimit: 1500 },
});
