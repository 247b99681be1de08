/**
 * Texts' budgets on both databases: several processes asking at once for texts of one invitation and one exam get
 * exactly the budget between them (the database is the one truth); a day's budget starts again at the server's
 * midnight; a text given back frees its place; counters past their window are removed and start again. The
 * budgets in the product's calls (resends, bulk invitations, login codes) are tested over HTTP in
 * routes/invitations.test.ts, routes/user.test.ts and services/loginCodes.test.ts.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverDayStart } from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testedDialects } from '../test/db.js';
import { sharedDb, type SharedDb } from '../test/jobKinds.js';
import { tsxLoader } from '../test/processes.js';
import { SMS_BUDGET_DEFAULTS, SmsBudget, type BudgetedText, type SmsBudgets } from './smsBudget.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A text of an invitation of exam `exam` (its own phone), by purpose. */
const textOf = (
  purpose: 'invitation' | 'resend',
  invitation: number,
  exam: number,
): Extract<BudgetedText, { invitation_id: number }> => ({
  purpose,
  area_code: '86',
  phone: `1370001${String(invitation).padStart(4, '0')}`,
  invitation_id: invitation,
  exam_id: exam,
  team_id: null,
});

/**
 * Runs the worker in `n` processes, each asking for all of `texts` at once, all processes at the same moment;
 * answers every verdict (null: counted, else the budget that held the text back).
 */
async function askFromProcesses(
  shared: SharedDb,
  n: number,
  texts: BudgetedText[],
  budgets: SmsBudgets,
): Promise<(string | null)[]> {
  const env = { ...process.env, ...shared.env, TEXTS: JSON.stringify(texts), BUDGETS: JSON.stringify(budgets) };
  const workers = Array.from({ length: n }, () => {
    const child = spawn(process.execPath, ['--import', tsxLoader, path.resolve(here, '../test/smsBudgetWorker.ts')], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const done = new Promise<(string | null)[]>((resolve, reject) =>
      child.once('exit', (code) => {
        const line = out.split('\n').find((l) => l.startsWith('['));
        if (code === 0 && line) resolve(JSON.parse(line) as (string | null)[]);
        else reject(new Error(`worker exited (${code}):\n${out}`));
      }),
    );
    return { child, ready, done };
  });
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.stdin.end('go\n');
  return (await Promise.all(workers.map((w) => w.done))).flat();
}

describe.each(await testedDialects())('texts have budgets on %s', (dialect) => {
  let shared: SharedDb;
  let now: number;
  const clock = () => now;

  beforeEach(async () => {
    shared = await sharedDb(dialect);
    now = Date.now();
  });
  afterEach(async () => shared.drop());

  it('gives processes asking at once exactly the budget between them: one resend per interval, an exam its day', async () => {
    const budgets: SmsBudgets = { ...SMS_BUDGET_DEFAULTS, examDaily: 7 };
    // Each process: the same invitation resent 5 times (exam 1), and 5 invitations of exam 2, the same in each.
    const texts = [
      ...Array.from({ length: 5 }, () => textOf('resend', 1, 1)),
      ...Array.from({ length: 5 }, (_, i) => textOf('invitation', 100 + i, 2)),
    ];
    const verdicts = await askFromProcesses(shared, 4, texts, budgets);
    expect(verdicts).toHaveLength(40);
    const resends = verdicts.filter((_, i) => i % 10 < 5);
    const invitations = verdicts.filter((_, i) => i % 10 >= 5);
    expect(resends.filter((v) => v === null)).toHaveLength(1);
    expect(new Set(resends.filter((v) => v !== null))).toEqual(new Set(['resend_interval']));
    expect(invitations.filter((v) => v === null)).toHaveLength(7);
    expect(new Set(invitations.filter((v) => v !== null))).toEqual(new Set(['exam_daily']));
    const counters = await shared.db.selectFrom('sms_budget').select(['key', 'used']).orderBy('key').execute();
    expect(counters).toEqual(
      expect.arrayContaining([
        { key: 'exam_daily:1', used: 1 },
        { key: 'exam_daily:2', used: 7 },
        { key: 'resend_daily:1', used: 1 },
        { key: 'resend_interval:1', used: 1 },
      ]),
    );
  });

  it("starts a day's budget again at the server's midnight, frees what is given back, and drops spent counters", async () => {
    const budget = new SmsBudget({ ...SMS_BUDGET_DEFAULTS, phoneDaily: 2 }, clock);
    // 23:59 in UTC+8.
    now = serverDayStart(now) + 86_400_000 - 60_000;
    const login: BudgetedText = { purpose: 'login', area_code: '86', phone: '13700020000' };
    const invitation = textOf('invitation', 20000, 1);
    const [code] = await budget.take(shared.db, [login]);
    expect(code!.held).toBeNull();
    // The phone's second text of the day: its invitation; a third (any purpose) is held.
    const [first, second] = await budget.take(shared.db, [
      { ...invitation, phone: '13700020000' },
      { ...invitation, phone: '13700020000', invitation_id: 20001 },
    ]);
    expect([first!.held, second!.held]).toEqual([null, 'phone_daily']);
    // A login code that did not go gives back its place: the phone may get another text today.
    await budget.giveBack(shared.db, code!.counted);
    expect(
      (await budget.take(shared.db, [{ ...invitation, phone: '13700020000', invitation_id: 20002 }]))[0]!.held,
    ).toBe(null);
    // After midnight, a new day.
    now += 60_000;
    expect((await budget.take(shared.db, [login]))[0]!.held).toBeNull();
    // Counters whose window has ended are removed; removed ones start again from nothing.
    now += 2 * 86_400_000;
    expect(await budget.prune(shared.db)).toBeGreaterThanOrEqual(4);
    expect(await shared.db.selectFrom('sms_budget').select('key').execute()).toEqual([]);
    expect((await budget.take(shared.db, [login]))[0]!.held).toBeNull();
  });
});
