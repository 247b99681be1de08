/** Set up before every journey file: a journey fails when a page reported a Content-Security-Policy violation. */
import { afterAll, afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser.js';

afterEach(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
// What pages reported while a file's journeys were being set up or torn down.
afterAll(() => {
  expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
});
