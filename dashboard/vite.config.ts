import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard is a single-page app served by Portier itself at /dashboard (see
// src/transport/http/dashboard.ts). Every asset is bundled here: nothing is loaded from another host.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The strict CSP allows no inline script or style: keep every asset a file.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npm run dev:dashboard`: the API runs on `npm start` (port 3000).
    proxy: { '/api': 'http://127.0.0.1:3000', '/dashboard/api': 'http://127.0.0.1:3000' },
  },
});
