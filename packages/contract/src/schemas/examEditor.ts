/** The exam editor: an exam's editable draft (its definition), published versions, live changes, preview. */
import { z } from 'zod';
import { isValidPhone } from '../areaCodes.js';
import { ExamMode, SECTIONS } from '../enums.js';
import { EpochMs, Id, PageQuery, IdParam } from './common.js';
import { ExamModeField, ExamSettings, ShowScoreField } from './exam.js';
import { AreaCodeField, PhoneField } from './user.js';

/** Longest exam length, minutes (a week). */
export const EXAM_MINUTES_MAX = 7 * 24 * 60;
/** Most questions one section may list or draw. */
export const SECTION_ITEMS_MAX = 500;
/** Most sections of an exam. */
export const EXAM_SECTIONS_MAX = 20;
/** Most points one question may carry. */
export const QUESTION_POINTS_MAX = 1000;

/** A section kind: linetest (aptitude), major (professional) or evaluation (personality). */
export const SectionKindField = z.enum(SECTIONS);

/** Points of one question in an exam. */
export const PointsField = z
  .number({ error: 'points must be a number' })
  .positive('points must be more than 0')
  .max(QUESTION_POINTS_MAX, `at most ${QUESTION_POINTS_MAX} points`);

/** One bank question of a fixed section, with the points it carries in this exam. */
export const SectionItem = z.object({
  /** The bank question. */
  question_id: Id,
  /** Points it carries in this exam. */
  points: PointsField,
});
/** One bank question of a fixed section. */
export type SectionItem = z.infer<typeof SectionItem>;

/** Which bank questions of the exam's team a draw picks from: in any of the folders, with any of the tags, of any of the difficulties. */
export const DrawRule = z.object({
  /** How many questions each candidate gets, drawn at random without replacement. */
  count: z.number().int().min(1, 'a draw takes at least 1 question').max(SECTION_ITEMS_MAX),
  /** Points of each drawn question. */
  points: PointsField,
  /** Folders to draw from; empty: any folder of the exam's team. */
  folder_ids: z.array(Id).max(100).default([]),
  /** A question must carry one of these tags; empty: any. */
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  /** Difficulties allowed (1 to 5); empty: any. */
  difficulty: z.array(z.number().int().min(1).max(5)).max(5).default([]),
});
/** A random-draw rule. */
export type DrawRule = z.infer<typeof DrawRule>;

/** A section made of a fixed list of bank questions. */
export const FixedSection = z.strictObject({
  /** linetest, major or evaluation. */
  kind: SectionKindField,
  /** Title shown to authors. */
  title: z.string().trim().max(100).default(''),
  /** The questions in order. */
  items: z.array(SectionItem).max(SECTION_ITEMS_MAX),
});
/** A fixed section. */
export type FixedSection = z.infer<typeof FixedSection>;

/** A section whose questions are drawn per candidate from a pool of bank questions. */
export const DrawSection = z.strictObject({
  /** linetest, major or evaluation. */
  kind: SectionKindField,
  /** Title shown to authors. */
  title: z.string().trim().max(100).default(''),
  /** The rule: how many, from where, for how many points. */
  draw: DrawRule,
});
/** A draw section. */
export type DrawSection = z.infer<typeof DrawSection>;

/** A section of an exam: a fixed list, or a draw. */
export const ExamSectionDef = z.union([FixedSection, DrawSection]);
/** A section of an exam. */
export type ExamSectionDef = z.infer<typeof ExamSectionDef>;

/** True for a draw section. */
export function isDrawSection(s: ExamSectionDef): s is DrawSection {
  return 'draw' in s;
}

/** The questions one candidate gets from a section: a draw's count (not its pool), a fixed section's items. */
export function sectionQuestionCount(s: ExamSectionDef): number {
  return isDrawSection(s) ? s.draw.count : s.items.length;
}

/**
 * The points a section is worth to one candidate (to hundredths): a draw's count times its points (the pool is
 * larger), a fixed section's items. The evaluation section's items are not scored into points: 0.
 */
