/** Ids the candidate client relies on; changing one breaks it (docs/contract.md#ids-and-enumerations). */

/** Question type ids, as candidates see them in `type` (docs/contract.md#question-types). */
export const QuestionType = {
  single: 1,
  multiple: 2,
  indefinite: 3,
  fillBlank: 4,
  qa: 5,
  programming: 6,
  trueFalse: 7,
  programmingQa: 8,
  reading: 9,
  listening: 10,
  gradient: 11,
} as const;
/** A question type id, 1 to 11. */
export type QuestionType = (typeof QuestionType)[keyof typeof QuestionType];
/** Every question type id, ascending. */
export const QUESTION_TYPES = Object.values(QuestionType) as QuestionType[];

/** Exam phases: device checks (monitor), answering (exam), submitted (docs/contract.md#exam-phases). */
export const ExamPhase = { monitor: 1, exam: 2, submit: 3 } as const;
/** An exam phase id. */
export type ExamPhase = (typeof ExamPhase)[keyof typeof ExamPhase];

/** Exam modes: practice (simulate), a timed exam, or one that runs to the window's end (longTime). */
export const ExamMode = { simulate: 0, exam: 1, longTime: 2 } as const;
/** An exam mode id. */
export type ExamMode = (typeof ExamMode)[keyof typeof ExamMode];

/** Answer events recorded while the candidate moves through the exam (`event` of /answer/answer). */
export const AnswerEvent = { prevAndNext: 1, goto: 2, submit: 3, leave: 4, enter: 5 } as const;
/** An answer event id. */
export type AnswerEvent = (typeof AnswerEvent)[keyof typeof AnswerEvent];

/** Exam sections: aptitude (linetest), professional (major) and personality (evaluation). */
export const SECTIONS = ['linetest', 'major', 'evaluation'] as const;
/** A section kind. */
export type Section = (typeof SECTIONS)[number];

/**
 * Monitor check steps in check order; ids run from -5 to -1 in that same order. Each step but the signature has
 * a flag that lets the candidate skip it (recorded as its skip risk) and one that removes it from the exam.
 */
export const MONITOR_STEPS = [
  { id: -5, key: 'camera', skipFlag: 'is_skip_camera', closeFlag: 'is_close_camera', skipRisk: 15 },
  { id: -4, key: 'microphone', skipFlag: 'is_skip_microphone', closeFlag: 'is_close_microphone', skipRisk: 16 },
  { id: -3, key: 'screenSharing', skipFlag: 'is_skip_screen', closeFlag: 'is_close_screen', skipRisk: 17 },
  { id: -2, key: 'mobileDevice', skipFlag: 'is_skip_phone', closeFlag: 'is_close_phone', skipRisk: 18 },
  { id: -1, key: 'signature', skipFlag: null, closeFlag: null, skipRisk: null },
] as const;
/** A monitor step key. */
export type MonitorStepKey = (typeof MONITOR_STEPS)[number]['key'];

/** Risk event categories, the `type` of an event and the `category` of its record. */
export const RiskCategory = { normal: 0, behaviour: 1, device: 2, skip: 3 } as const;
/** A risk category id. */
export type RiskCategory = (typeof RiskCategory)[keyof typeof RiskCategory];

