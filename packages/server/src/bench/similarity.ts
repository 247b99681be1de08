/**
 * npm run bench:similarity — how well code similarity tells copies from independent solutions, on IR-Plag (467
 * Java files in seven tasks: each task's original, copies disguised at six levels, independent solutions), read
 * from `../shared/benchmarks/irplag/IR-Plag-Dataset.zip` beside the repository (IRPLAG_ZIP to point elsewhere).
 * Each task's original is scored against each other submission of the task, by three scorers in the same run:
 * today's (the hand-written lexer, winnowed k-grams, the share of the smaller side's fingerprints), the new one
 * (parse-tree features weighted by rarity among the submissions), and Dolos (`@dodona/dolos-lib`, a development
 * dependency for this comparison only) at its defaults and at k 12.
 *
 * The rarity the new scorer weighs by is counted over the question's submissions. An IR-Plag task folder is
 * mostly copies of one original (about 50 of 67 files), which no exam looks like; so each pair is scored among
 * the original, the task's independent solutions and that one submission (an exam where one candidate copied).
 * The run also prints the new scorer with the rarity counted over the whole folder, copies and all.
 *
 * Printed per level: the median score and the share found (at or above the threshold that keeps 95 % of flagged
 * pairs real copies); over all pairs: the ROC AUC and the recall at 95 % precision; and the time to rank 1,000
 * submissions to one question (the C++ submissions of the results bench; BENCH_SUBMISSIONS), the median of
 * BENCH_RUNS runs in wall time and in the process's CPU time (on a shared machine the wall time also counts the
 * others' work). BENCH_SCORERS=new,dolos runs only the scorers whose names start so. The last line is one JSON
 * object.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIMILARITY_STORED_SCORE } from '@examhall/contract';
import { unzipSync } from 'fflate';
import {
  compareSources,
  fingerprintTokens,
  rankPairs,
  rankWeighted,
  read,
  tokenize,
  type Bag,
} from '../similarity/index.js';
import { submissions as cppSubmissions } from './results/similarity.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ZIP = process.env.IRPLAG_ZIP ?? path.resolve(ROOT, '../shared/benchmarks/irplag/IR-Plag-Dataset.zip');
const TIMED = Number(process.env.BENCH_SUBMISSIONS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PRECISION = 0.95;
const LEVELS = ['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'independent'] as const;
type Level = (typeof LEVELS)[number];

interface Task {
  name: string;
  original: string;
  others: { level: Level; source: string }[];
}

/** The corpus's tasks from the zip: `case-NN/original/`, `plagiarized/Ln/NN/`, `non-plagiarized/NN/`. */
function loadTasks(zip: string): Task[] {
  const files = unzipSync(fs.readFileSync(zip));
  const tasks = new Map<string, Task>();
  const decoder = new TextDecoder();
  for (const [name, data] of Object.entries(files)) {
    const m = /(case-\d+)\/(original|plagiarized\/(L[1-6])|non-plagiarized)\/.*\.java$/.exec(name);
    if (!m) continue;
    const task = tasks.get(m[1]!) ?? { name: m[1]!, original: '', others: [] };
    tasks.set(m[1]!, task);
    const source = decoder.decode(data);
    if (m[2] === 'original') task.original = source;
    else task.others.push({ level: (m[3] as Level | undefined) ?? 'independent', source });
  }
  return [...tasks.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A scorer: the score of the task's original against each other submission, in order. */
type Scorer = (task: Task) => Promise<number[]>;

/** Today's scorer reads code with the hand-written lexer, whatever the language. */
const fingerprintLexed = (source: string, language: 'java' | 'cpp') =>
  fingerprintTokens(tokenize(source, language), new Set());

const today: Scorer = async (task) => {
  const docs = [task.original, ...task.others.map((o) => o.source)].map((s) => fingerprintLexed(s, 'java'));
  const scores = new Array<number>(task.others.length).fill(0);
  for (const p of rankPairs(docs)) if (p.a === 0) scores[p.b - 1] = p.score;
  return scores;
};

/** The new scorer, each pair among the original, the independent solutions and the submission scored. */
const rare =
  (literals = true): Scorer =>
  async (task) => {
    const bags = new Map<string, Bag>();
    const bag = (s: string) => {
      let b = bags.get(s);
      if (!b) bags.set(s, (b = read(s, 'java', literals)));
      return b;
    };
    const independent = task.others.filter((o) => o.level === 'independent').map((o) => o.source);
    return task.others.map((o) => {
      const population = [task.original, o.source, ...independent.filter((s) => s !== o.source)].map(bag);
      return rankWeighted(population).find((p) => p.a === 0 && p.b === 1)?.score ?? 0;
    });
  };

/** The new scorer with the rarity counted over the whole task folder. */
const rareFolder: Scorer = async (task) => {
  const { pairs } = compareSources([task.original, ...task.others.map((o) => o.source)], 'java');
  const scores = new Array<number>(task.others.length).fill(0);
  for (const p of pairs) if (p.a === 0) scores[p.b - 1] = p.score;
  return scores;
};

/** Dolos over the task's files, the pairs with the original read from its report. */
const dolos =
  (kgramLength?: number, kgramsInWindow?: number): Scorer =>
  async (task) => {
    const { Dolos } = await import('@dodona/dolos-lib');
    const files = await dolosFiles([task.original, ...task.others.map((o) => o.source)]);
    const report = await new Dolos({ language: 'java', kgramLength, kgramsInWindow }).analyze(files);
    const scores = new Array<number>(task.others.length).fill(0);
    for (const pair of report.allPairs()) {
      const [l, r] = [Number(pair.leftFile.path.split('.')[0]), Number(pair.rightFile.path.split('.')[0])];
      if (l === 0) scores[r - 1] = pair.similarity;
      else if (r === 0) scores[l - 1] = pair.similarity;
    }
    return scores;
  };

async function dolosFiles(sources: string[]) {
  const { File } = await import('@dodona/dolos-lib');
  return sources.map((s, i) => new File(`${i}.java`, s));
}

/** ROC AUC: the chance a copy scores above an independent solution (ties count half). */
export function auc(copies: number[], independent: number[]): number {
  let wins = 0;
  for (const c of copies) for (const n of independent) wins += c > n ? 1 : c === n ? 0.5 : 0;
  return wins / (copies.length * independent.length);
}

/** The lowest threshold at which at least `precision` of the pairs scoring at or above it are copies, and its recall. */
export function recallAtPrecision(
  copies: number[],
  independent: number[],
  precision: number,
): { threshold: number; recall: number } {
  const all = [...copies.map((s) => ({ s, copy: true })), ...independent.map((s) => ({ s, copy: false }))].sort(
    (a, b) => b.s - a.s,
  );
  let best = { threshold: Infinity, recall: 0 };
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < all.length; i++) {
    if (all[i]!.copy) tp++;
    else fp++;
    // A threshold sits between distinct scores only.
    if (i + 1 < all.length && all[i + 1]!.s === all[i]!.s) continue;
    if (tp / (tp + fp) >= precision && all[i]!.s > 0) best = { threshold: all[i]!.s, recall: tp / copies.length };
  }
  return best;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Figures {
  auc: number;
  recall95: number;
  threshold95: number;
  levels: Record<Level, { pairs: number; median: number; found: number }>;
  ms_per_1000: number;
  /** The process's CPU time for it: what the machine's other work does not inflate as much. */
  cpu_ms_per_1000: number;
}

async function measure(scorer: Scorer, tasks: Task[], timed: (sources: string[]) => Promise<void>): Promise<Figures> {
  const byLevel = new Map<Level, number[]>(LEVELS.map((l) => [l, []]));
  for (const task of tasks) {
    const scores = await scorer(task);
    task.others.forEach((o, i) => byLevel.get(o.level)!.push(scores[i]!));
  }
  const independent = byLevel.get('independent')!;
  const copies = LEVELS.filter((l) => l !== 'independent').flatMap((l) => byLevel.get(l)!);
  const { threshold, recall } = recallAtPrecision(copies, independent, PRECISION);
  const levels = Object.fromEntries(
    LEVELS.map((l) => {
      const s = byLevel.get(l)!;
      return [l, { pairs: s.length, median: median(s), found: s.filter((x) => x >= threshold).length }];
    }),
  ) as Figures['levels'];
  // The median of RUNS runs, each the whole ranking of the same submissions (the first also loads the grammar).
  const sources = cppSubmissions(TIMED);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await timed(sources);
    walls.push(((performance.now() - t) * 1000) / TIMED);
    const used = process.cpuUsage(cpu);
    cpus.push(((used.user + used.system) / 1000) * (1000 / TIMED));
  }
  const [ms, cpuMs] = [median(walls), median(cpus)];
  return {
    auc: auc(copies, independent),
    recall95: recall,
    threshold95: threshold,
    levels,
    ms_per_1000: ms,
    cpu_ms_per_1000: cpuMs,
  };
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  if (!fs.existsSync(ZIP)) {
    console.log(`IR-Plag is not there: ${ZIP} is missing (IRPLAG_ZIP names another path). Nothing measured.`);
    process.exitCode = 1;
    return;
  }
  const tasks = loadTasks(ZIP);
  const files = tasks.reduce((s, t) => s + 1 + t.others.length, 0);
  console.log(`IR-Plag from ${ZIP}: ${tasks.length} tasks, ${files} files; timing ranks ${TIMED} C++ submissions`);
  const scorers: [string, Scorer, (sources: string[]) => Promise<void>][] = [
    ['today', today, async (s) => void rankPairs(s.map((x) => fingerprintLexed(x, 'cpp')))],
    ['new', rare(), async (s) => void compareSources(s, 'cpp', undefined, SIMILARITY_STORED_SCORE)],
    ['new, structure alone', rare(false), async () => undefined],
    ['new, rarity over the folder', rareFolder, async () => undefined],
    ['dolos k23 w17', dolos(), async (s) => void (await dolosTimed(s))],
    ['dolos k12 w17', dolos(12, 17), async () => undefined],
  ];
  const all: Record<string, Figures> = {};
  const only = process.env.BENCH_SCORERS?.split(',').map((x) => x.trim());
  for (const [name, scorer, timed] of scorers) {
    if (only && !only.some((o) => name.startsWith(o))) continue;
    const f = await measure(scorer, tasks, timed);
    all[name] = f;
    const levels = LEVELS.map(
      (l) => `${l} ${round(f.levels[l].median)} (${f.levels[l].found}/${f.levels[l].pairs})`,
    ).join(', ');
    console.log(
      `${name.padEnd(28)} AUC ${round(f.auc, 3)}, recall at 95 % precision ${round(f.recall95)} ` +
        `(threshold ${round(f.threshold95, 3)})` +
        (f.ms_per_1000 > 1
          ? `, ${Math.round(f.ms_per_1000)} ms per 1,000 submissions (${Math.round(f.cpu_ms_per_1000)} ms of CPU)`
          : ''),
    );
    console.log(`  median (found): ${levels}`);
  }
  console.log(JSON.stringify(all));
}

async function dolosTimed(sources: string[]): Promise<void> {
  const { Dolos } = await import('@dodona/dolos-lib');
  await new Dolos({ language: 'cpp' }).analyze(await dolosFiles(sources));
}

await main();