export function sectionFullMarks(s: ExamSectionDef): number {
  if (s.kind === 'evaluation') return 0;
  const total = isDrawSection(s) ? s.draw.count * s.draw.points : s.items.reduce((sum, i) => sum + i.points, 0);
  return Math.round(total * 100) / 100;
}

/**
 * An exam's full marks, the one count of them: what each candidate's paper is worth, as scoring adds it up (every
 * question a candidate gets but the evaluation items).
 */
export function examFullMarks(sections: readonly ExamSectionDef[]): number {
  return Math.round(sections.reduce((n, s) => n + sectionFullMarks(s), 0) * 100) / 100;
}

/** When a candidate passes: never judged, at a number of points, or at a share of the maximum. */
export const PassingRule = z.discriminatedUnion('kind', [
  z.object({
    /** No pass mark. */
    kind: z.literal('none'),
  }),
  z.object({
    /** A pass mark in points. */
    kind: z.literal('points'),
    /** Points needed to pass. */
    min_points: z.number().min(0).max(1_000_000),
  }),
  z.object({
    /** A pass mark as a percentage of the maximum. */
    kind: z.literal('percent'),
    /** Percent of the maximum needed to pass, 0 to 100. */
    min_percent: z.number().min(0).max(100),
  }),
]);
/** When a candidate passes. */
export type PassingRule = z.infer<typeof PassingRule>;

/** A position recommended after the exam to candidates who reach its bar. */
export const PositionDef = z.object({
  /** Title. */
  title: z.string().trim().min(1, 'the position needs a title').max(100),
  /** Department. */
  department: z.string().trim().max(100).default(''),
  /** City. */
  city: z.string().trim().max(100).default(''),
  /** What the job is. */
  description: z.string().trim().max(2000).default(''),
  /** Share of the maximum score a candidate needs, 0 to 1. */
  min_ratio: z.number().min(0).max(1),
});
/** A position to recommend. */
export type PositionDef = z.infer<typeof PositionDef>;

/** Every per-exam setting, with the defaults of a new exam. */
export const ExamSettingsDef = ExamSettings.extend({
  is_enterprise_logo: ExamSettings.shape.is_enterprise_logo.default(0),
  ico_name: z.string().max(200).default(''),
  systemLogoPath: z.string().max(500).default(''),
  is_paste: ExamSettings.shape.is_paste.default(0),
  is_copy_question: ExamSettings.shape.is_copy_question.default(0),
  is_upload_file: ExamSettings.shape.is_upload_file.default(0),
  cutting_times: z.number().int().min(0, 'cutting_times: 0 or more').max(1000).default(3),
  is_skip_camera: ExamSettings.shape.is_skip_camera.default(0),
  is_skip_microphone: ExamSettings.shape.is_skip_microphone.default(0),
  is_skip_screen: ExamSettings.shape.is_skip_screen.default(0),
  is_skip_phone: ExamSettings.shape.is_skip_phone.default(0),
  is_close_camera: ExamSettings.shape.is_close_camera.default(0),
  is_close_microphone: ExamSettings.shape.is_close_microphone.default(0),
  is_close_screen: ExamSettings.shape.is_close_screen.default(0),
  is_close_phone: ExamSettings.shape.is_close_phone.default(0),
});
/** Every per-exam setting. */
export type ExamSettingsDef = z.infer<typeof ExamSettingsDef>;

/** A SHA-256 in hex (a Safe Exam Browser config key or browser exam key), read in lower case. */
const Sha256Hex = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, 'a key is 64 hexadecimal characters (SHA-256)');

/**
 * Whether an exam is taken in Safe Exam Browser, and the keys its requests must prove. Staff only: never sent to
 * candidates (a candidate call of the exam without the right key hash is refused: `seb_required`).
 */
