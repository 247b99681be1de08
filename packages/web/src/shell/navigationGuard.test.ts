import { UNSAFE_createMemoryHistory as createMemoryHistory } from 'react-router';
import { describe, expect, it } from 'vitest';
import { guardHistory, type Update } from './navigationGuard.js';

/** A guarded history in memory at /a, then /b, /c (index at /c), and the moves the app was shown. */
function setUp() {
  const history = guardHistory(
    createMemoryHistory({ initialEntries: ['/a', '/b', '/c'], initialIndex: 2, v5Compat: true }),
  );
  const shown: string[] = [];
  const stop = history.listen((u: Update) => shown.push(`${u.action} ${u.location.pathname}`));
  const held: (() => void)[] = [];
  const guardLeaving = (from: string) =>
    history.setGuard({
      shouldHold: ({ currentLocation, nextLocation }) =>
        currentLocation.pathname === from && nextLocation.pathname !== from,
      hold: (proceed) => held.push(proceed),
    });
  return { history, shown, held, guardLeaving, stop };
}

describe('a history whose moves a page can hold', () => {
  it('passes every move on while no guard is set', () => {
    const { history, shown } = setUp();
    history.navigator.push('/d');
    history.navigator.replace('/e');
    history.navigator.go(-1);
    expect(shown).toEqual(['PUSH /d', 'REPLACE /e', 'POP /c']);
    expect(history.location().pathname).toBe('/c');
  });

  it('holds a link or navigate call the guard refuses, and makes it on proceed', () => {
    const { history, shown, held, guardLeaving } = setUp();
    guardLeaving('/c');
    history.navigator.push('/d?x=1');
    expect(shown).toEqual([]);
    expect(history.location().pathname).toBe('/c');
    expect(held).toHaveLength(1);
    held[0]!();
    expect(shown).toEqual(['PUSH /d']);
    expect(history.location().search).toBe('?x=1');
  });

  it('drops a held move when the page stays (reset): nothing moves', () => {
    const { history, shown, held, guardLeaving } = setUp();
    guardLeaving('/c');
    history.navigator.replace('/d');
    expect(held).toHaveLength(1);
    expect(shown).toEqual([]);
    expect(history.location().pathname).toBe('/c');
  });

  it('lets through the moves the guard does not refuse (a change of query on the same page)', () => {
    const { history, shown, held, guardLeaving } = setUp();
    guardLeaving('/c');
    history.navigator.push('/c?tab=2');
    expect(held).toEqual([]);
    expect(shown).toEqual(['PUSH /c']);
  });

  it('undoes a back move the guard refuses, without showing it, and replays it on proceed', () => {
    const { history, shown, held, guardLeaving } = setUp();
    guardLeaving('/c');
    history.navigator.go(-2);
    // The history went to /a and came back; the app never left /c.
    expect(shown).toEqual([]);
    expect(history.location().pathname).toBe('/c');
    expect(held).toHaveLength(1);
    held[0]!();
    expect(shown).toEqual(['POP /a']);
    expect(history.location().pathname).toBe('/a');
    // Moving on from /a is not guarded by the page that was left.
    history.navigator.go(1);
    expect(shown).toEqual(['POP /a', 'POP /b']);
  });

  it('stops holding once the page removes its guard, and leaves a newer guard in place', () => {
    const { history, shown, held, guardLeaving } = setUp();
    const remove = guardLeaving('/c');
    remove();
    history.navigator.push('/d');
    expect(shown).toEqual(['PUSH /d']);
    const removeOld = guardLeaving('/e');
    guardLeaving('/d');
    removeOld();
    history.navigator.push('/f');
    expect(held).toHaveLength(1);
  });
});
