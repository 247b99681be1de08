/**
 * Candidates submitting code through a fault, as the exam page does: a submit is sent again (same client id) until
 * it is accepted, then its status is polled until it is done. Started is what was accepted; finished is what the
 * database holds as judged afterwards.
 */
import { randomUUID } from 'node:crypto';
import { QUESTION_REGISTRY, type JudgeData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { apiCall, type ExamCandidate } from './cluster.js';

/** A correct a+b in Python that takes a while per case, so a worker can be killed in the middle of a job. */
export const SLOW_SOLUTION = 'import time\ntime.sleep(0.3)\na, b = map(int, input().split())\nprint(a + b)\n';

/** The exam's programming question (the demo's a+b). */
export async function programmingQuestion(base: string, examId: number, token: string): Promise<number> {
  const shown = await apiCall<{ list: { subject: { id: number; type: number } }[] }>(
    base,
    'GET',
    `/subject/show-section?exam_id=${examId}&section=major`,
    { token },
  );
  const q = shown.list.find((i) => i.subject.type === QUESTION_REGISTRY.programming.type);
  if (!q) throw new Error('the exam has no programming question');
  return q.subject.id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Submits until accepted (retrying on any failure, alternating between `bases`); answers the job id. */
export async function submitCode(
  bases: () => readonly string[],
  examId: number,
  subjectId: number,
  c: ExamCandidate,
  giveUpMs = 60_000,
): Promise<string> {
  const body = {
    exam_id: examId,
    subject_id: subjectId,
    language: 'python',
    code: SLOW_SOLUTION,
    mode: 'submit',
    client_id: randomUUID(),
  };
  const since = Date.now();
  for (let turn = 0; ; turn++) {
    const all = bases();
    try {
      const data = await apiCall<JudgeData>(all[turn % all.length]!, 'POST', '/answer/judge', {
        token: c.token,
        ip: c.ip,
        body,
      });
      return data.job_id;
    } catch (err) {
      if (Date.now() - since > giveUpMs) throw err;
      await sleep(300);
    }
  }
}

/** Polls a job's status as the page does until it is done (failures are retried); answers the last status. */
export async function judged(
  bases: () => readonly string[],
  examId: number,
  c: ExamCandidate,
  jobId: string,
  giveUpMs = 120_000,
): Promise<JudgeData> {
  const since = Date.now();
  for (let turn = 0; ; turn++) {
    const all = bases();
    try {
      const data = await apiCall<JudgeData>(
        all[turn % all.length]!,
        'GET',
        `/answer/judge-status?exam_id=${examId}&job_id=${jobId}`,
        { token: c.token, ip: c.ip },
      );
      if (data.state === 'done') return data;
    } catch {
      // The page keeps polling through a failure.
    }
    if (Date.now() - since > giveUpMs) throw new Error(`judge job ${jobId} did not finish within ${giveUpMs} ms`);
    await sleep(250);
  }
}

/** How many of `jobIds` the database holds as judged (a verdict and a finish time). */
export async function jobsFinished(db: Db, jobIds: readonly string[]): Promise<number> {
  const rows = await db.selectFrom('judge_runs').select(['job_id', 'finished_at', 'verdict']).execute();
  const started = new Set(jobIds);
  return rows.filter((r) => started.has(r.job_id) && r.finished_at !== null && r.verdict !== null).length;
}
