/**
 * What the demo exam holds (seeded by demoSeed.ts): a question of every type by section, its sections' titles, its
 * per-exam rules, the positions recommended after it and the listening question's audio.
 */
import {
  letterOptions,
  QuestionType,
  type ExamSettings,
  type QuestionBodyInput,
  type Section,
} from '@examhall/contract';
import { beepsWav, wavSeconds } from '../storage/wav.js';

/** The demo's listening audio: five beeps. */
export const DEMO_BEEPS = beepsWav(5);
const DEMO_BEEPS_SECONDS = Math.round(wavSeconds(DEMO_BEEPS) * 10) / 10;

/** Positions recommended after the demo exam. */
export const DEMO_POSITIONS = [
  {
    title: '后端开发工程师 Backend Engineer',
    department: '技术部 Engineering',
    city: '上海 Shanghai',
    description: 'Build and run the services behind our products.',
    min_ratio: 0.8,
  },
  {
    title: '前端开发工程师 Frontend Engineer',
    department: '技术部 Engineering',
    city: '北京 Beijing',
    description: 'Build the web pages our users work with every day.',
    min_ratio: 0.6,
  },
  {
    title: '测试开发工程师 Test Engineer',
    department: '质量部 Quality',
    city: '杭州 Hangzhou',
    description: 'Make sure what we ship works, with automated tests.',
    min_ratio: 0.5,
  },
  {
    title: '产品运营 Product Operations',
    department: '产品部 Product',
    city: '深圳 Shenzhen',
    description: 'Work with users and engineers to shape the product.',
    min_ratio: 0.3,
  },
];

/** A demo question: its points and its typed body (checked by QuestionBody when seeded). */
export type DemoQuestion = QuestionBodyInput & { score: number };

const opts = letterOptions;

