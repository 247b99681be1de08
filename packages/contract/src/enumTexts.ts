/**
 * One text per enumerated value, in both languages: roles, sections, audit actions and the kinds of object they
 * name, jobs' kinds and states, a result's outcome and grading state, programming languages. The console's options,
 * tags and tables and the server's exports read them here (API token scopes too), so a value shows the same words wherever it appears.
 * Each family is its own table (a page that needs one does not carry the others), typed by the enumeration it
 * names: a value added there and not here does not compile.
 */
import type { Section, SignInMethod, StaffRole } from './enums.js';
import { LANGUAGES, type LanguageId } from './languages.js';
import type { ApiTokenScope } from './schemas/integrations.js';
import type { JobKind, JobStateName } from './schemas/jobs.js';

/** The languages the texts are in (the web app's language codes). */
export type TextLanguage = 'zh-CN' | 'en-US';
/** One value's text in each language. */
export type Bilingual = Readonly<Record<TextLanguage, string>>;
/** A family's texts: one per value. */
export type EnumTexts<V extends string> = Readonly<Record<V, Bilingual>>;

const both = (zh: string, en: string): Bilingual => ({ 'zh-CN': zh, 'en-US': en });

/** A value's text in a language. */
export function enumText<V extends string>(texts: EnumTexts<V>, value: V, lang: TextLanguage): string {
  return texts[value][lang];
}

/**
 * A value's text when the value comes from outside the type (a stored row, an older server): the value itself is
 * never shown, `fallback` is (the family's word for "other").
 */
export function enumTextOf<V extends string>(
  texts: EnumTexts<V>,
  value: string,
  lang: TextLanguage,
  fallback: Bilingual,
): string {
  return Object.hasOwn(texts, value) ? texts[value as V][lang] : fallback[lang];
}

/** Options of a select over a family: the value and its text (a string, so the option's accessible name is it). */
export function enumOptions<V extends string>(
  texts: EnumTexts<V>,
  values: readonly V[],
  lang: TextLanguage,
): { value: V; label: string }[] {
  return values.map((value) => ({ value, label: texts[value][lang] }));
}

/** How a staff session was signed in to. */
export const SIGN_IN_METHOD_TEXTS: EnumTexts<SignInMethod> = {
  local: both('密码登录', 'Password'),
  oidc: both('单点登录（OpenID Connect）', 'Single sign-on (OpenID Connect)'),
  saml: both('单点登录（SAML）', 'Single sign-on (SAML)'),
};

/** Staff roles. */
export const ROLE_TEXTS: EnumTexts<StaffRole> = {
  admin: both('管理员', 'Admin'),
  author: both('出题人', 'Author'),
  proctor: both('监考官', 'Proctor'),
  grader: both('阅卷人', 'Grader'),
};

/** An exam's sections. */
export const SECTION_TEXTS: EnumTexts<Section> = {
  linetest: both('行测', 'Aptitude'),
  major: both('专业', 'Professional'),
  evaluation: both('测评', 'Evaluation'),
};

/** A section's score, as a column of the ranking and its export. */
export const SECTION_SCORE_TEXTS: EnumTexts<Section> = {
  linetest: both('行测得分', 'Aptitude score'),
  major: both('专业得分', 'Professional score'),
  evaluation: both('测评得分', 'Evaluation score'),
};

/** Kinds of job. */
export const JOB_KIND_TEXTS: EnumTexts<JobKind> = {
  bank_import: both('题目导入', 'Question import'),
  invitation_bulk: both('批量邀请', 'Bulk invitation'),
  candidate_import: both('考生导入', 'Candidate import'),
  code_similarity: both('代码相似度', 'Code similarity'),
  rescore: both('重新算分', 'Re-scoring'),
  results_export: both('成绩导出', 'Results export'),
  item_analysis: both('试题分析', 'Item analysis'),
};

/** Where a job is. */
export const JOB_STATE_TEXTS: EnumTexts<JobStateName> = {
  queued: both('排队中', 'Queued'),
  running: both('进行中', 'Running'),
  done: both('已完成', 'Done'),
  failed: both('失败', 'Failed'),
  cancelled: both('已取消', 'Cancelled'),
};

