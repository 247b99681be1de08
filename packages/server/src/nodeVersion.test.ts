import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR, unsupportedNode } from './nodeVersion.js';

describe('unsupportedNode', () => {
  it('accepts the pinned line and newer ones, and refuses older ones saying what to do', () => {
    expect(unsupportedNode(`v${NODE_MAJOR}.22.3`)).toBeNull();
    expect(unsupportedNode(`v${NODE_MAJOR + 2}.0.0`)).toBeNull();
    const refusal = unsupportedNode('v20.20.2');
    expect(refusal).toContain('Node.js 24');
    expect(refusal).toContain('v20.20.2');
    expect(refusal).toContain('.runtime/bin');
  });

  it('is the line .node-version pins, and the suite runs on that release', () => {
    const pinned = fs.readFileSync(new URL('../../../.node-version', import.meta.url), 'utf8').trim();
    expect(Number(pinned.split('.')[0])).toBe(NODE_MAJOR);
    expect(process.versions.node).toBe(pinned);
  });
});