/** Risk events with their id and category (docs/contract.md#risk-events). */
export const RISK_EVENTS = {
  normal: { id: 0, type: 0 },
  screenSwitch: { id: 1, type: 1 },
  cancelFullscreen: { id: 3, type: 1 },
  offline: { id: 10, type: 1 },
  networkUnstable: { id: 20, type: 1 },
  changePhoneNumber: { id: 21, type: 1 },
  copyPasteOutside: { id: 4, type: 2 },
  firstCameraAbnormal: { id: 11, type: 2 },
  secondCameraAbnormal: { id: 12, type: 2 },
  microphoneAbnormal: { id: 13, type: 2 },
  screenSharingAbnormal: { id: 14, type: 2 },
  phoneUse: { id: 7, type: 2 },
  browserTranslate: { id: 19, type: 2 },
  skipCamera: { id: 15, type: 3 },
  skipMicrophone: { id: 16, type: 3 },
  skipScreen: { id: 17, type: 3 },
  skipSecondCamera: { id: 18, type: 3 },
  // Ours, after the specification's catalogue.
  /** A second screen is connected (an extended desktop) where the exam forbids one. */
  secondScreen: { id: 22, type: 2 },
  /** Signs of a virtual machine or a remote desktop (the graphics adapter, the screen's or the camera's shape). */
  virtualMachine: { id: 23, type: 2 },
} as const satisfies Record<string, { id: number; type: RiskCategory }>;
/** A risk event key. */
export type RiskEventKey = keyof typeof RISK_EVENTS;
/** A risk event id. */
export type RiskEventId = (typeof RISK_EVENTS)[RiskEventKey]['id'];
/** Every risk event id. */
export const RISK_EVENT_IDS = Object.values(RISK_EVENTS).map((e) => e.id) as RiskEventId[];

/** The category of a risk event id. */
export function riskCategoryOf(id: RiskEventId): RiskCategory {
  const found = Object.values(RISK_EVENTS).find((e) => e.id === id);
  return (found?.type ?? 0) as RiskCategory;
}

/** Staff roles of the console. */
export const STAFF_ROLES = ['admin', 'author', 'proctor', 'grader'] as const;

/**
 * How a staff session was signed in to: `local`, the account's own password (and second factor where it has one);
 * `oidc` and `saml`, the company's identity provider (single sign-on, OpenID Connect or SAML 2.0).
 */
export const SIGN_IN_METHODS = ['local', 'oidc', 'saml'] as const;
/** The sign-in methods of an identity provider (single sign-on). */
export const SSO_METHODS = ['oidc', 'saml'] as const;
/** A single sign-on method. */
export type SsoMethod = (typeof SSO_METHODS)[number];
/** A sign-in method. */
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
/** A staff role. */
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Permissions a staff route may require. */
export const PERMISSIONS = [
  'staff.read',
  'staff.manage',
  'exam.read',
  'exam.manage',
  'proctor.watch',
  'proctor.decide',
  'grade.read',
  'grade.score',
  'audit.read',
  'system.manage',
  'bank.read',
  'bank.manage',
  'team.manage',
  'job.read',
  'candidate.read',
  'candidate.manage',
] as const;
/** A permission name. */
export type Permission = (typeof PERMISSIONS)[number];

/** What each role may do; admin may do everything. */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  admin: PERMISSIONS,
  author: [
    'exam.read',
    'exam.manage',
    'grade.read',
    'bank.read',
    'bank.manage',
    'job.read',
    'candidate.read',
    'candidate.manage',
  ],
  proctor: ['exam.read', 'proctor.watch', 'proctor.decide', 'job.read', 'candidate.read'],
  grader: ['exam.read', 'grade.read', 'grade.score', 'job.read'],
};

/** Kinds of resource a staff call may act on, each checked by id against the caller's team or assignments. */
export const RESOURCE_KINDS = [
  'exam',
  'folder',
  'question',
  'attempt',
  'record',
  'staff',
  'team',
  'job',
  'candidate',
  'invitation',
  'slot',
  'version',
  'pair',
  'exam_question',
] as const;
/**
 * A resource kind. 'record' is a risk record, 'invitation' an exam's invitation, 'slot' a slot of its schedule,
 * 'version' a published version of it, 'pair' a pair of its code-similarity run and 'exam_question' a question frozen in
 * one of its versions (not a bank question): each belongs to its exam.
 */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Kinds whose resources belong to an exam: reached through the exam's team or an assignment to it. */
export const EXAM_BOUND_KINDS: readonly ResourceKind[] = [
  'exam',
  'attempt',
  'record',
  'invitation',
  'slot',
  'version',
  'pair',
  'exam_question',
];

/** Roles that work on the exams they are assigned to (table exam_staff). */
export const EXAM_STAFF_ROLES = ['proctor', 'grader'] as const;
/** A role an exam assignment gives. */
export type ExamStaffRole = (typeof EXAM_STAFF_ROLES)[number];

/** True when a role holds a permission. */
export function roleHas(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
