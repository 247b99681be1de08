import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pageChunks, type PageGroups } from './build/pageChunks.js';
import { precompress } from './build/precompress.js';
import { serviceWorker } from './build/serviceWorker.js';
import { weightReport } from './build/weightReport.js';

const REACT = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/;
const groups: PageGroups = { shell: new Set(), exam: new Set() };

export default defineConfig({
  // Relative: chunks load each other relative to where they are served, so the server can point index.html at a
  // CDN (ASSET_BASE_URL) without a rebuild; the server writes the page's own asset addresses when it serves it.
  base: './',
  plugins: [
    react(),
    pageChunks(
      groups,
      /[\\/]src[\\/]main\.tsx$/,
      /[\\/]src[\\/]pages[\\/]exam[\\/]ExamPage\.tsx$/,
      /[\\/]contract[\\/]dist[\\/]/,
    ),
    serviceWorker(fileURLToPath(new URL('./sw.template.js', import.meta.url))),
    weightReport(),
    precompress(),
  ],
  resolve: {
    alias: [
      // React Router's package points every condition at its development build (warnings and invariant messages
      // included); its production build is the same API without them.
      {
        find: /^react-router$/,
        replacement: fileURLToPath(new URL('../production/index.mjs', import.meta.resolve('react-router'))),
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The page-weight test and report read what each page loads from it.
    manifest: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React changes rarely; a separate chunk stays cached across releases.
            { name: 'react', test: REACT, priority: 3 },
            { name: 'shell', test: (id) => groups.shell.has(id), priority: 2 },
            // Only the modules themselves: what they import from other pages stays where those pages load it.
            {
              name: 'exam-page',
              test: (id) => groups.exam.has(id),
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
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
