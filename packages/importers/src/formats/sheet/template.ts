/** What the downloadable template holds: one worked example per kind and the instructions, in Chinese with English. */
import { typeName } from './columns.js';
import { COLUMNS } from './write.js';

type Example = {
  kind: Parameters<typeof typeName>[0];
  stem: string;
  options?: string[];
  answer?: string;
  explanation?: string;
  feedback?: string;
  points?: string;
  difficulty?: string;
  knowledge?: string;
  tags?: string;
  folder?: string;
  dimension?: string;
  languages?: string;
  title?: string;
};

/** An example as a row of the questions sheet. */
function row(e: Example): string[] {
  return COLUMNS.map((c) => {
    if (c.field === 'option') return e.options?.['ABCDEFGH'.indexOf(c.letter)] ?? '';
    if (c.field === 'type') return typeName(e.kind);
    return (e as unknown as Record<string, string | undefined>)[c.field] ?? '';
  });
}

/** The worked examples, one per kind (programming, reading and listening say where they belong instead). */
export const TEMPLATE_EXAMPLES: string[][] = [
  {
    kind: 'single',
    stem: '中国的首都是哪座城市？ Which city is the capital of China?',
    options: ['上海 Shanghai', '北京 Beijing', '广州 Guangzhou', '深圳 Shenzhen'],
    answer: 'B',
    explanation: '北京是中国的首都。',
    feedback: 'A: 上海是中国最大的城市，但不是首都。\nC: 广州是广东省的省会。',
    points: '2',
    difficulty: '简单',
    knowledge: '地理',
    tags: '常识,示例',
    folder: '示例/基础',
  },
  {
    kind: 'multiple',
    stem: '下列哪些是质数？ Which are primes?',
    options: ['2', '4', '5', '9'],
    answer: 'AC',
    explanation: '2 和 5 是质数；多选题少选得一半分，错选不得分。',
    points: '4',
    difficulty: '较易',
    knowledge: '数学',
    folder: '示例/基础',
  },
  {
    kind: 'indefinite',
    stem: '下列哪些语言是静态类型的？（可能只有一个） Which are statically typed (maybe only one)?',
    options: ['Python', 'Java', 'JavaScript'],
    answer: 'B',
    points: '3',
    difficulty: '中等',
    folder: '示例/基础',
  },
  {
    kind: 'fill_blank',
    stem: '中国的首都是 ___，最大的城市是 ___。 (Fill in the capital and the largest city.)',
    answer: '北京|Beijing;上海|Shanghai',
    explanation: '每个空用 ___ 标出；答案中各空用 ; 分隔，同一空的多个可接受答案用 | 分隔。',
    points: '4',
    difficulty: '简单',
    folder: '示例/基础',
  },
  {
    kind: 'qa',
    stem: '请介绍一个你做过的项目。 Describe a project you worked on.',
    answer: '评分标准：目标清楚 3 分，个人贡献 4 分，反思 3 分。',
    points: '10',
    difficulty: '中等',
    folder: '示例/主观',
  },
  {
    kind: 'programming',
    stem: '编程题请用 FPS XML 或编程题压缩包导入；导入此行会提示这一点。 Import programming problems as FPS or a problem zip.',
  },
  {
    kind: 'true_false',
    stem: '地球绕太阳公转。 The Earth orbits the Sun.',
    answer: '正确',
    points: '1',
    difficulty: '简单',
    folder: '示例/基础',
  },
  {
    kind: 'programming_qa',
    stem: '用你熟悉的语言写出快速排序，并说明其时间复杂度。 Write quicksort and state its complexity.',
    answer: '实现正确 6 分，复杂度分析 4 分。',
    languages: 'cpp,java,python',
    points: '10',
    difficulty: '较难',
    folder: '示例/编程',
  },
  {
    kind: 'reading',
    stem: '阅读理解（材料加小题）无法放进一行；请用 Moodle XML、QTI 或控制台。 Reading questions do not fit in a row.',
  },
  {
    kind: 'listening',
    stem: '听力题（音频加小题）无法放进一行；请在控制台中编写。 Listening questions do not fit in a row.',
  },
  {
    kind: 'gradient',
    stem: '客户投诉时，你首先会怎么做？ A customer complains. What do you do first?',
    options: ['倾听并记录', '立即转交主管', '解释公司规定'],
    answer: 'A=10;B=6;C=2',
    explanation: '梯度题每个选项有各自的分值，按 A=10;B=6 的格式填写。',
    points: '10',
    difficulty: '中等',
    folder: '示例/情景',
  },
  {
    kind: 'evaluation',
    stem: '我喜欢和团队一起解决问题。 I like solving problems with a team.',
    options: ['非常同意', '同意', '一般', '不同意', '非常不同意'],
    answer: 'A=5;B=4;C=3;D=2;E=1',
    dimension: '团队合作',
    folder: '示例/测评',
  },
].map((e) => row(e as Example));

