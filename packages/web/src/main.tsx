import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { I18nProvider, loadStoredLanguage } from './i18n/index.js';
import { queryClient } from './queryClient.js';
import { router } from './router.js';
import { Toaster } from './ui/Toaster.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A page in English needs its texts before it draws (Chinese comes with the app).
await loadStoredLanguage();

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <RouterProvider router={router} />
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
