import type { Problem, Severity, Where } from './types.js';

type Params = Record<string, string | number>;
type Text = (p: Params) => string;

/** Default texts per problem code, English and Chinese; clients may translate by code and params instead. */
export const PROBLEM_TEXTS = {
  file_too_large: {
    en: (p) => `the file is ${p.bytes} bytes, over the limit of ${p.limit}`,
    zh: (p) => `文件有 ${p.bytes} 字节，超过上限 ${p.limit}`,
  },
  not_text: {
    en: () => 'this is not a text file (binary content)',
    zh: () => '这不是文本文件（含二进制内容）',
  },
  bad_encoding: {
    en: (p) => `unknown character encoding "${p.encoding}"`,
    zh: (p) => `无法识别的字符编码“${p.encoding}”`,
  },
  unknown_format: {
    en: () => 'the format of this file is not one we import (Excel, CSV, GIFT, Moodle XML, QTI, FPS, problem zip)',
    zh: () => '无法识别文件格式（支持 Excel、CSV、GIFT、Moodle XML、QTI、FPS、编程题压缩包）',
  },
  xml_malformed: {
    en: (p) => `the XML is malformed: ${p.detail}`,
    zh: (p) => `XML 格式错误：${p.detail}`,
  },
  xml_doctype: {
    en: () => 'a DOCTYPE or ENTITY declaration is refused (entities could expand or read other files)',
    zh: () => '不接受 DOCTYPE 或 ENTITY 声明（实体可能膨胀或读取其他文件）',
  },
  xml_unexpected_root: {
    en: (p) => `expected <${p.expected}> but the file starts with <${p.found}>`,
    zh: (p) => `应为 <${p.expected}>，但文件以 <${p.found}> 开头`,
  },
  zip_invalid: {
    en: (p) => `this is not a readable zip: ${p.detail}`,
    zh: (p) => `无法读取的 zip 文件：${p.detail}`,
  },
  zip_path_escape: {
    en: (p) => `the entry "${p.path}" points outside the package`,
    zh: (p) => `条目“${p.path}”指向压缩包之外`,
  },
  zip_bomb: {
    en: (p) => `the package unpacks to too much data (${p.detail})`,
    zh: (p) => `压缩包解压后过大（${p.detail}）`,
  },
  zip_too_many_entries: {
    en: (p) => `the package has ${p.count} entries, over the limit of ${p.limit}`,
    zh: (p) => `压缩包有 ${p.count} 个条目，超过上限 ${p.limit}`,
  },
  manifest_missing: {
    en: () => 'the package has no imsmanifest.xml',
    zh: () => '压缩包中没有 imsmanifest.xml',
  },
  manifest_file_missing: {
    en: (p) => `the manifest names "${p.href}", which is not in the package`,
    zh: (p) => `清单引用的“${p.href}”不在压缩包中`,
  },
  too_many_questions: {
    en: (p) => `more than ${p.limit} questions; the rest were not read`,
    zh: (p) => `题目超过 ${p.limit} 道，其余未读取`,
  },
  syntax: {
    en: (p) => `${p.detail}`,
    zh: (p) => `${p.detail_zh}`,
  },
  no_counterpart: {
    en: (p) => `${p.what} has no counterpart here; the question was not imported`,
    zh: (p) => `${p.what_zh}在本系统中没有对应题型，未导入该题`,
  },
  numeric_not_exact: {
    en: (p) =>
      `the numeric answer ${p.answer} accepts a range, which a fill-in blank cannot; the question was not imported`,
    zh: (p) => `数值答案 ${p.answer} 允许一个范围，填空题无法表示，未导入该题`,
  },
  invalid_question: {
    en: (p) => `the question does not fit its type: ${p.detail}`,
    zh: (p) => `题目不符合题型要求：${p.detail}`,
  },
  partial_credit_dropped: {
    en: (p) => `the answer "${p.answer}" earned ${p.fraction}% there; only full-credit answers are kept`,
    zh: (p) => `答案“${p.answer}”原得 ${p.fraction}% 分，只保留满分答案`,
  },
  weights_replaced: {
    en: () =>
      'answer weights are replaced by the platform rule (all right options: full points; some and no wrong one: half)',
    zh: () => '选项权重改用本系统规则（全对得满分，少选且无错选得一半）',
  },
  negative_weights_dropped: {
    en: () => 'negative weights became 0 points',
    zh: () => '负分权重按 0 分处理',
  },
  cloze_converted: {
    en: (p) => `an embedded-answers (cloze) question became a ${p.kind} question with ${p.count} part(s)`,
    zh: (p) => `完形（嵌入答案）题已转为${p.kind_zh}，共 ${p.count} 处`,
  },
  file_missing: {
    en: (p) => `the file "${p.name}" is not in the import; the link was left as it is`,
    zh: (p) => `导入内容中没有文件“${p.name}”，链接保持原样`,
  },
  unknown_question_type: {
    en: (p) => `unknown question type "${p.type}"`,
    zh: (p) => `未知题型“${p.type}”`,
  },
  metadata_dropped: {
    en: (p) => `the ${p.field} "${p.value}" was left out: ${p.detail}`,
    zh: (p) => `${p.field_zh}“${p.value}”未导入：${p.detail}`,
  },
  markup_dropped: {
    en: () => 'the text is not well-formed XHTML, so it was written as plain text',
    zh: () => '文本不是格式良好的 XHTML，已按纯文本写出',
  },
  not_exported: {
    en: (p) => `a ${p.kind} question cannot be written as ${p.format}: ${p.detail}`,
    zh: (p) => `${p.kind}题无法导出为 ${p.format}：${p.detail}`,
  },
  xlsx_invalid: {
    en: (p) => `this is not a readable Excel workbook: ${p.detail}`,
    zh: (p) => `无法读取的 Excel 工作簿：${p.detail}`,
  },
  sheet_no_header: {
    en: () => 'no header row: a sheet needs at least the columns 题型 (type) and 题干 (stem)',
    zh: () => '找不到表头：至少需要“题型”和“题干”两列',
  },
  sheet_too_many_rows: {
    en: (p) => `the sheet has ${p.count} rows, over the limit of ${p.limit}; nothing was read`,
    zh: (p) => `工作表有 ${p.count} 行，超过上限 ${p.limit}，未读取`,
  },
  cell_missing: {
    en: (p) => `${p.field} is empty`,
    zh: (p) => `${p.field_zh}为空`,
  },
  cell_invalid: {
    en: (p) => `${p.field} "${p.value}" is not valid: ${p.detail}`,
    zh: (p) => `${p.field_zh}“${p.value}”无效：${p.detail_zh}`,
  },
  answer_not_option: {
    en: (p) => `answer ${p.answer} is not among the options`,
    zh: (p) => `答案 ${p.answer} 不在选项中`,
  },
  blank_count: {
    en: (p) => `the stem has ${p.stem} blank(s) marked ___ but the answer gives ${p.answer}`,
    zh: (p) => `题干中有 ${p.stem} 个空（___），答案给出 ${p.answer} 个`,
  },
  kind_not_in_format: {
    en: (p) => `a ${p.kind} question cannot be carried by ${p.format}: ${p.detail}`,
    zh: (p) => `${p.kind_zh}无法用 ${p.format} 表示：${p.detail_zh}`,
  },
  too_many_cases: {
    en: (p) => `${p.count} ${p.what}, over the limit of ${p.limit}; the problem was not imported`,
    zh: (p) => `${p.what_zh}有 ${p.count} 个，超过上限 ${p.limit}，未导入该题`,
  },
  case_too_large: {
    en: (p) =>
      `the ${p.what} "${p.name}" has ${p.chars} characters, over the limit of ${p.limit}; the problem was not imported`,
    zh: (p) => `${p.what_zh}“${p.name}”有 ${p.chars} 个字符，超过上限 ${p.limit}，未导入该题`,
  },
  case_unpaired: {
    en: (p) => `"${p.name}" has no matching ${p.other}; the problem was not imported`,
    zh: (p) => `“${p.name}”没有对应的 ${p.other}，未导入该题`,
  },
  language_unknown: {
    en: (p) => `the language "${p.language}" is not one the judge runs; ${p.detail}`,
    zh: (p) => `评测机不支持语言“${p.language}”：${p.detail_zh}`,
  },
  limit_adjusted: {
    en: (p) => `the ${p.what} ${p.value} was brought within ${p.min} to ${p.max}: ${p.result}`,
    zh: (p) => `${p.what_zh} ${p.value} 超出 ${p.min} 至 ${p.max} 的范围，已改为 ${p.result}`,
  },
  package_file_missing: {
    en: (p) => `the package has no ${p.name}; the problem was not imported`,
    zh: (p) => `压缩包中没有 ${p.name}，未导入该题`,
  },
} satisfies Record<string, { en: Text; zh: Text }>;

