/** The work a parse worker does: each kind of task with what it is given and what it answers. */
import { readCandidateFile, type CandidateFile } from '../services/candidateSheet.js';
import {
  plannedImport,
  previewPage,
  readQuestionFile,
  type ImportChoice,
  type PreviewPage,
  type QuestionFileInput,
} from '../services/questionFile.js';

/** Every task by its kind. */
export interface ParseTasks {
  /** A question file's preview: its totals, first questions and first problems (duplicates are the service's). */
  question_preview: { input: QuestionFileInput; output: PreviewPage };
  /** A question file checked for a commit: what refuses it is thrown, its format and digest answered. */
  question_commit: {
    input: QuestionFileInput & { choice: ImportChoice };
    output: { format: string; sha256: string };
  };
  /** A candidate file's rows read as candidates. */
  candidate_sheet: { input: { name: string; bytes: Uint8Array }; output: CandidateFile };
}

/** A kind of task. */
export type ParseKind = keyof ParseTasks;

/** Runs one task (on a worker thread; tests and jobs may call it directly). */
export async function runTask<K extends ParseKind>(
  kind: K,
  input: ParseTasks[K]['input'],
): Promise<ParseTasks[K]['output']> {
  // Each case answers its own kind's output; TypeScript cannot narrow K through the switch.
  type Out = ParseTasks[K]['output'];
  switch (kind) {
    case 'question_preview':
      return previewPage(await readQuestionFile(input as QuestionFileInput)) as Out;
    case 'question_commit': {
      const { choice, ...file } = input as ParseTasks['question_commit']['input'];
      const read = await readQuestionFile(file);
      plannedImport(read, choice);
      return { format: read.format, sha256: read.sha256 } as Out;
    }
    case 'candidate_sheet': {
      const { name, bytes } = input as ParseTasks['candidate_sheet']['input'];
      return (await readCandidateFile(name, bytes)) as Out;
    }
  }
  throw new Error(`no such parse task: ${String(kind)}`);
}
