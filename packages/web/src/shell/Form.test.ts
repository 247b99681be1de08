import { describe, expect, it } from 'vitest';
import { uniqueFormName } from './Form.js';

describe('uniqueFormName', () => {
  it("keeps the given name readable and makes two instances' names differ, in characters an id allows", () => {
    expect(uniqueFormName('team', '«r1»')).toBe('team-r1');
    expect(uniqueFormName(undefined, '_r_2_')).toBe('form-_r_2_');
    expect(uniqueFormName('team', '«r1»')).not.toBe(uniqueFormName('team', '«r2»'));
  });
});
