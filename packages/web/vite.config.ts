import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.js';
import { serviceWorker } from './build/serviceWorker.js';
import { weightReport } from './build/weightReport.js';

export default defineConfig({
  // Relative: chunks load each other relative to where they are served, so the server can point index.html at a
  // CDN (ASSET_BASE_URL) without a rebuild; the server writes the page's own asset addresses when it serves it.
  base: './',
  plugins: [
    react(),
    serviceWorker(fileURLToPath(new URL('./sw.template.js', import.meta.url))),
    weightReport(),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The page-weight test and report read what each page loads from it.
    manifest: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // React changes rarely; a separate chunk stays cached across releases.
        manualChunks: (id) => {
          if (!id.includes('node_modules')) return undefined;
          if (/[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      // The server accepts cookie-signed writes only from PUBLIC_URL (default http://localhost:3000): the dev
      // server's pages speak as that origin.
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false, headers: { origin: 'http://localhost:3000' } },
    },
  },
});