export const SebRequirement = z.object({
  /** True: every candidate call of the exam must come from SEB started with the exam's settings. */
  required: z.boolean().default(false),
  /**
   * The config key of the settings SEB runs with; empty: the key of the settings file the console offers
   * (GET /admin/exam/seb-settings), computed from it as SEB documents it.
   */
  config_key: z.union([z.literal(''), Sha256Hex]).default(''),
  /** Browser exam keys accepted besides (each SEB version and settings file has its own); empty: not checked. */
  browser_exam_keys: z.array(Sha256Hex).max(20).default([]),
});
/** An exam's Safe Exam Browser requirement. */
export type SebRequirement = z.infer<typeof SebRequirement>;

/** GET /admin/exam/seb-settings data: the settings file candidates open in SEB, and its config key. */
export const SebSettingsData = z.object({
  /** The file's name (`.seb`). */
  file_name: z.string(),
  /** Its content: an unencrypted SEB settings plist (XML). */
  content: z.string(),
  /** The file's config key (lower-case hex SHA-256 of its SEB-JSON form). */
  config_key: z.string(),
  /** The page SEB opens first. */
  start_url: z.string(),
});
/** GET /admin/exam/seb-settings data. */
export type SebSettingsData = z.infer<typeof SebSettingsData>;

/** Whether an exam's candidates read the explanations after submitting: its setting, or by default practice only. */
export function explanationsShown(d: { mode: number; show_explanations?: boolean | null | undefined }): boolean {
  return d.show_explanations ?? d.mode === ExamMode.simulate;
}

/**
 * An exam as its author defines it: the draft they edit, and what a published version freezes. Questions
 * are bank questions by id (fixed sections) or drawn by rule (draw sections); publishing copies them.
 */
export const ExamDefinition = z
  .object({
    /** Exam name. */
    name: z.string().trim().min(1, 'the exam needs a name').max(200),
    /** Instructions shown before the exam (rich text; sanitized on save). */
    description: z.string().max(100_000).default(''),
    /** Mode: simulate 0, exam 1, longTime 2. */
    mode: ExamModeField,
    /** Length in minutes. */
    time_minutes: z
      .number()
      .int()
      .positive('time_minutes: more than 0')
      .max(EXAM_MINUTES_MAX, `time_minutes: at most ${EXAM_MINUTES_MAX}`),
    /** When the exam opens (epoch ms). */
    start_at: EpochMs,
    /** When the exam closes (epoch ms); after it opens. */
    end_at: EpochMs,
    /** Every per-exam setting (paste, copy, upload, screen switches, checks, logo, capture interval). */
    settings: ExamSettingsDef,
    /** The pledge the candidate signs before the exam (plain text; empty: none). */
    pledge: z.string().max(5_000).default(''),
    /** When a candidate passes. */
    passing: PassingRule.default({ kind: 'none' }),
    /** What candidates see of their outcome. */
    show_score: ShowScoreField.default('score'),
    /**
     * Whether candidates read the questions' explanations and feedback after submitting; null: as the mode has it
     * (practice exams yes, the others no; see explanationsShown).
     */
    show_explanations: z.boolean().nullable().default(null),
    /** Whether each invitation needs an ID photo before the exam. */
    id_photo_required: z.boolean().default(false),
    /** Whether the exam is taken in Safe Exam Browser, and with which keys. */
    seb: SebRequirement.prefault({}),
    /** Each candidate gets the questions in an order of their own (within the order of types). */
    shuffle_questions: z.boolean().default(false),
    /** Each candidate gets the options of choice questions in an order of their own. */
    shuffle_options: z.boolean().default(false),
    /** Positions recommended after the exam. */
    positions: z.array(PositionDef).max(50).default([]),
    /** The sections in order. */
    sections: z.array(ExamSectionDef).max(EXAM_SECTIONS_MAX, `at most ${EXAM_SECTIONS_MAX} sections`).default([]),
  })
  .superRefine((d, ctx) => {
    if (d.end_at <= d.start_at) ctx.addIssue({ code: 'custom', path: ['end_at'], message: 'closes before it opens' });
    const seen = new Set<number>();
    d.sections.forEach((s, i) => {
      if (isDrawSection(s)) return;
      s.items.forEach((item, j) => {
        if (seen.has(item.question_id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['sections', i, 'items', j, 'question_id'],
            message: `question ${item.question_id} is in the exam twice`,
          });
        }
        seen.add(item.question_id);
      });
    });
  });
