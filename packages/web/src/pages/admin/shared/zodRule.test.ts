import { CreateTeamBody, UpdateStaffBody } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { firstProblem, zodRule } from './zodRule.js';

describe('form rules from contract schemas', () => {
  it('names the first problem with its path', () => {
    expect(firstProblem(CreateTeamBody, { name: 'Backend' })).toBeNull();
    expect(firstProblem(CreateTeamBody, { name: '' })).toMatch(/^name: /);
    expect(firstProblem(UpdateStaffBody.shape.name, 'x'.repeat(61))).not.toBeNull();
  });

  it('passes or fails like the schema, with the page text when given', async () => {
    const rule = zodRule(CreateTeamBody.shape.name, 'enter a name');
    await expect(rule.validator(null, 'Backend')).resolves.toBeUndefined();
    await expect(rule.validator(null, '   ')).rejects.toThrow('enter a name');
    const mapped = zodRule(UpdateStaffBody.shape.team_id, undefined, (v) => (v === '' ? null : v));
    await expect(mapped.validator(null, '')).resolves.toBeUndefined();
  });
});
