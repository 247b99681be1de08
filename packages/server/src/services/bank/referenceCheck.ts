import { JUDGE_VERIFY_MS, type BankVerification, type BankVerifiedCase } from '@examhall/contract';
import { availability, type CheckerSpec, type JudgeQueue, type JudgeTask } from '@examhall/judge';
import { fail } from '../../errors.js';
import type { ServiceLog } from '../../log.js';
import { BankRepository } from '../../repositories/bank.js';
import type { StaffActor } from '../access.js';
import { type BankTxDeps, inTransaction, questionObject } from './common.js';
import { fingerprint, parseStored, parseVerification, type StoredVerification } from './stored.js';

/** What the check of reference solutions needs. */
export interface BankReferenceCheckDeps extends BankTxDeps {
  /** Where reference solutions are judged. */
  judgeQueue: JudgeQueue;
  clock: () => number;
  log: ServiceLog;
}

/** The judge's check of programming questions' reference solutions, for the editor and for publishing. */
export class BankReferenceCheckService {
  private readonly repo: BankRepository;

  constructor(private readonly deps: BankReferenceCheckDeps) {
    this.repo = new BankRepository(deps.db);
  }

  /** Judges a programming question's reference solution on every case, for the editor (audited). */
  async verify(actor: StaffActor, id: number): Promise<BankVerification> {
    await this.deps.access.require(actor, 'bank.manage', 'question', id);
    return this.verifyReference(id, actor);
  }

  /**
   * Judges a programming question's reference solution on every sample and hidden case and stores the
   * outcome with the revision it was made at (a later edit of what was judged makes it stale). `actor` is
   * who asked (audited); null when publishing asks. Waits for the judge.
   */
  async verifyReference(id: number, actor: StaffActor | null = null): Promise<BankVerification> {
    const [r] = await this.repo.byIds([id]);
    if (!r) throw fail('not_found', `no such question ${id}`);
    const body = parseStored(r, this.deps.log);
    if (body.kind !== 'programming') {
      throw fail('validation_error', `question_id: question ${id} is a ${body.kind} question, not a programming one`);
    }
    const reference = body.key.reference;
    if (!reference) throw fail('validation_error', `key.reference: question ${id} has no reference solution`);
    const have = await availability(reference.language);
    if (!have.available) {
      throw fail(
        'language_unavailable',
        `${reference.language}: ${have.reason ?? 'toolchain not installed on this host'}`,
      );
    }
    const { samples } = body.content;
    const hidden = body.key.cases;
    const checker = body.key.checker;
    const task: JudgeTask = {
      language: reference.language,
      source: reference.source,
      cases: [
        ...samples.map((s) => ({ input: s.input, expected: s.output })),
        ...hidden.map((c) => ({ input: c.input, expected: c.output })),
      ],
      timeLimitMs: body.content.time_limit_ms,
      memoryLimitMb: body.content.memory_limit_mb,
      checker:
        typeof checker === 'string'
          ? checker
          : ({ kind: 'custom', language: checker.language, source: checker.source } satisfies CheckerSpec),
    };
    const result = await this.deps.judgeQueue.wait(await this.deps.judgeQueue.submit(task), JUDGE_VERIFY_MS);
    const cases: BankVerifiedCase[] = result.cases.map((c) => {
      const i = c.index - 1;
      const isSample = i < samples.length;
      const name = isSample ? undefined : hidden[i - samples.length]?.name;
      return {
        kind: isSample ? 'sample' : 'hidden',
        number: isSample ? i + 1 : i - samples.length + 1,
        ...(name ? { name } : {}),
        verdict: c.verdict,
        time_ms: c.time_ms,
        memory_kb: c.memory_kb,
      };
    });
    const ok = result.verdict === 'AC' && cases.length === task.cases.length && cases.every((c) => c.verdict === 'AC');
    const failed = cases.find((c) => c.verdict !== 'AC');
    const problem = ok
      ? null
      : result.verdict === 'CE'
        ? 'the reference solution does not compile'
        : failed
          ? `${failed.kind} case ${failed.number}${failed.name ? ` (${failed.name})` : ''}: ${failed.verdict}`
          : `the judge answered ${result.verdict}${result.message ? `: ${result.message}` : ''}`;
    const stored: StoredVerification = {
      revision: r.revision,
      ok,
      verdict: result.verdict,
      language: reference.language,
      cases,
      problem,
      ...(result.compileOutput ? { compile_output: result.compileOutput.slice(0, 10_000) } : {}),
      checked_at: this.deps.clock(),
      fingerprint: fingerprint(body),
    };
    const kept = await inTransaction(this.deps, async ({ repo, audit }) => {
      // Stored only if nobody saved the question while the judge ran; the answer says what was judged anyway.
      const saved = await repo.setVerification(id, r.revision, JSON.stringify(stored));
      if (saved && actor) {
        const { fingerprint: _f, ...after } = stored;
        await audit.record(actor, 'bank.question.verify', questionObject(id), parseVerification(r.verification), after);
      }
      return saved;
    });
    const { fingerprint: _f, ...shown } = stored;
    return { ...shown, stale: !kept };
  }
}
