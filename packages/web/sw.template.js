/* global self, caches */
// The service worker: it keeps the app shell and what the candidate's exam needs (the candidate pages' chunks and
// the editors) so that a reload without a network still opens the exam page (its answers wait in IndexedDB). The
// console's chunks are not kept. API responses are never cached here; the exam page keeps its own copy of what it
// needs. The build fills in ASSETS and SHELL; the server fills in ASSET_BASE (ASSET_BASE_URL, or '' for this origin).
const VERSION = '__VERSION__';
const ASSET_BASE = /* ASSET_BASE */ '';
const ASSETS = /* ASSETS */ [];
const SHELL = /* SHELL */ [];
const CACHE = `examhall-shell-${VERSION}${ASSET_BASE ? `-${ASSET_BASE}` : ''}`;
const ROOT = '/';

const assetRoot = `${ASSET_BASE || self.location.origin}/`;
const assetUrls = ASSETS.map((f) => new URL(f, assetRoot).href);
const shellUrls = SHELL.map((f) => new URL(f, self.location.origin).href);
const kept = new Set([...assetUrls, ...shellUrls]);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...shellUrls, ...assetUrls]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('examhall-shell-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  url.search = '';
  url.hash = '';

  if (request.mode === 'navigate') {
    if (url.origin !== self.location.origin) return;
    // Network first, so a release is picked up at once; the kept shell only when there is no network.
    event.respondWith(
      fetch(request).catch(() =>
        caches.match(ROOT).then((hit) => hit || Promise.reject(new Error('offline and no cached shell'))),
      ),
    );
    return;
  }
  // Only the kept files: they carry a content hash in their names (or are the shell), so a kept copy is right.
  // Other files (the console's) go to the network and the browser's own cache.
  if (!kept.has(url.href)) return;
  event.respondWith(
    caches.match(url.href).then(
      (hit) =>
        hit ||
        fetch(request).then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put(url.href, copy));
          }
          return response;
        }),
    ),
  );
});