/** A problem code. */
export type ProblemCode = keyof typeof PROBLEM_TEXTS;

/** "line 12, column 3" / "第 12 行，第 3 列" for a location; a sheet cell is "row 12, column C" / "第 12 行 C 列". */
export function placeOf(where: Where): { en: string; zh: string } {
  const parts: [string, string][] = [];
  if (where.file !== undefined) parts.push([where.file, `文件 ${where.file}`]);
  if (where.sheet !== undefined) parts.push([`sheet ${where.sheet}`, `工作表 ${where.sheet}`]);
  if (where.row !== undefined && where.col !== undefined)
    parts.push([`row ${where.row}, column ${where.col}`, `第 ${where.row} 行 ${where.col} 列`]);
  else if (where.row !== undefined) parts.push([`row ${where.row}`, `第 ${where.row} 行`]);
  else if (where.col !== undefined) parts.push([`column ${where.col}`, `${where.col} 列`]);
  if (where.line !== undefined) parts.push([`line ${where.line}`, `第 ${where.line} 行`]);
  if (where.column !== undefined) parts.push([`column ${where.column}`, `第 ${where.column} 列`]);
  if (where.element !== undefined) parts.push([where.element, where.element]);
  return { en: parts.map((p) => p[0]).join(', '), zh: parts.map((p) => p[1]).join('，') };
}

/** Builds a located problem with its default texts. */
export function problem(where: Where, code: ProblemCode, severity: Severity, params: Params = {}): Problem {
  const texts: { en: Text; zh: Text } = PROBLEM_TEXTS[code];
  const place = placeOf(where);
  const en = texts.en(params);
  const zh = texts.zh(params);
  return {
    where,
    code,
    params,
    severity,
    message: place.en ? `${place.en}: ${en}` : en,
    message_zh: place.zh ? `${place.zh}：${zh}` : zh,
  };
}

/** A syntax problem with its two texts. */
export function syntaxProblem(where: Where, en: string, zh: string): Problem {
  return problem(where, 'syntax', 'error', { detail: en, detail_zh: zh });
}

/** Thrown inside the package when a whole file is refused; importFile turns it into a refused result. */
export class Refusal extends Error {
  /** The problem that says why. */
  readonly problem: Problem;
  constructor(p: Problem) {
    super(p.message);
    this.problem = p;
  }
}

/** Refuses the whole file. */
export function refuse(where: Where, code: ProblemCode, params: Params = {}): never {
  throw new Refusal(problem(where, code, 'error', params));
}