/** A finished attempt's outcome: passed, not passed, or not decided yet (no pass mark, or marks still to come). */
export const OUTCOME_TEXTS: EnumTexts<'passed' | 'failed' | 'undecided'> = {
  passed: both('通过', 'Passed'),
  failed: both('未通过', 'Not passed'),
  undecided: both('待定', 'Undecided'),
};

/** The outcome of a result's `passed` (null: undecided). */
export function outcomeOf(passed: boolean | null): keyof typeof OUTCOME_TEXTS {
  return passed === null ? 'undecided' : passed ? 'passed' : 'failed';
}

/** What an API token may do. */
export const API_TOKEN_SCOPE_TEXTS: EnumTexts<ApiTokenScope> = {
  'read-results': both('读取成绩', 'Read results'),
};

/** Whether every answer of an attempt is scored. */
export const GRADING_STATE_TEXTS: EnumTexts<'complete' | 'pending'> = {
  complete: both('已完成', 'Complete'),
  pending: both('待阅卷', 'Pending'),
};

/** Programming languages: their names, which are the same in both languages but for plain text. */
export const PROGRAMMING_LANGUAGE_TEXTS = Object.fromEntries(
  LANGUAGES.map((l) => [l.id, l.id === 'plaintext' ? both('纯文本', 'Plain text') : both(l.name, l.name)]),
) as EnumTexts<LanguageId>;