/** Lines of the instructions sheet: [topic, 中文, English]. */
export const TEMPLATE_INSTRUCTIONS: { cells: string[]; heading?: boolean }[] = [
  { cells: ['填写说明', '中文', 'English'], heading: true },
  {
    cells: [
      '总则',
      '在“题目”工作表中每行一道题；第一行是表头，请勿修改。示例行可删除。',
      'One question per row on the questions sheet; keep the header row. Delete the examples when done.',
    ],
  },
  {
    cells: [
      '另一种布局',
      '也可以每个选项一行：列为 题号、题型、题干、选项、是否正确（或 选项分值）、解析、分值……，同一题号的行属于同一道题，题目信息写在第一行。',
      'Or one row per option: 题号 (No), 题型, 题干, 选项 (Option), 是否正确 (Correct) or 选项分值 (Option points); rows with the same number form one question.',
    ],
  },
  { cells: ['列', '说明', 'Meaning'], heading: true },
  {
    cells: [
      '题型',
      '单选题、多选题、不定项选择题、填空题、问答题、判断题、编程问答题、梯度题、测评题（可从下拉列表选择）。',
      'Type: single, multiple, indefinite, fill-in-blank, Q&A, true/false, programming Q&A, gradient, evaluation (dropdown).',
    ],
  },
  { cells: ['标题', '可选，题目在题库中的名称。', 'Optional title in the bank.'] },
  {
    cells: [
      '题干',
      '题目正文；可以是纯文本，也可以是 HTML。填空题用 ___（三个下划线）标出每个空。',
      'The question text, plain or HTML. Mark each blank of a fill-in question with ___.',
    ],
  },
  { cells: ['选项A…选项H', '选择题的选项，2 到 8 个，从 A 开始连续填写。', 'Options, 2 to 8, from A without gaps.'] },
  {
    cells: [
      '答案',
      '单选/判断：一个字母（判断题也可写 正确/错误）；多选/不定项：如 AC 或 A,C；填空：各空用 ; 分隔，同一空的可接受答案用 | 分隔，如 北京|Beijing;上海；梯度/测评：A=10;B=6;C=2；问答/编程问答：评分标准。',
      'Single/true-false: one letter (or 正确/错误); multiple/indefinite: AC or A,C; fill-in: blanks separated by ;, accepted answers of one blank by |; gradient/evaluation: A=10;B=6; Q&A: the rubric.',
    ],
  },
  {
    cells: [
      '解析',
      '可选，考生交卷后在考试允许时查看（练习考试默认显示）。',
      'Optional explanation, shown to candidates after submitting where the exam allows it (practice exams by default).',
    ],
  },
  {
    cells: [
      '选项反馈',
      '可选，选择题每个选项的反馈，每行一个，如 A: 上海不是首都。',
      'Optional feedback per option of a choice question, one line each, e.g. A: Shanghai is not the capital.',
    ],
  },
  { cells: ['分值', '可选，0 到 1000。', 'Optional points, 0 to 1000.'] },
  { cells: ['难度', '简单、较易、中等、较难、困难，或 1 到 5。', 'Difficulty: 简单 … 困难, or 1 to 5.'] },
  { cells: ['知识点 / 标签', '多个用逗号分隔。', 'Several separated by commas.'] },
  { cells: ['文件夹', '用 / 分隔层级，如 技术/前端。', 'Folder path separated by /, e.g. Tech/Frontend.'] },
  { cells: ['维度', '测评题必填：该题测量的维度。', 'Evaluation items: the dimension measured (required).'] },
  { cells: ['编程语言', '编程问答题必填：如 cpp,java,python。', 'Programming Q&A: languages, e.g. cpp,java,python.'] },
  { cells: ['表格无法表示的题型', '', ''], heading: true },
  {
    cells: [
      '编程题',
      '请用 FPS XML 或编程题压缩包（problem.json、statement、cases/）导入。',
      'Programming problems: import FPS XML or a problem zip (problem.json, statement, cases/).',
    ],
  },
  {
    cells: [
      '阅读理解、听力',
      '材料、音频和小题无法放进一行；阅读理解可用 Moodle XML（完形）或 QTI 导入，或在控制台中编写。',
      'Reading and listening: passages, audio and sub-questions do not fit in a row; use Moodle XML (cloze), QTI or the console.',
    ],
  },
  {
    cells: [
      'CSV',
      '也可以把同样的表格另存为 CSV（UTF-8 或 GBK 编码均可）。',
      'The same sheet saved as CSV (UTF-8 or GBK) imports too.',
    ],
  },
];
