import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setNavigator } from './api/client.js';
import { I18nProvider, loadStoredLanguage } from './i18n/index.js';
import { queryClient } from './queryClient.js';
import { routes } from './routes.js';
import { AppRouter, navigateTo } from './shell/appRouter.js';
import { DelayedOverlay } from './shell/RouteLoader.js';
import { Toaster } from './ui/Toaster.js';
import './styles.css';

// The HTTP client's redirects (login, 404) move the app like its links do.
setNavigator((to) => navigateTo(to, to === '/404'));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A page in English needs its texts before it draws (Chinese comes with the app).
await loadStoredLanguage();

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <AppRouter routes={routes} fallback={<DelayedOverlay />} />
        <Toaster />
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);

// The service worker keeps the app shell, so an exam page reloaded without a network comes back.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((e: unknown) => console.warn('service worker not registered', e));
  });
}