/** An exam's definition (draft or version). */
export type ExamDefinition = z.infer<typeof ExamDefinition>;
/** An exam's definition as sent (defaults not yet applied). */
export type ExamDefinitionInput = z.input<typeof ExamDefinition>;

/** Where an exam stands: being written, published (may have a newer draft), archived. */
export const ExamStatusField = z.enum(['draft', 'published', 'archived']);
/** Where an exam stands. */
export type ExamStatus = z.infer<typeof ExamStatusField>;

/** One exam in the console's list. */
export const EditorExamItem = z.object({
  /** Exam id. */
  id: z.number().int(),
  /** Name (of the draft). */
  name: z.string(),
  /** Where it stands. */
  status: ExamStatusField,
  /** Mode of the draft. */
  mode: ExamModeField,
  /** Window of the draft (epoch ms). */
  start_at: EpochMs,
  /** Window of the draft (epoch ms). */
  end_at: EpochMs,
  /** Number of the published version, null before the first publish. */
  published_version: z.number().int().nullable(),
  /** True when the draft differs from the published version. */
  draft_changed: z.boolean(),
  /** The team that owns it, null: no team. */
  team_id: z.number().int().nullable(),
  /** Invitations (previews excluded). */
  invited: z.number().int(),
  /** When the draft last changed (epoch ms). */
  updated_at: EpochMs,
});
/** One exam in the console's list. */
export type EditorExamItem = z.infer<typeof EditorExamItem>;

/** GET /admin/exam/list query: paging, sort and filters done on the server. */
export const EditorExamListQuery = PageQuery.extend({
  /** Only exams in this state. */
  status: ExamStatusField.optional(),
  /** Only exams whose name contains this text. */
  name: z.string().trim().max(100).optional(),
  /** Sort key. */
  sort: z.enum(['updated_at', 'name', 'start_at', 'id']).default('updated_at'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('desc'),
});
/** GET /admin/exam/list query. */
export type EditorExamListQuery = z.input<typeof EditorExamListQuery>;

/** GET /admin/exam/list data. */
export const EditorExamListData = z.object({
  /** One page of exams. */
  list: z.array(EditorExamItem),
  /** How many match in all. */
  total: z.number().int(),
});
/** GET /admin/exam/list data. */
export type EditorExamListData = z.infer<typeof EditorExamListData>;

/** A query naming one exam. */
export const ExamIdQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** A query naming one exam. */
export type ExamIdQuery = z.input<typeof ExamIdQuery>;

/** A body naming one exam. */
export const ExamIdBody = z.object({
  /** Exam id. */
  exam_id: Id,
});
/** A body naming one exam. */
export type ExamIdBody = z.input<typeof ExamIdBody>;

/** A published (or preview) version of an exam. */
export const ExamVersionView = z.object({
  /** Version id. */
  id: z.number().int(),
  /** 1, 2, ... in publishing order (previews have their own numbers too, and never become the published one). */
  number: z.number().int(),
  /** When it was frozen (epoch ms). */
  published_at: EpochMs,
  /** Staff id of who published it. */
  published_by: z.number().int().nullable(),
  /** True for a preview version. */
  preview: z.boolean(),
  /** Questions frozen in it (whole pools of draw sections included). */
  questions: z.number().int(),
  /** Questions each candidate gets. */
  per_candidate: z.number().int(),
  /** Attempts started on it (previews excluded). */
  attempts: z.number().int(),
});
/** A version of an exam. */
export type ExamVersionView = z.infer<typeof ExamVersionView>;

/** GET /admin/exam/detail data: the draft, the versions and what the candidate side runs now. */
export const EditorExamDetail = z.object({
  /** Exam id. */
  id: z.number().int(),
  /** Where it stands. */
  status: ExamStatusField,
  /** The team that owns it. */
  team_id: z.number().int().nullable(),
  /** The editable draft. */
  draft: ExamDefinition,
  /** Revision of the draft; saving sends it back and a stale one is refused. */
  revision: z.number().int(),
  /** Published version id, null before the first publish. */
  published_version_id: z.number().int().nullable(),
  /** True when the draft differs from the published version (or nothing is published yet). */
  draft_changed: z.boolean(),
  /** What candidates see now: the closing time and length of the published exam, live changes included. */
  live: z
    .object({
      /** When the exam closes (epoch ms). */
      end_at: EpochMs,
      /** Length in minutes. */
      time_minutes: z.number().int(),
    })
    .nullable(),
  /** Published versions, newest first (previews left out). */
  versions: z.array(ExamVersionView),
  /** Who created it. */
  created_by: z.number().int().nullable(),
  /** When the draft last changed (epoch ms). */
  updated_at: EpochMs,
});
/** GET /admin/exam/detail data. */
export type EditorExamDetail = z.infer<typeof EditorExamDetail>;

/** POST /admin/exam/create body: a new exam with a default draft. */
export const CreateExamBody = z.object({
  /** Exam name. */
  name: z.string().trim().min(1, 'the exam needs a name').max(200),
  /** The owning team (admins only; an author's exams belong to their team). */
  team_id: Id.nullable().optional(),
});
/** POST /admin/exam/create body. */
export type CreateExamBody = z.input<typeof CreateExamBody>;

/** POST /admin/exam/save-draft body. */
export const SaveDraftBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The revision the editor started from; a stale one is refused with conflict. */
  revision: z.number().int().min(0),
  /** The whole draft. */
  draft: ExamDefinition,
});
/** POST /admin/exam/save-draft body. */
export type SaveDraftBody = z.input<typeof SaveDraftBody>;

