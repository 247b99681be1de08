import {
  DEFAULT_AREA_CODE,
  ExamDefinition,
  ExamMode,
  QUESTION_REGISTRY,
  QuestionBody,
  SECTIONS,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { BankRepository } from '../repositories/bank.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import { ExamRepository } from '../repositories/exams.js';
import { StaffRepository } from '../repositories/staff.js';
import {
  DEMO_AUDIO,
  DEMO_BEEPS,
  DEMO_POSITIONS,
  DEMO_QUESTIONS,
  DEMO_SECTION_TITLES,
  DEMO_SETTINGS,
} from './demoExam.js';
import { headFields, publishFrozen, type FrozenSection } from './examVersions.js';
import { InvitationService } from './invitations.js';
import { htmlToText } from './richText.js';
import type { ObjectStore } from '../storage/objectStore.js';

/** Name of the demo exam. */
export const DEMO_EXAM_NAME = 'Examhall demo exam 演示笔试';

/** The demo's bank folder. */
const DEMO_FOLDER = '演示题目 Demo questions';

/**
 * The staff account named as author of the demo's bank questions (a bank question needs one): disabled, and
 * with a "phone" no login form accepts, so nobody can sign in as it.
 */
const DEMO_AUTHOR = { phone: 'demo-content', name: '演示内容 Demo content' };

/** The plain text of a demo question, what bank search looks in. */
function demoStemText(content: { stem: string; passage?: string; options?: { content: string }[] }): string {
  return [content.stem, content.passage ?? '', ...(content.options ?? []).map((o) => o.content)]
    .map(htmlToText)
    .filter(Boolean)
    .join(' ');
}

/**
 * Seeds the demo exam and invites `demoPhone`, only when the database has no exam yet. Its questions go to a
 * bank folder (no team: admins see it) and the exam is published from a draft listing them, frozen by the
 * same code as a publish from the console, so the demo is a real exam an admin can edit and publish again.
 * The judge is not run on the programming question's reference solution here (a start needs no toolchains);
 * a publish from the console checks it.
 */
export async function seedDemo(
  db: Db,
  store: ObjectStore,
  demoPhone: string,
  now: number,
): Promise<{ examId: number; anid: number } | null> {
  return db.transaction().execute(async (trx) => {
    const repo = new ExamRepository(trx);
    if ((await repo.count()) > 0) return null;
    await store.put(DEMO_AUDIO.key, DEMO_BEEPS);
    const staff = new StaffRepository(trx);
    const author =
      (await staff.findByPhone(DEMO_AUTHOR.phone)) ??
      (await staff.create({
        area_code: DEFAULT_AREA_CODE,
        phone: DEMO_AUTHOR.phone,
        name: DEMO_AUTHOR.name,
        role: 'author',
        // Not a hash of anything: no password opens it (and the account is disabled besides).
        password_hash: '!',
        disabled: 1,
        created_at: now,
      }));
    const bank = new BankRepository(trx);
    const folder = await bank.createFolder({
      team_id: null,
      parent_id: null,
      name: DEMO_FOLDER,
      created_by: author.id,
      created_at: now,
    });
    const sections: FrozenSection[] = [];
    for (const kind of SECTIONS) {
      const questions: FrozenSection['questions'] = [];
      for (const { score, ...question } of DEMO_QUESTIONS[kind]) {
        // The demo is checked like any question: a mistake in it fails the seed, not a candidate later.
        const body = QuestionBody.parse(question);
        const id = await bank.create(
          {
            team_id: null,
            folder_id: folder.id,
            kind: body.kind,
            type: QUESTION_REGISTRY[body.kind].type,
            stem_text: demoStemText(body.content),
            content: JSON.stringify(body.content),
            answer_key: JSON.stringify(body.key),
            difficulty: 2,
            knowledge_points: '[]',
            default_score: score,
            author_id: author.id,
            editor_id: author.id,
            created_at: now,
            updated_at: now,
            verification: null,
          },
          ['demo'],
        );
        questions.push({
          bank_question_id: id,
          kind: body.kind,
          content: body.content,
          key: body.key,
          explanation: null,
          score,
        });
      }
      sections.push({ kind, title: DEMO_SECTION_TITLES[kind], draw_count: null, questions });
    }
    const definition = ExamDefinition.parse({
      name: DEMO_EXAM_NAME,
      description: '<p>本演示考试包含全部 11 种题型。 / This demo covers all 11 question types.</p>',
      mode: ExamMode.exam,
      time_minutes: 60,
      start_at: now - 86_400_000,
      end_at: now + 365 * 86_400_000,
      settings: DEMO_SETTINGS,
      // Candidates of the demo see their score (the journeys check it), whatever a new exam's default becomes.
      show_score: 'score',
      positions: DEMO_POSITIONS,
      sections: sections.map((s) => ({
        kind: s.kind,
        title: s.title,
        items: s.questions.map((q) => ({ question_id: q.bank_question_id!, points: q.score })),
      })),
    });
    const exam = await new ExamEditorRepository(trx).create({
      ...headFields(definition),
      created_at: now,
      team_id: null,
      status: 'draft',
      draft: JSON.stringify(definition),
      revision: 0,
      updated_at: now,
      created_by: null,
    });
    await publishFrozen(trx, { examId: exam.id, definition, sections, publishedBy: null, now });
    const [invited] = await new InvitationService({ clock: () => now }).invite(trx, exam.id, [
      { area_code: DEFAULT_AREA_CODE, phone: demoPhone },
    ]);
    return { examId: exam.id, anid: invited!.anid };
  });
}