/** What the audit log records: every action a service writes (AuditService.record takes only these). */
export const AUDIT_ACTIONS = [
  'api_token.create',
  'api_token.revoke',
  'attempt.reopen',
  'bank.export_folder',
  'bank.export_questions',
  'bank.folder.create',
  'bank.folder.delete',
  'bank.folder.update',
  'bank.import',
  'bank.import.preview',
  'bank.question.create',
  'bank.question.delete',
  'bank.question.move',
  'bank.question.tag',
  'bank.question.untag',
  'bank.question.update',
  'bank.question.verify',
  'bank.upload.audio',
  'bank.upload.cases',
  'bank.upload.image',
  'candidate.create',
  'candidate.import',
  'candidate.import.preview',
  'candidate.update',
  'exam.archive',
  'exam.candidates_export',
  'exam.copy',
  'exam.create',
  'exam.export',
  'exam.invitations.accommodations',
  'exam.invitations.slot',
  'exam.invite',
  'exam.invite_bulk',
  'exam.invite_resend',
  'exam.invite_revoke',
  'exam.live_change',
  'exam.preview',
  'exam.publish',
  'exam.save_draft',
  'exam.slot.create',
  'exam.slot.delete',
  'exam.slot.update',
  'exam.slot_mode',
  'exam.sms_settings',
  'exam.unarchive',
  'exam_staff.assign',
  'exam_staff.unassign',
  'grading.assign',
  'grading.key',
  'grading.mark',
  'grading.reconcile',
  'grading.rescore',
  'grading.settings',
  'invitation.slot',
  'job.cancel',
  'proctor.decide',
  'proctor.end',
  'proctor.id_photo',
  'proctor.warn',
  'results.download',
  'results.export',
  'similarity.decide',
  'similarity.run',
  'staff.bootstrap',
  'staff.create',
  'staff.login',
  'staff.reset_password',
  'staff.session_end',
  'staff.sso_provision',
  'staff.totp_disable',
  'staff.totp_enable',
  'staff.totp_enrol',
  'staff.totp_reset',
  'staff.update',
  'sso.group.create',
  'sso.group.delete',
  'sso.group.update',
  'sso.settings',
  'team.create',
  'team.update',
  'webhook.create',
  'webhook.delete',
  'webhook.redeliver',
  'webhook.test',
  'webhook.update',
] as const;
/** An audit action. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Audit actions in words. */
export const AUDIT_ACTION_TEXTS: EnumTexts<AuditAction> = {
  'api_token.create': both('创建 API 令牌', 'Created an API token'),
  'api_token.revoke': both('吊销 API 令牌', 'Revoked an API token'),
  'attempt.reopen': both('重新开放答卷', 'Reopened an attempt'),
  'bank.export_folder': both('导出文件夹的题目', "Exported a folder's questions"),
  'bank.export_questions': both('导出题目', 'Exported questions'),
  'bank.folder.create': both('新建文件夹', 'Created a folder'),
  'bank.folder.delete': both('删除文件夹', 'Deleted a folder'),
  'bank.folder.update': both('修改文件夹', 'Changed a folder'),
  'bank.import': both('导入题目', 'Imported questions'),
  'bank.import.preview': both('预览题目导入', 'Previewed a question import'),
  'bank.question.create': both('新建题目', 'Created a question'),
  'bank.question.delete': both('删除题目', 'Deleted a question'),
  'bank.question.move': both('移动题目', 'Moved a question'),
  'bank.question.tag': both('给题目加标签', 'Tagged a question'),
  'bank.question.untag': both('去掉题目的标签', "Removed a question's tag"),
  'bank.question.update': both('修改题目', 'Changed a question'),
  'bank.question.verify': both('验证题目', 'Verified a question'),
  'bank.upload.audio': both('上传音频', 'Uploaded audio'),
  'bank.upload.cases': both('上传测试用例', 'Uploaded test cases'),
  'bank.upload.image': both('上传图片', 'Uploaded a picture'),
  'candidate.create': both('添加考生', 'Added a candidate'),
  'candidate.import': both('导入考生', 'Imported candidates'),
  'candidate.import.preview': both('预览考生导入', 'Previewed a candidate import'),
  'candidate.update': both('修改考生', 'Changed a candidate'),
  'exam.archive': both('归档考试', 'Archived an exam'),
  'exam.candidates_export': both('导出考试的考生', "Exported an exam's candidates"),
  'exam.copy': both('复制考试', 'Copied an exam'),
  'exam.create': both('新建考试', 'Created an exam'),
  'exam.export': both('导出考试', 'Exported an exam'),
  'exam.invitations.accommodations': both('设置考生照顾', 'Set accommodations'),
  'exam.invitations.slot': both('分配场次', 'Assigned slots'),
  'exam.invite': both('邀请考生', 'Invited candidates'),
  'exam.invite_bulk': both('批量邀请考生', 'Invited candidates in bulk'),
  'exam.invite_resend': both('重发邀请短信', 'Resent invitations'),
  'exam.invite_revoke': both('撤销邀请', 'Revoked invitations'),
  'exam.live_change': both('修改进行中的考试', 'Changed a running exam'),
  'exam.preview': both('预览考试', 'Previewed an exam'),
  'exam.publish': both('发布考试', 'Published an exam'),
  'exam.save_draft': both('保存考试草稿', 'Saved an exam draft'),
  'exam.slot.create': both('添加场次', 'Added a slot'),
  'exam.slot.delete': both('删除场次', 'Deleted a slot'),
  'exam.slot.update': both('修改场次', 'Changed a slot'),
  'exam.slot_mode': both('设置场次分配方式', 'Set who chooses slots'),
  'exam.sms_settings': both('修改短信设置', 'Changed text message settings'),
  'exam.unarchive': both('取消归档考试', 'Unarchived an exam'),
  'exam_staff.assign': both('指派考试人员', 'Assigned staff to an exam'),
  'exam_staff.unassign': both('取消指派考试人员', 'Removed staff from an exam'),
  'grading.assign': both('分配阅卷', 'Assigned grading'),
  'grading.key': both('修改答案', 'Corrected a key'),
  'grading.mark': both('评分', 'Marked an answer'),
  'grading.reconcile': both('仲裁评分', 'Reconciled marks'),
  'grading.rescore': both('重新算分', 'Re-scored'),
  'grading.settings': both('修改阅卷设置', 'Changed grading settings'),
  'invitation.slot': both('选择场次', 'Chose a slot'),
  'job.cancel': both('取消任务', 'Cancelled a job'),
  'proctor.decide': both('处理风险记录', 'Decided on a risk record'),
  'proctor.end': both('结束考生的考试', "Ended a candidate's exam"),
  'proctor.id_photo': both('设置证件照', 'Set an ID photo'),
  'proctor.warn': both('警告考生', 'Warned a candidate'),
  'results.download': both('下载成绩', 'Downloaded results'),
  'results.export': both('导出成绩', 'Exported results'),
  'similarity.decide': both('处理相似代码', 'Decided on similar code'),
  'similarity.run': both('检查代码相似度', 'Compared code'),
  'staff.bootstrap': both('创建首个管理员', 'Created the first admin'),
  'staff.create': both('新建账号', 'Created an account'),
  'staff.login': both('登录', 'Signed in'),
  'staff.reset_password': both('重置密码', 'Reset a password'),
  'staff.session_end': both('结束登录会话', 'Ended a session'),
  'staff.sso_provision': both('按单点登录的群组设置账号', 'Set an account from its single sign-on groups'),
  'staff.totp_disable': both('关闭两步验证', 'Turned off the second factor'),
  'staff.totp_enable': both('开启两步验证', 'Turned on the second factor'),
  'staff.totp_enrol': both('绑定两步验证', 'Enrolled a second factor'),
  'staff.totp_reset': both('重置两步验证', 'Reset a second factor'),
  'staff.update': both('修改账号', 'Changed an account'),
  'sso.group.create': both('添加单点登录群组映射', 'Added a single sign-on group mapping'),
  'sso.group.delete': both('删除单点登录群组映射', 'Removed a single sign-on group mapping'),
  'sso.group.update': both('修改单点登录群组映射', 'Changed a single sign-on group mapping'),
  'sso.settings': both('修改单点登录设置', 'Changed the single sign-on settings'),
  'team.create': both('新建团队', 'Created a team'),
  'team.update': both('修改团队', 'Changed a team'),
  'webhook.create': both('添加 Webhook', 'Added a webhook'),
  'webhook.delete': both('删除 Webhook', 'Deleted a webhook'),
  'webhook.redeliver': both('重新投递 Webhook', 'Redelivered a webhook'),
  'webhook.test': both('测试 Webhook', 'Tested a webhook'),
  'webhook.update': both('修改 Webhook', 'Changed a webhook'),
};

