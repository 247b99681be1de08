/**
 * The texts invited candidates get. A template is plain text with placeholders in braces; the same rules check
 * a template as staff type it and render it on the server.
 */

/** The placeholders a template may use: the candidate's name, the exam's name, its window (server time), the link. */
export const SMS_TEMPLATE_FIELDS = ['name', 'exam', 'start', 'end', 'link'] as const;
/** One placeholder. */
export type SmsTemplateField = (typeof SMS_TEMPLATE_FIELDS)[number];

/** The longest template: a text of this many characters is still only a few SMS segments. */
export const SMS_TEMPLATE_MAX = 300;

/** The invitation text an exam sends unless its staff write their own. */
export const DEFAULT_INVITATION_TEMPLATE =
  '{name}您好，您受邀参加「{exam}」，考试时间 {start} 至 {end}（北京时间）。请用本手机号登录参加：{link}';
/** The reminder text an exam sends unless its staff write their own. */
export const DEFAULT_REMINDER_TEMPLATE =
  '{name}您好，「{exam}」将于 {start}（北京时间）开始，请提前准备好摄像头、麦克风和网络：{link}';
/** When reminders go out unless staff choose otherwise: a day and an hour before the window opens (minutes). */
export const DEFAULT_REMINDER_MINUTES: readonly number[] = [1440, 60];
/** At most this many reminders per exam. */
export const REMINDERS_MAX = 5;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** What is wrong with a template, as stable words: 'empty', 'too_long', 'unknown:<name>', 'no_link'. */
export function smsTemplateProblems(template: string): string[] {
  const problems: string[] = [];
  if (template.trim() === '') problems.push('empty');
  if (template.length > SMS_TEMPLATE_MAX) problems.push('too_long');
  const used = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
  for (const name of new Set(used))
    if (!(SMS_TEMPLATE_FIELDS as readonly string[]).includes(name)) problems.push(`unknown:${name}`);
  // Without the link the candidate cannot act on the text.
  if (!used.includes('link')) problems.push('no_link');
  return problems;
}

/** The text a template gives for these values (a placeholder without a value is left empty). */
export function renderSmsTemplate(template: string, values: Partial<Record<SmsTemplateField, string>>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => values[name as SmsTemplateField] ?? '');
}
