/**
 * Fault: a judge worker killed with SIGKILL while it runs a submission. Its lock stops being renewed, the job is
 * taken again (by the other worker or the restarted one) and finishes: every submit accepted is judged, with the
 * right verdict. The workers here renew their lock every 3 s (`--lock-duration 3000`); operators' workers keep the
 * default 30 s, so at full scale a killed worker's job waits up to 30 s before it is taken again.
 */
import type { JudgeData } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { clusterForTests, clusterPartsHere } from './answerChecks.js';
import { until } from '../test/processes.js';
import { apiCall, faultCandidates } from './cluster.js';
import { jobsFinished, judged, programmingQuestion, submitCode } from './judging.js';

describe.runIf(await clusterPartsHere())('fault: a judge worker killed in the middle of a job', () => {
  const CANDIDATES = faultCandidates(3);
  const cluster = clusterForTests(CANDIDATES);

  it('judges every accepted submit: the killed worker’s job is taken again and finishes', async () => {
    const [api] = cluster().apis;
    const bases = () => [api!.base];
    const candidates = await cluster().candidates(api!, CANDIDATES);
    const subjectId = await programmingQuestion(api!.base, cluster().examId, candidates[0]!.token);
    const doomed = await cluster().startJudgeWorker();
    await cluster().startJudgeWorker();

    const started: { c: (typeof candidates)[number]; jobId: string }[] = [];
    for (const c of candidates) {
      for (let k = 0; k < 2; k++) started.push({ c, jobId: await submitCode(bases, cluster().examId, subjectId, c) });
    }
    // Both workers busy, each with a job under way: the one killed is in the middle of one for sure.
    await until(
      async () => {
        let running = 0;
        for (const s of started) {
          const st = await apiCall<JudgeData>(
            api!.base,
            'GET',
            `/answer/judge-status?exam_id=${cluster().examId}&job_id=${s.jobId}`,
            { token: s.c.token, ip: s.c.ip },
          );
          if (st.state === 'running') running += 1;
        }
        return running >= 2;
      },
      60_000,
      100,
    );
    doomed.kill('SIGKILL');
    await new Promise((resolve) => doomed.once('exit', resolve));
    // The worker comes back, as a supervisor restarts it.
    await cluster().startJudgeWorker();

    const results = await Promise.all(started.map((s) => judged(bases, cluster().examId, s.c, s.jobId)));
    const handle = cluster().db.open();
    try {
      const finished = await jobsFinished(
        handle.db,
        started.map((s) => s.jobId),
      );
      console.log(`[fault judge-worker-kill] jobs started ${started.length}, finished ${finished}`);
      expect(results.map((r) => r.verdict)).toEqual(started.map(() => 'AC'));
      expect(finished).toBe(started.length);
    } finally {
      await handle.db.destroy();
    }
  }, 240_000);
});
