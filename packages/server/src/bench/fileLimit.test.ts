import { describe, expect, it } from 'vitest';
import { FILES_BESIDES_STREAMS, fileLimitVerdict, filesNeeded, mostCandidates, readFileLimit } from './fileLimit.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 20000                files
Max locked memory         8388608              8388608              bytes
`;

describe('the exam bench and the open-file limit', () => {
  it('reads the soft and hard limits of /proc/self/limits', () => {
    expect(readFileLimit(LIMITS)).toEqual({ soft: 1024, hard: 20000 });
    expect(readFileLimit(LIMITS.replace('1024                 20000', 'unlimited            unlimited'))).toEqual({
      soft: Infinity,
      hard: Infinity,
    });
    expect(readFileLimit('nothing here')).toBeNull();
    // This machine's own limits read as numbers.
    const own = readFileLimit();
    if (own) expect(own.soft).toBeLessThanOrEqual(own.hard);
  });

  it('counts a stream per candidate in the load process, and its share in each API process', () => {
    expect(filesNeeded({ candidates: 10_000, apiProcesses: 1, sockets: 256 })).toBe(10_256 + FILES_BESIDES_STREAMS);
    // Two API processes: the load process still holds every stream.
    expect(filesNeeded({ candidates: 10_000, apiProcesses: 2, sockets: 256 })).toBe(10_512 + FILES_BESIDES_STREAMS);
  });

  it('goes on, raises the soft limit, or refuses past the hard limit with the reason', () => {
    const limit = { soft: 1024, hard: 20_000 };
    expect(fileLimitVerdict(900, limit)).toEqual({ kind: 'enough' });
    expect(fileLimitVerdict(12_000, limit)).toEqual({ kind: 'raise', to: 12_000 });
    const run = { apiProcesses: 1, sockets: 256 };
    const most = mostCandidates(limit.hard, run);
    const refused = fileLimitVerdict(filesNeeded({ candidates: 50_000, ...run }), limit, most);
    expect(refused.kind).toBe('refuse');
    if (refused.kind === 'refuse') expect(refused.reason).toMatch(/allows 20000.*at most 19232 candidates/);
    // The most that fit does fit, and one more does not.
    expect(fileLimitVerdict(filesNeeded({ candidates: most, ...run }), limit).kind).toBe('raise');
    expect(fileLimitVerdict(filesNeeded({ candidates: most + 1, ...run }), limit).kind).toBe('refuse');
    expect(fileLimitVerdict(1e9, null)).toEqual({ kind: 'enough' });
  });
});