/** What an audit entry can be about. */
export const AUDIT_OBJECT_KINDS = [
  'api_token',
  'attempt',
  'candidate',
  'exam',
  'file',
  'folder',
  'invitation',
  'job',
  'question',
  'record',
  'similarity_pair',
  'slot',
  'sso_group',
  'sso_settings',
  'staff',
  'team',
  'webhook',
] as const;
/** The kind of object an audit entry is about. */
export type AuditObjectKind = (typeof AUDIT_OBJECT_KINDS)[number];

/** Kinds of audited object in words. */
export const AUDIT_OBJECT_TEXTS: EnumTexts<AuditObjectKind> = {
  api_token: both('API 令牌', 'API token'),
  attempt: both('答卷', 'Attempt'),
  candidate: both('考生', 'Candidate'),
  exam: both('考试', 'Exam'),
  file: both('文件', 'File'),
  folder: both('文件夹', 'Folder'),
  invitation: both('邀请', 'Invitation'),
  job: both('任务', 'Job'),
  question: both('题目', 'Question'),
  record: both('风险记录', 'Risk record'),
  similarity_pair: both('相似代码对', 'Similar pair'),
  slot: both('场次', 'Slot'),
  sso_group: both('单点登录群组映射', 'Single sign-on group mapping'),
  sso_settings: both('单点登录设置', 'Single sign-on settings'),
  staff: both('账号', 'Account'),
  team: both('团队', 'Team'),
  webhook: both('Webhook', 'Webhook'),
};

/** The word for a value the texts do not know (an action of a newer server, say). */
export const OTHER_TEXT: Bilingual = both('其他', 'Other');