/** The demo exam's questions by section: every one of the 11 types appears at least once. */
export const DEMO_QUESTIONS: Record<Section, DemoQuestion[]> = {
  linetest: [
    {
      kind: 'single',
      score: 5,
      content: {
        stem: '<p>2, 4, 8, 16, ? 下一个数是多少？ / What comes next?</p>',
        options: opts('24', '32', '30', '64'),
      },
      key: { option: 'B' },
    },
    {
      kind: 'multiple',
      score: 5,
      content: { stem: '<p>以下哪些是质数？ / Which are prime numbers?</p>', options: opts('2', '9', '11', '15') },
      key: { options: ['A', 'C'] },
    },
    {
      kind: 'indefinite',
      score: 5,
      content: {
        stem: '<p>以下哪些城市位于长江沿岸？ / Which cities lie on the Yangtze?</p>',
        options: opts('武汉 Wuhan', '南京 Nanjing', '西安 Xi’an', '重庆 Chongqing'),
      },
      key: { options: ['A', 'B', 'D'] },
    },
    {
      kind: 'true_false',
      score: 2,
      content: {
        stem: '<p>所有的正方形都是矩形。 / Every square is a rectangle.</p>',
        options: opts('正确 True', '错误 False'),
      },
      key: { option: 'A' },
    },
    {
      kind: 'reading',
      score: 6,
      content: {
        stem: '<p>阅读下文并回答问题。 / Read the passage and answer.</p>',
        passage:
          '<p>Examhall 是一个在线笔试平台。候选人用手机号登录，在监考下完成限时考试。</p><p>Examhall is an online written-test platform. Candidates log in with a phone number and take timed exams under proctoring.</p>',
        subs: [
          {
            id: 1,
            type: QuestionType.single,
            score: 3,
            stem: '<p>候选人如何登录？ / How do candidates log in?</p>',
            options: opts('邮箱 Email', '手机号 Phone number', '微信 WeChat'),
          },
          {
            id: 2,
            type: QuestionType.trueFalse,
            score: 3,
            stem: '<p>考试有时间限制。 / Exams are timed.</p>',
            options: opts('正确 True', '错误 False'),
          },
        ],
      },
      key: { subs: { '1': { option: 'B' }, '2': { option: 'A' } } },
    },
  ],
  major: [
    {
      kind: 'fill_blank',
      score: 4,
      content: {
        stem: '<p>HTTP 状态码 ___ 表示未找到，___ 表示服务器错误。 / Status ___ means not found, ___ means server error.</p>',
        blanks: 2,
      },
      key: { blanks: [['404'], ['500']] },
    },
    {
      kind: 'listening',
      score: 4,
      content: {
        stem: '<p>听录音并回答问题（最多播放 2 次）。 / Listen and answer (at most 2 plays).</p>',
        audio: { play_limit: 2, duration_s: DEMO_BEEPS_SECONDS },
        subs: [
          {
            id: 1,
            type: QuestionType.single,
            score: 4,
            stem: '<p>你听到了几声提示音？ / How many beeps do you hear?</p>',
            options: opts('3', '5', '8'),
          },
        ],
      },
      key: { audio: { key: 'demo/listening-beeps.wav' }, subs: { '1': { option: 'B' } } },
    },
    {
      kind: 'gradient',
      score: 5,
      content: {
        stem: '<p>团队成员意见不一致时，你通常会： / When your team disagrees, you usually:</p>',
        options: opts(
          '组织讨论，寻找共识 Hold a discussion to find consensus',
          '听取意见后由负责人决定 Let the lead decide after hearing everyone',
          '按自己的方案执行 Go ahead with your own plan',
        ),
      },
      key: { scores: { A: 5, B: 3, C: 1 } },
    },
    {
      kind: 'qa',
      score: 10,
      content: { stem: '<p>简述数据库事务的 ACID 特性。 / Describe the ACID properties of database transactions.</p>' },
      key: {
        rubric: 'Atomicity, consistency, isolation, durability: 2.5 points each.',
        criteria: [
          { title: 'Atomicity 原子性', points: 2.5, description: 'All of a transaction or none of it.' },
          { title: 'Consistency 一致性', points: 2.5, description: 'From one valid state to another.' },
          { title: 'Isolation 隔离性', points: 2.5, description: 'Concurrent transactions do not see each other.' },
          { title: 'Durability 持久性', points: 2.5, description: 'Committed changes survive a crash.' },
        ],
      },
    },
    {
      kind: 'programming_qa',
      score: 10,
      content: {
        stem: '<p>写一个函数，判断字符串是否为回文。 / Write a function that tells whether a string is a palindrome.</p>',
        languages: ['cpp', 'java', 'python', 'javascript', 'go'],
      },
      key: {
        rubric: 'Correct two-pointer or reverse comparison; handles empty string.',
        criteria: [
          { title: 'Correctness 正确性', points: 6, description: 'Two-pointer or reverse comparison that works.' },
          { title: 'Edge cases 边界', points: 2, description: 'Handles the empty string and one character.' },
          { title: 'Clarity 可读性', points: 2, description: 'Readable names and structure.' },
        ],
      },
    },
    {
      kind: 'programming',
      score: 20,
      content: {
        stem: '<p>输入两个整数 a 和 b，输出 a+b。 / Read two integers a and b and print a+b.</p>',
        languages: ['c', 'cpp', 'java', 'python', 'javascript', 'go', 'rust'],
        samples: [{ input: '1 2\n', output: '3\n' }],
        time_limit_ms: 1000,
        memory_limit_mb: 256,
      },
      key: {
        checker: 'default',
        cases: [
          { input: '3 4\n', output: '7\n' },
          { input: '-5 5\n', output: '0\n' },
          { input: '1000000000 1000000000\n', output: '2000000000\n' },
        ],
        reference: { language: 'python', source: 'a, b = map(int, input().split())\nprint(a + b)\n' },
      },
    },
  ],
  evaluation: [
    {
      kind: 'evaluation',
      score: 5,
      content: {
        stem: '<p>我喜欢在团队中工作。 / I enjoy working in a team.</p>',
        options: opts(
          '非常同意 Strongly agree',
          '同意 Agree',
          '一般 Neutral',
          '不同意 Disagree',
          '非常不同意 Strongly disagree',
        ),
        dimension: 'teamwork',
      },
      key: { scores: { A: 5, B: 4, C: 3, D: 2, E: 1 } },
    },
    {
      kind: 'evaluation',
      score: 5,
      content: {
        stem: '<p>面对压力时我能保持冷静。 / I stay calm under pressure.</p>',
        options: opts(
          '非常同意 Strongly agree',
          '同意 Agree',
          '一般 Neutral',
          '不同意 Disagree',
          '非常不同意 Strongly disagree',
        ),
        dimension: 'resilience',
      },
      key: { scores: { A: 5, B: 4, C: 3, D: 2, E: 1 } },
    },
  ],
};

export const DEMO_SECTION_TITLES: Record<Section, string> = {
  linetest: '行测 Aptitude',
  major: '专业 Professional',
  evaluation: '测评 Evaluation',
};

/** Default per-exam rules of the demo: every check on, skipping allowed except the pledge. */
export const DEMO_SETTINGS: ExamSettings = {
  is_enterprise_logo: 0,
  ico_name: '',
  systemLogoPath: '',
  is_paste: 0,
  is_copy_question: 0,
  is_upload_file: 1,
  cutting_times: 3,
  capture_interval: 30,
  is_skip_camera: 1,
  is_skip_microphone: 1,
  is_skip_screen: 1,
  is_skip_phone: 1,
  is_close_camera: 0,
  is_close_microphone: 0,
  is_close_screen: 0,
  is_close_phone: 0,
};
