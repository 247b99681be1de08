import { createBrowserRouter } from 'react-router';
import { setNavigator } from './api/client.js';
import { routes } from './routes.js';

/** The browser router; the HTTP client navigates through it so redirects keep the app state. */
export const router = createBrowserRouter(routes);

setNavigator((to) => {
  void router.navigate(to, { replace: to === '/404' });
});