/** POST /admin/exam/publish body. */
export const PublishBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The revision of the draft being published; a stale one is refused with conflict. */
  revision: z.number().int().min(0),
});
/** POST /admin/exam/publish body. */
export type PublishBody = z.input<typeof PublishBody>;

/** POST /admin/exam/publish data. */
export const PublishData = z.object({
  /** The new version. */
  version: ExamVersionView,
});
/** POST /admin/exam/publish data. */
export type PublishData = z.infer<typeof PublishData>;

/** Extra time of one invitation. */
export const ExtraTimeItem = z.object({
  /** The invitation. */
  anid: Id,
  /** Extra minutes (replacing the earlier value). */
  minutes: z.number().int().min(0).max(EXAM_MINUTES_MAX),
});

/**
 * POST /admin/exam/live-change body: what may change while an exam runs, each applied to the published exam
 * and to the running attempts' ends at once. Everything else needs a new version.
 */
export const LiveChangeBody = z
  .object({
    /** Exam id. */
    exam_id: Id,
    /** New closing time (epoch ms). */
    end_at: EpochMs.optional(),
    /** New length in minutes. */
    time_minutes: z.number().int().positive().max(EXAM_MINUTES_MAX).optional(),
    /** Extra time per invitation. */
    extra: z.array(ExtraTimeItem).max(1000).optional(),
  })
  .refine((b) => b.end_at !== undefined || b.time_minutes !== undefined || (b.extra?.length ?? 0) > 0, {
    message: 'change end_at, time_minutes or extra',
  });
/** POST /admin/exam/live-change body. */
export type LiveChangeBody = z.input<typeof LiveChangeBody>;

/** POST /admin/exam/live-change data. */
export const LiveChangeData = z.object({
  /** When the exam closes now (epoch ms). */
  end_at: EpochMs,
  /** Its length now, minutes. */
  time_minutes: z.number().int(),
  /** Running attempts whose end moved. */
  attempts_moved: z.number().int(),
});
/** POST /admin/exam/live-change data. */
export type LiveChangeData = z.infer<typeof LiveChangeData>;

/** POST /admin/exam/copy body. */
export const CopyExamBody = z.object({
  /** The exam copied. */
  exam_id: Id,
  /** Name of the copy; "<name> (copy)" when left out. */
  name: z.string().trim().min(1).max(200).optional(),
});
/** POST /admin/exam/copy body. */
export type CopyExamBody = z.input<typeof CopyExamBody>;

