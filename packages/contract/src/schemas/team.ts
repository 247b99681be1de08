import { z } from 'zod';
import { EXAM_STAFF_ROLES } from '../enums.js';
import { EpochMs, Id, IdParam } from './common.js';

/** A team's name. */
export const TeamNameField = z.string().trim().min(1).max(60);

/** A team as the console shows it. */
export const TeamView = z.object({
  /** Team id. */
  id: z.number().int(),
  /** Name, unique. */
  name: z.string(),
  /** When it was created (epoch ms). */
  created_at: EpochMs,
  /** How many staff accounts belong to it. */
  member_count: z.number().int(),
  /** How many exams belong to it. */
  exam_count: z.number().int(),
});
/** A team. */
export type TeamView = z.infer<typeof TeamView>;

/** GET /admin/teams data. */
export const TeamListData = z.object({
  /** Every team, by name. */
  list: z.array(TeamView),
});
/** GET /admin/teams data. */
export type TeamListData = z.infer<typeof TeamListData>;

/** POST /admin/teams body. */
export const CreateTeamBody = z.object({
  /** Name, unique. */
  name: TeamNameField,
});
/** POST /admin/teams body. */
export type CreateTeamBody = z.input<typeof CreateTeamBody>;

/** POST /admin/teams/update body: renames a team. */
export const UpdateTeamBody = z.object({
  /** Team id. */
  id: Id,
  /** New name, unique. */
  name: TeamNameField,
});
/** POST /admin/teams/update body. */
export type UpdateTeamBody = z.input<typeof UpdateTeamBody>;

/** The role an exam assignment gives: proctor or grader. */
export const ExamStaffRoleField = z.enum(EXAM_STAFF_ROLES);

/** GET /admin/exam-staff query. */
export const ExamStaffQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** GET /admin/exam-staff query. */
export type ExamStaffQuery = z.input<typeof ExamStaffQuery>;

/** POST /admin/exam-staff/assign and /unassign body. */
export const ExamStaffBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Staff account id; its role must be `role`. */
  staff_id: Id,
  /** What the account does on this exam. */
  role: ExamStaffRoleField,
});
/** POST /admin/exam-staff/assign and /unassign body. */
export type ExamStaffBody = z.input<typeof ExamStaffBody>;

/** A proctor or grader, as the assignment page lists them. */
export const ExamStaffMember = z.object({
  /** Staff account id. */
  staff_id: z.number().int(),
  /** Display name. */
  name: z.string(),
  /** Role of the assignment (for `assignable`: the account's role). */
  role: ExamStaffRoleField,
  /** True when the account is disabled. */
  disabled: z.boolean(),
});
/** A proctor or grader. */
export type ExamStaffMember = z.infer<typeof ExamStaffMember>;

/** One assignment of a proctor or grader to an exam. */
export const ExamStaffView = ExamStaffMember.extend({
  /** Exam id. */
  exam_id: z.number().int(),
  /** When it was made (epoch ms). */
  created_at: EpochMs,
});
/** One assignment. */
export type ExamStaffView = z.infer<typeof ExamStaffView>;

/** GET /admin/exam-staff data. */
export const ExamStaffListData = z.object({
  /** The exam's assignments, by role then name. */
  list: z.array(ExamStaffView),
  /** Proctors and graders the caller may assign (the exam's team; every one for an admin). */
  assignable: z.array(ExamStaffMember),
});
/** GET /admin/exam-staff data. */
export type ExamStaffListData = z.infer<typeof ExamStaffListData>;

/** An exam open now, on the console home. */
export const HomeOpenExam = z.object({
  /** Exam id. */
  id: z.number().int(),
  /** Name. */
  name: z.string(),
  /** When it opened (epoch ms). */
  start_at: EpochMs,
  /** When it closes (epoch ms). */
  end_at: EpochMs,
  /** Attempts in the exam phase now. */
  running: z.number().int(),
  /** Attempts created in all. */
  attempts: z.number().int(),
});
/** An exam open now. */
export type HomeOpenExam = z.infer<typeof HomeOpenExam>;

/** GET /admin/home data: what needs attention, within the exams the caller may see. */
export const HomeData = z.object({
  /** Published exams open now, closing soonest first. */
  open_exams: z.array(HomeOpenExam),
  /** Proctoring flags (risk events) nobody has confirmed or dismissed yet. */
  pending_flags: z.number().int(),
  /** Answers to manually scored questions (qa, programming_qa) of submitted attempts, waiting for a grader. */
  ungraded_answers: z.number().int(),
  /** The caller's own bank questions an exam's item analysis flagged for negative discrimination. */
  flagged_questions: z.number().int(),
  /** The server's time the counts were taken at (epoch ms). */
  server_time: EpochMs,
});
/** GET /admin/home data. */
export type HomeData = z.infer<typeof HomeData>;
