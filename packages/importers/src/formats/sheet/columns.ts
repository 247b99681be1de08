/** The columns and cell values of question sheets (xlsx and CSV): Chinese platforms' headers and ours. */
import { QUESTION_KINDS, QUESTION_REGISTRY, type QuestionKind } from '@examhall/contract';

/** A column a sheet may have, by its job. */
export type Field =
  | 'number'
  | 'type'
  | 'title'
  | 'stem'
  | 'option'
  | 'correct'
  | 'option_points'
  | 'answer'
  | 'explanation'
  | 'feedback'
  | 'points'
  | 'difficulty'
  | 'knowledge'
  | 'tags'
  | 'folder'
  | 'dimension'
  | 'languages';

/** Each field's names in messages, English and Chinese (the Chinese one is the header we write). */
export const FIELD_NAMES: Record<Field, { en: string; zh: string }> = {
  number: { en: 'question number', zh: '题号' },
  type: { en: 'type', zh: '题型' },
  title: { en: 'title', zh: '标题' },
  stem: { en: 'stem', zh: '题干' },
  option: { en: 'option', zh: '选项' },
  correct: { en: 'correct', zh: '是否正确' },
  option_points: { en: 'option points', zh: '选项分值' },
  answer: { en: 'answer', zh: '答案' },
  explanation: { en: 'explanation', zh: '解析' },
  feedback: { en: 'option feedback', zh: '选项反馈' },
  points: { en: 'points', zh: '分值' },
  difficulty: { en: 'difficulty', zh: '难度' },
  knowledge: { en: 'knowledge points', zh: '知识点' },
  tags: { en: 'tags', zh: '标签' },
  folder: { en: 'folder', zh: '文件夹' },
  dimension: { en: 'dimension', zh: '维度' },
  languages: { en: 'languages', zh: '编程语言' },
};

/** Header texts (normalised by normalHeader) per field; the common variants of Chinese platforms and English. */
const HEADERS: Record<Field, string[]> = {
  number: ['题号', '题目编号', '试题编号', '序号', 'no', 'no.', 'number', 'questionnumber'],
  type: ['题型', '题目类型', '试题类型', '类型', 'type', 'questiontype', 'kind'],
  title: ['标题', '题目名称', '名称', 'title', 'name'],
  stem: ['题干', '题目', '题目内容', '试题内容', '试题题干', '内容', '问题', 'stem', 'questiontext', 'text'],
  option: ['选项', '选项内容', 'option', 'choice'],
  correct: ['是否正确', '是否答案', '正确', '是否为正确答案', 'correct', 'iscorrect', 'right'],
  option_points: ['选项分值', '选项分数', '选项得分', 'optionpoints', 'optionscore', 'weight'],
  answer: ['答案', '正确答案', '参考答案', '标准答案', 'answer', 'key', 'correctanswer'],
  explanation: ['解析', '答案解析', '试题解析', '题目解析', 'explanation', 'feedback', 'analysis'],
  feedback: ['选项反馈', '选项解析', '反馈', 'optionfeedback', 'choicefeedback', 'answerfeedback'],
  points: ['分值', '分数', '题目分值', '得分', 'points', 'score', 'mark', 'marks'],
  difficulty: ['难度', '难易度', '难易程度', '难度等级', 'difficulty', 'level'],
  knowledge: ['知识点', 'knowledgepoints', 'knowledgepoint', 'knowledge'],
  tags: ['标签', '知识点/标签', '标签/知识点', '关键词', 'tags', 'tag', 'labels'],
  folder: ['文件夹', '分类', '题目分类', '试题分类', '目录', '章节', 'folder', 'category'],
  dimension: ['维度', '测评维度', 'dimension'],
  languages: ['编程语言', '语言', 'languages', 'language'],
};

/** A header cell brought to one form: no spaces, marks of required columns or notes in brackets, lower case. */
export function normalHeader(text: string): string {
  return text
    .replace(/[（(][^）)]*[）)]/g, '')
    .replace(/[\s*＊:：]/g, '')
    .toLowerCase();
}

/** What a header cell names: a field, an option letter's column, or nothing we read. */
export type Header = { field: Exclude<Field, 'option'> } | { field: 'option'; letter?: string };

const BY_HEADER = new Map<string, Field>();
for (const [field, names] of Object.entries(HEADERS) as [Field, string[]][])
  for (const n of names) if (!BY_HEADER.has(n)) BY_HEADER.set(n, field);

/** The field a header names; `选项A`, `A选项`, `Option A` are option columns of the one-row layout. */
export function headerOf(text: string): Header | null {
  const h = normalHeader(text);
  const letter = /^(?:选项|option|choice)([a-h])$/.exec(h)?.[1] ?? /^([a-h])选项$/.exec(h)?.[1];
  if (letter) return { field: 'option', letter: letter.toUpperCase() };
  const field = BY_HEADER.get(h);
  if (!field) return null;
  return field === 'option' ? { field } : { field };
}

/**
 * Names of each kind in the 题型 column (normalised by normalType), ours first. A kind left out is named as the
 * contract names it (see contractNames).
 */
