/**
 * The audit diff's field paths in words: each key of a snapshot by its name in the page's language, an index by
 * its position ("#2"), so `mark.grader_id` reads "评分 › 阅卷人". A key not listed here is shown as written, in
 * code type (fields.test.ts holds the keys the audited calls write to this table).
 */
import type { Bilingual, TextLanguage } from '@examhall/contract';

const both = (zh: string, en: string): Bilingual => ({ 'zh-CN': zh, 'en-US': en });

/** Snapshot keys in words. */
export const FIELD_TEXTS: Readonly<Record<string, Bilingual>> = {
  anids: both('邀请编号', 'Invitation ids'),
  answer_id: both('作答', 'Answer'),
  area_code: both('区号', 'Area code'),
  attempt_id: both('答卷', 'Attempt'),
  attempts: both('答卷', 'Attempts'),
  blind: both('匿名阅卷', 'Blind marking'),
  cancel_requested: both('已请求取消', 'Cancel requested'),
  candidate_note: both('考生备注', 'Note to the candidate'),
  candidates: both('考生', 'Candidates'),
  capacity: both('名额', 'Seats'),
  cases: both('测试用例', 'Test cases'),
  comment: both('评语', 'Comment'),
  content: both('内容', 'Content'),
  copied_from: both('复制自', 'Copied from'),
  create: both('新建', 'Created'),
  created_at: both('创建时间', 'Created at'),
  decided_at: both('处理时间', 'Decided at'),
  decided_by: both('处理人', 'Decided by'),
  decision: both('处理结果', 'Decision'),
  decision_note: both('处理说明', 'Decision note'),
  delivery_id: both('投递', 'Delivery'),
  description: both('说明', 'Description'),
  difficulty: both('难度', 'Difficulty'),
  disabled: both('已停用', 'Disabled'),
  double_marking: both('双评', 'Double marking'),
  draft: both('草稿', 'Draft'),
  duration_s: both('时长（秒）', 'Duration (s)'),
  enabled: both('已启用', 'Enabled'),
  end_at: both('结束时间', 'Ends at'),
  event: both('事件', 'Event'),
  exam_id: both('考试', 'Exam'),
  extra_minutes: both('延长分钟数', 'Extra minutes'),
  extra_mode: both('延时方式', 'Extra time'),
  file_name: both('文件名', 'File name'),
  filter: both('筛选条件', 'Filter'),
  finish_note: both('结束说明', 'Note on ending'),
  finish_reason: both('结束原因', 'Reason for ending'),
  finished_at: both('交卷时间', 'Finished at'),
  folder_id: both('文件夹', 'Folder'),
  format: both('格式', 'Format'),
  grader_id: both('阅卷人', 'Grader'),
  id: both('编号', 'Id'),
  id_photo_key: both('证件照', 'ID photo'),
  id_photo_required: both('须上传证件照', 'ID photo required'),
  invitation_template: both('邀请短信模板', 'Invitation text'),
  invitations: both('邀请', 'Invitations'),
  invited: both('已邀请', 'Invited'),
  ip: both('登录地址', 'Address'),
  items: both('题目', 'Questions'),
  job_id: both('任务', 'Job'),
  key: both('答案', 'Key'),
  kind: both('类型', 'Kind'),
  label: both('名称', 'Name'),
  margin: both('分差阈值', 'Margin'),
  mark: both('评分', 'Mark'),
  marked_at: both('评分时间', 'Marked at'),
  method: both('登录方式', 'Sign-in method'),
  mime: both('文件类型', 'File type'),
  minutes: both('分钟', 'Minutes'),
  mode: both('模式', 'Mode'),
  name: both('名称', 'Name'),
  note: both('备注', 'Note'),
  number: both('数量', 'Number'),
  ok: both('成功', 'Succeeded'),
  option: both('选项', 'Option'),
  options: both('选项', 'Options'),
  parent_id: both('上级文件夹', 'Parent folder'),
  phase: both('阶段', 'Phase'),
  pledge: both('考试承诺', 'Pledge'),
  positions: both('岗位', 'Positions'),
  phone: both('手机号', 'Phone'),
  phones: both('手机号', 'Phones'),
  points: both('分数', 'Points'),
  published_version_id: both('发布的版本', 'Published version'),
  question_id: both('题目', 'Question'),
  questions: both('题目', 'Questions'),
  reason: both('原因', 'Reason'),
  reconciling: both('仲裁中', 'Reconciling'),
  reminder_minutes: both('提醒时间（分钟）', 'Reminder (minutes)'),
  revision: both('修订号', 'Revision'),
  revoked: both('已撤销', 'Revoked'),
  role: both('角色', 'Role'),
  rows: both('行数', 'Rows'),
  rubric: both('评分标准', 'Rubric'),
  school: both('学校', 'School'),
  scope: both('范围', 'Scope'),
  score: both('得分', 'Score'),
  sections: both('部分', 'Sections'),
  send_sms: both('发送短信', 'Send texts'),
  session: both('登录会话', 'Session'),
  settings: both('设置', 'Settings'),
  show_score: both('向考生显示成绩', 'Score shown to candidates'),
  shuffle_options: both('打乱选项', 'Shuffle options'),
  shuffle_questions: both('打乱题目', 'Shuffle questions'),
  skipped: both('跳过', 'Skipped'),
  slot_id: both('场次', 'Slot'),
  slot_mode: both('场次分配方式', 'Who sets the slot'),
  staff_id: both('工作人员', 'Staff member'),
  start_at: both('开始时间', 'Starts at'),
  state: both('状态', 'State'),
  status: both('状态', 'Status'),
  stem: both('题干', 'Stem'),
  tags: both('标签', 'Tags'),
  taken: both('已占用', 'Taken'),
  team_id: both('团队', 'Team'),
  text: both('文本', 'Text'),
  time_minutes: both('考试时长（分钟）', 'Length (minutes)'),
  title: both('标题', 'Title'),
  total: both('总数', 'Total'),
  totp_enabled: both('两步验证', 'Second factor'),
  updated_at: both('修改时间', 'Changed at'),
  url: both('地址', 'URL'),
  user_agent: both('浏览器', 'Browser'),
  verdict: both('结论', 'Verdict'),
  version_id: both('版本', 'Version'),
  window_start: both('开放时间', 'Window opens'),
};

/** One part of a field path: its words, and whether they are a name (false: a key shown as written). */
export interface FieldPart {
  text: string;
  named: boolean;
}

/** A field path's parts in words: a key by its name, with its positions ("#2"). */
export function fieldPathParts(path: string, lang: TextLanguage): FieldPart[] {
  return path.split('.').map((part) => {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    const key = m?.[1] ?? part;
    const indexes = [...(m?.[2] ?? '').matchAll(/\[(\d+)\]/g)].map((x) => `#${Number(x[1]) + 1}`);
    const named = key === '' || Object.hasOwn(FIELD_TEXTS, key);
    const name = key === '' ? [] : [named ? FIELD_TEXTS[key]![lang] : key];
    return { text: [...name, ...indexes].join(' '), named };
  });
}

/** A field path (`mark.grader_id`, `sections[1].title`) in words, its parts joined by "›". */
export function fieldPathText(path: string, lang: TextLanguage): string {
  return fieldPathParts(path, lang)
    .map((p) => p.text)
    .join(' › ');
}

/** True for a field that holds a time (epoch ms): its key ends in `_at`, or is `time`. */
export function isTimeField(path: string): boolean {
  const last =
    path
      .split('.')
      .at(-1)
      ?.replace(/\[\d+\]$/, '') ?? '';
  return last.endsWith('_at') || last === 'time';
}
