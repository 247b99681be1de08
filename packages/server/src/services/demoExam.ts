/**
 * What the demo exam holds (seeded by demoSeed.ts): a question of every type by section, its sections' titles, its
 * per-exam rules, the positions recommended after it and the listening question's audio.
 */
import {
  kindExamples,
  KIND_SPECS,
  type QuestionKind,
  type AnyQuestionSpec,
  type ExamSettings,
  type QuestionBodyInput,
  type Section,
} from '@examhall/contract';
import { beepsWav, wavSeconds } from '../storage/wav.js';

/** The demo's listening audio: five beeps. */
export const DEMO_BEEPS = beepsWav(5);

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

/**
 * The demo exam's questions by section: every example of every kind (each kind's file in the contract's
 * `questions/kinds/`), in the section and for the points the example asks for.
 */
export const DEMO_QUESTIONS: Record<Section, DemoQuestion[]> = { linetest: [], major: [], evaluation: [] };
for (const spec of KIND_SPECS as readonly AnyQuestionSpec[]) {
  for (const { content, key, demo } of kindExamples(spec.kind as QuestionKind)) {
    const section = demo?.section ?? spec.sections[0]!;
    DEMO_QUESTIONS[section].push({
      kind: spec.kind,
      content,
      key,
      score: demo?.points ?? spec.defaultScore,
    } as DemoQuestion);
  }
}

/** The listening example's audio: the object the demo stores (five beeps) and its length. */
export const DEMO_AUDIO = { key: 'demo/listening-beeps.wav', seconds: wavSeconds(DEMO_BEEPS) };

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
  is_second_screen: 0,
};