const TYPE_NAMES: Partial<Record<QuestionKind, string[]>> = {
  single: ['单选题', '单选', '单项选择题', '单项选择', '单择题', 'single', 'singlechoice', '1'],
  multiple: ['多选题', '多选', '多项选择题', '多项选择', 'multiple', 'multiplechoice', '2'],
  indefinite: ['不定项选择题', '不定项', '不定项选择', '不定项题', 'indefinite', 'indefinitechoice', '3'],
  fill_blank: ['填空题', '填空', 'fillblank', 'fillintheblank', 'blank', '4'],
  qa: ['问答题', '问答', '简答题', '简答', '主观题', '论述题', 'qa', 'essay', 'shortanswer', '5'],
  programming: ['编程题', '编程', '程序设计题', 'programming', 'code', '6'],
  true_false: ['判断题', '判断', '是非题', 'truefalse', 'trueorfalse', 'judge', '7'],
  programming_qa: ['编程问答题', '编程问答', 'programmingqa', '8'],
  reading: ['阅读理解', '阅读理解题', '阅读', '阅读题', 'reading', '9'],
  listening: ['听力题', '听力', 'listening', '10'],
  gradient: ['梯度题', '梯度', '梯度选择题', 'gradient', '11'],
  evaluation: ['测评题', '测评', '评价题', '性格测评', 'evaluation'],
};

const normalType = (text: string) => text.replace(/[\s_\-/]/g, '').toLowerCase();

/** The names of a kind TYPE_NAMES leaves out: its Chinese label (the one we write), English label, name and type id. */
const contractNames = (kind: QuestionKind): string[] => {
  const spec = QUESTION_REGISTRY[kind];
  return [spec.label['zh-CN'], spec.label['en-US'], kind, String(spec.type)];
};

/** A kind's names in the 题型 column, the one we write first. */
const namesOf = (kind: QuestionKind): string[] => TYPE_NAMES[kind] ?? contractNames(kind);

const BY_TYPE = new Map<string, QuestionKind>();
for (const [kind, names] of Object.entries(TYPE_NAMES) as [QuestionKind, string[]][])
  for (const n of names) BY_TYPE.set(normalType(n), kind);
// The contract's names of a kind left out, where no listed kind uses them already.
for (const kind of QUESTION_KINDS)
  if (!TYPE_NAMES[kind])
    for (const n of contractNames(kind)) if (!BY_TYPE.has(normalType(n))) BY_TYPE.set(normalType(n), kind);

/** The kind a 题型 cell names, or null. */
export function kindOf(text: string): QuestionKind | null {
  return BY_TYPE.get(normalType(text)) ?? null;
}

/** The 题型 value we write for a kind (and offer in the template's dropdown). */
export const typeName = (kind: QuestionKind): string => namesOf(kind)[0]!;

/** Every 题型 value we write, in the contract's order. */
export const TYPE_VALUES = QUESTION_KINDS.map(typeName);

/** Difficulty words, 1 (easy) to 5 (hard); the first of each is what we write. */
const DIFFICULTY_NAMES: string[][] = [
  ['简单', '容易', '易', 'easy', 'veryeasy'],
  ['较易', '较简单', '偏易', 'fairlyeasy'],
  ['中等', '一般', '适中', '中', 'medium', 'normal'],
  ['较难', '偏难', 'fairlyhard'],
  ['困难', '难', '很难', 'hard', 'veryhard'],
];

/** The difficulty words we write, 1 to 5. */
export const DIFFICULTY_VALUES = DIFFICULTY_NAMES.map((n) => n[0]!);

/** A 难度 cell as 1 to 5 (a number or a word), or null when it is neither. */
export function difficultyOf(text: string): number | null {
  const t = normalType(text);
  if (/^[1-5]$/.test(t)) return Number(t);
  const i = DIFFICULTY_NAMES.findIndex((names) => names.includes(t));
  return i >= 0 ? i + 1 : null;
}

/** Words a true/false answer or a 是否正确 cell may use. */
const TRUE_WORDS = ['正确', '对', '是', '√', '✓', 'true', 't', 'yes', 'y', '1'];
const FALSE_WORDS = ['错误', '错', '否', '×', '✗', 'x', 'false', 'f', 'no', 'n', '0'];

/** A yes/no cell as a boolean, or null when it is neither. */
export function truthOf(text: string): boolean | null {
  const t = normalType(text);
  if (TRUE_WORDS.includes(t)) return true;
  if (FALSE_WORDS.includes(t)) return false;
  return null;
}

/** Column letter of a 0-based column index (A, B, …, Z, AA, …). */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Separates a fill-in question's blanks in the 答案 cell (full-width too). */
export const BLANK_SEPARATOR = ';';
/** Separates one blank's accepted answers (full-width too). */
export const VARIANT_SEPARATOR = '|';
/** Separates tags, knowledge points and languages in a cell. */
export const LIST_SEPARATOR = ',';
/** Separates folder names in the 文件夹 cell, outermost first. */
export const FOLDER_SEPARATOR = '/';
