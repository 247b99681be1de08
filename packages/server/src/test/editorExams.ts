/** Exams made through the exam editor by a staff member, and candidates invited to them and calling as one. */
import { api, type EditorExamDetail, type ExamDefinitionInput } from '@examhall/contract';
import type { TestApp } from './app.js';
import { staffCalls } from './staffCalls.js';

/** A draft open from an hour before `now` for a day, with the camera step skippable, and `extra` fields. */
export function openDraft(
  now: number,
  name: string,
  sections: ExamDefinitionInput['sections'],
  extra: Partial<ExamDefinitionInput> = {},
) {
  return {
    name,
    mode: 1,
    time_minutes: 60,
    start_at: now - 3_600_000,
    end_at: now + 86_400_000,
    settings: { is_skip_camera: 1 },
    sections,
    ...extra,
  } satisfies ExamDefinitionInput;
}

/**
 * Editor calls as the staff member whose token `token` answers (read at each call, as `staffCalls`): an exam made
 * with a draft, one published, and candidates invited to an exam and logged in.
 */
export function editorExams(app: () => TestApp, token: () => string) {
  const { ok } = staffCalls(app, token);

  /** Creates an exam and saves `d` as its draft; answers its id and revision. */
  async function examWith(d: ExamDefinitionInput): Promise<{ examId: number; revision: number }> {
    const { exam_id: examId } = await ok<{ exam_id: number }>(api.examEditorCreate, { name: d.name });
    const saved = await ok<EditorExamDetail>(api.examEditorSaveDraft, { exam_id: examId, revision: 0, draft: d });
    return { examId, revision: saved.revision };
  }

  /** Creates an exam with `d` as its draft and publishes it; answers its id. */
  async function published(d: ExamDefinitionInput): Promise<number> {
    const { examId, revision } = await examWith(d);
    await ok(api.examEditorPublish, { exam_id: examId, revision });
    return examId;
  }

  /** Invites `phone` to the exam through the editor and logs the candidate in: their token and invitation. */
  async function invited(examId: number, phone: string): Promise<{ token: string; anid: number; phone: string }> {
    const [inv] = (
      await ok<{ list: { anid: number }[] }>(api.examEditorInvite, { exam_id: examId, phones: [{ phone }] })
    ).list;
    return { token: await app().loginCandidate(phone), anid: inv!.anid, phone };
  }

  return { examWith, published, invited };
}

/** A candidate's calls with their token: `get` adds it to the query, `post` sends a JSON body. */
export function candidateCalls(t: TestApp, token: string) {
  return {
    get: (url: string) => t.app.inject(`/api${url}${url.includes('?') ? '&' : '?'}auth=${token}`),
    post: (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api${url}?auth=${token}`, payload }),
  };
}
