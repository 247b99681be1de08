import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { weightReport } from './build/weightReport.js';

/** Files of `public/` the shell needs besides the bundle. */
const PUBLIC_SHELL_FILES = ['/favicon.svg'];

/**
 * Emits sw.js with the list of every built file, so the service worker can keep them all (the
 * exam page's lazy chunks included) before the candidate ever goes offline.
 */
function serviceWorker(): Plugin {
  return {
    name: 'examhall-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => !f.endsWith('.map') && f !== 'index.html')
        .sort();
      const assets = ['/', ...files.map((f) => `/${f}`), ...PUBLIC_SHELL_FILES];
      const version = createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 16);
      const template = readFileSync(fileURLToPath(new URL('./sw.template.js', import.meta.url)), 'utf8');
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: template.replace('__VERSION__', version).replace('/* ASSETS */ []', JSON.stringify(assets)),
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), serviceWorker(), weightReport()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
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
