/**
 * The app's router: React Router's routes, links and hooks on the browser's history, with what the pages need of
 * navigation and no more. A move renders in a transition, so the page on screen stays until the next one's code has
 * arrived (the shell shows the loading overlay meanwhile); the code of every page on the new address starts loading
 * at once, not one layout after the other; and a page may hold a move while it asks (unsaved changes).
 */
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
  type ComponentType,
  type LazyExoticComponent,
  type ReactElement,
  type ReactNode,
} from 'react';
import {
  matchRoutes,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  useLocation,
  useRoutes,
  type Location,
  type RouteObject,
} from 'react-router';
import { guardHistory, type GuardedHistory, type LeaveCheck, type Update } from './navigationGuard.js';
import { RouteError } from './RouteError.js';

/** A page loaded on demand; `preload` starts fetching its code without rendering it. */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/** A page whose module is fetched the first time it is needed (or preloaded); its default export is the page. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const start = () => (loading ??= load());
  return Object.assign(lazy(start), { preload: start });
}

/**
 * Starts loading the code of every page the address shows (layouts and the page itself) side by side; `base` is where
 * `routes` sit (the routes of a page's own, below its address).
 */
function preload(routes: RouteObject[], location: Pick<Location, 'pathname'>, base?: string): void {
  for (const match of matchRoutes(routes, location, base) ?? []) {
    const page = match.route.Component as Partial<LazyPage> | null | undefined;
    page?.preload?.()?.catch(() => undefined);
  }
}

let browserHistory: GuardedHistory | undefined;

/** The browser's history, made once. */
function appHistory(): GuardedHistory {
  return (browserHistory ??= guardHistory(createBrowserHistory({ v5Compat: true })));
}

/** Moves the app to `to` (the HTTP client's redirects); `replace` keeps the current entry out of the history. */
export function navigateTo(to: string, replace = false): void {
  if (replace) appHistory().navigator.replace(to);
  else appHistory().navigator.push(to);
}

const LoadingContext = createContext(false);

/** True while a move waits for its page's code. */
export function useRouteLoading(): boolean {
  return useContext(LoadingContext);
}

/** The routes of the current address, with their loading fallback and error page. */
function Routes({ routes, fallback }: { routes: RouteObject[]; fallback: ReactNode }) {
  const element = useRoutes(routes);
  const { pathname } = useLocation();
  return (
    <RouteError path={pathname}>
      <Suspense fallback={fallback}>{element}</Suspense>
    </RouteError>
  );
}

/**
 * The routes of a page of its own below its address `base` (the console's, which load with the console), for that
 * page to render: the code of every page they show starts loading at once too, as the app's own routes do.
 */
export function useNestedRoutes(routes: RouteObject[], base: string): ReactElement | null {
  const location = useLocation();
  // Preloading is idempotent: a page's code is asked for once, whatever the renders.
  preload(routes, location, base);
  return useRoutes(routes);
}

/** Renders `routes` at the browser's address; `fallback` shows while the first page's code loads. */
export function AppRouter({ routes, fallback }: { routes: RouteObject[]; fallback: ReactNode }) {
  const history = appHistory();
  const [shown, setShown] = useState<Pick<Update, 'action' | 'location'>>(() => {
    preload(routes, history.location());
    return { action: history.action(), location: history.location() };
  });
  const [loading, startTransition] = useTransition();

  useLayoutEffect(
    () =>
      history.listen((update) => {
        preload(routes, update.location);
        startTransition(() => setShown(update));
      }),
    [history, routes],
  );

  return (
    <LoadingContext.Provider value={loading}>
      <Router location={shown.location} navigationType={shown.action} navigator={history.navigator}>
        <Routes routes={routes} fallback={fallback} />
      </Router>
    </LoadingContext.Provider>
  );
}

/** A page's answer to a held move: `blocked` while it asks, then `proceed` makes the move and `reset` drops it. */
export interface Blocker {
  state: 'unblocked' | 'blocked';
  proceed: () => void;
  reset: () => void;
}

/** Holds every move (links, navigate, back and forward) for which `shouldHold` says so, until the page decides. */
export function useBlocker(shouldHold: (check: LeaveCheck) => boolean): Blocker {
  const [held, setHeld] = useState<{ proceed: () => void } | null>(null);
  const test = useRef(shouldHold);
  useEffect(() => {
    test.current = shouldHold;
  }, [shouldHold]);
  useEffect(
    () =>
      appHistory().setGuard({ shouldHold: (check) => test.current(check), hold: (proceed) => setHeld({ proceed }) }),
    [],
  );
  return useMemo<Blocker>(
    () =>
      held
        ? {
            state: 'blocked',
            proceed: () => {
              setHeld(null);
              held.proceed();
            },
            reset: () => setHeld(null),
          }
        : { state: 'unblocked', proceed: () => undefined, reset: () => undefined },
    [held],
  );
}
