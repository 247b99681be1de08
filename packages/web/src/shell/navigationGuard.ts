/**
 * A history whose moves a page can hold while it asks the user (unsaved changes): the app's links and navigate
 * calls, and the browser's back and forward buttons. A held move happens later, when the page lets it go, or never.
 *
 * The invariant: the location the app shows only changes through `listen`'s updates, and an update a guard holds
 * never reaches them (a back or forward move the browser already made is undone first, and made again on proceed).
 */
import type { Location, Navigator, To, UNSAFE_createBrowserHistory } from 'react-router';

/** A history (the browser's, or one in memory), as React Router makes them. */
export type History = ReturnType<typeof UNSAFE_createBrowserHistory>;
/** One move of a history: its action, the new location and how many entries it went. */
export type Update = Parameters<Parameters<History['listen']>[0]>[0];

/** Where the app is and where a move would take it. */
export interface LeaveCheck {
  currentLocation: Location;
  nextLocation: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/** A page's guard: whether a move is held, and what to do with a held one. */
export interface Guard {
  shouldHold: (check: LeaveCheck) => boolean;
  /** Receives the held move; calling `proceed` makes it. */
  hold: (proceed: () => void) => void;
}

export interface GuardedHistory {
  /** What the router navigates through (links, navigate calls). */
  navigator: Navigator;
  /** The history's current location. */
  location: () => Location;
  action: () => History['action'];
  /** Calls `apply` with every move the app should show; returns a function that stops listening. */
  listen: (apply: (update: Update) => void) => () => void;
  /** Sets the page's guard (one at a time); returns a function that removes it. */
  setGuard: (guard: Guard) => () => void;
}

/** Wraps `history` so a guard can hold moves. */
export function guardHistory(history: History): GuardedHistory {
  let guard: Guard | null = null;
  let shown: Location = history.location;
  // The POPs this module causes itself: one undoing a held back/forward move, one replaying it on proceed.
  let undoing = false;
  let replaying = false;

  /** The guard that holds a move to `to`, if one does. */
  const holder = (to: To): Guard | null => {
    const { pathname, search, hash } = history.createURL(to);
    return guard?.shouldHold({ currentLocation: shown, nextLocation: { pathname, search, hash } }) ? guard : null;
  };

  const attempt = (to: To, move: () => void): void => {
    const held = holder(to);
    if (held) held.hold(move);
    else move();
  };

  const navigator: Navigator = {
    createHref: (to) => history.createHref(to),
    createURL: (to) => history.createURL(to),
    encodeLocation: (to) => history.encodeLocation(to),
    go: (delta) => history.go(delta),
    push: (to, state?: unknown) => attempt(to, () => history.push(to, state)),
    replace: (to, state?: unknown) => attempt(to, () => history.replace(to, state)),
  };

  const listen = (apply: (update: Update) => void) =>
    history.listen((update) => {
      if (update.action === 'POP') {
        if (undoing) {
          // The page never left: nothing to show.
          undoing = false;
          return;
        }
        const delta = update.delta;
        const held = !replaying && delta !== null && delta !== 0 ? holder(update.location) : null;
        if (held && delta !== null) {
          undoing = true;
          history.go(-delta);
          held.hold(() => {
            replaying = true;
            history.go(delta);
          });
          return;
        }
        replaying = false;
      }
      shown = update.location;
      apply(update);
    });

  const setGuard = (next: Guard) => {
    guard = next;
    return () => {
      if (guard === next) guard = null;
    };
  };

  return { navigator, location: () => history.location, action: () => history.action, listen, setGuard };
}
