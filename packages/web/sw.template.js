/* global self, caches */
// The service worker: it keeps the app shell and the built assets so that a reload without a
// network still opens the exam page (its answers wait in IndexedDB). API responses are never
// cached here; the exam page keeps its own copy of what it needs. The build fills in ASSETS.
const VERSION = '__VERSION__';
const ASSETS = /* ASSETS */ [];
const CACHE = `examhall-shell-${VERSION}`;
const SHELL = '/';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(ASSETS))
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
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/sw.js') return;

  if (request.mode === 'navigate') {
    // Network first, so a release is picked up at once; the kept shell only when there is no network.
    event.respondWith(
      fetch(request).catch(() =>
        caches.match(SHELL).then((hit) => hit || Promise.reject(new Error('offline and no cached shell'))),
      ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || ASSETS.includes(url.pathname)) {
    // Built assets carry a content hash in their names, so a kept copy is always right.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
  }
});