/** POST /admin/exam/archive body. */
export const ArchiveExamBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** true archives, false brings it back. */
  archived: z.boolean().default(true),
});
/** POST /admin/exam/archive body. */
export type ArchiveExamBody = z.input<typeof ArchiveExamBody>;

/** An exam id answered by create and copy. */
export const ExamIdData = z.object({
  /** Exam id. */
  exam_id: z.number().int(),
});
/** An exam id. */
export type ExamIdData = z.infer<typeof ExamIdData>;

/** POST /admin/exam/preview data: what opens the real candidate pages on a preview attempt. */
export const PreviewData = z.object({
  /** A candidate token of the staff member's preview candidate (the `auth` of candidate calls). */
  token: z.string(),
  /** The preview candidate's id (whose the browser's kept exam data is while the preview runs). */
  candidate_id: z.number().int(),
  /** When the token expires (epoch ms). */
  expires_at: EpochMs,
  /** Exam id. */
  exam_id: z.number().int(),
  /** The preview invitation. */
  anid: z.number().int(),
  /** The preview version frozen from the draft. */
  version_id: z.number().int(),
});
/** POST /admin/exam/preview data. */
export type PreviewData = z.infer<typeof PreviewData>;

/** GET /admin/exam/preview-keys query. */
export const PreviewKeysQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** A preview version of the exam. */
  version_id: IdParam,
});
/** GET /admin/exam/preview-keys query. */
export type PreviewKeysQuery = z.input<typeof PreviewKeysQuery>;

/** The key of one question of a preview version, by the question id the candidate pages show. */
export const PreviewKeyItem = z.object({
  /** Question id in the version (as the candidate pages have it). */
  subject_id: z.number().int(),
  /** The bank question it was copied from. */
  bank_question_id: z.number().int().nullable(),
  /** Question kind. */
  kind: z.string(),
  /** Points. */
  score: z.number(),
  /** The answer key as stored. */
  key: z.unknown(),
});
/** The key of one question of a preview version. */
export type PreviewKeyItem = z.infer<typeof PreviewKeyItem>;

/** GET /admin/exam/preview-keys data. */
export const PreviewKeysData = z.object({
  /** Keys of every question of the version. */
  list: z.array(PreviewKeyItem),
});
/** GET /admin/exam/preview-keys data. */
export type PreviewKeysData = z.infer<typeof PreviewKeysData>;

/** One phone to invite. */
export const InvitePhone = z
  .object({
    /** Mobile number without the calling code. */
    phone: PhoneField,
    /** Calling code, '86' by default. */
    area_code: AreaCodeField,
  })
  .refine((v) => isValidPhone(v.area_code, v.phone), { path: ['phone'], message: 'invalid phone number' });

/** POST /admin/exam/invite body: a few phones at a time (many at once: POST /admin/exam/invitations/bulk). */
export const InviteBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The phones. */
  phones: z.array(InvitePhone).min(1).max(100),
  /** Extra minutes of each. */
  extra_minutes: z.number().int().min(0).max(EXAM_MINUTES_MAX).default(0),
  /** Whether each new invitation gets its text (default yes). */
  send_sms: z.boolean().default(true),
});
/** POST /admin/exam/invite body. */
export type InviteBody = z.input<typeof InviteBody>;

/** POST /admin/exam/invite data. */
export const InviteData = z.object({
  /** One entry per phone, in the order sent. */
  list: z.array(
    z.object({
      /** The phone. */
      phone: z.string(),
      /** Calling code. */
      area_code: z.string(),
      /** The invitation id. */
      anid: z.number().int(),
      /** False when the phone was invited already. */
      created: z.boolean(),
    }),
  ),
});
/** POST /admin/exam/invite data. */
export type InviteData = z.infer<typeof InviteData>;

/** GET /admin/exam/versions data. */
export const ExamVersionsData = z.object({
  /** Published versions, newest first. */
  list: z.array(ExamVersionView),
});
/** GET /admin/exam/versions data. */
export type ExamVersionsData = z.infer<typeof ExamVersionsData>;
