import type { CaseResult, LanguageId, Verdict } from '@examhall/contract';
import type { z } from 'zod';
import type { CheckerSpec } from './checkers/index.js';

/** One case's result: the contract's CaseResult plus a note for staff (never for hidden cases' owners). */
export type JudgeCaseResult = z.infer<typeof CaseResult> & {
  /** Why it failed: checker difference, signal, limit. */
  message?: string;
};

/** One test case. */
export interface JudgeCase {
  /** Standard input. */
  input: string;
  /** Expected output; absent for a custom-input run, which then only has to run cleanly. */
  expected?: string;
}

/**
 * A judge task. Built by the server from stored data (question limits, cases, checker) and the
 * candidate's language and code, which the server has validated; nothing here comes unchecked
 * from a browser.
 */
export interface JudgeTask {
  language: LanguageId;
  source: string;
  cases: JudgeCase[];
  /** CPU time limit per case. */
  timeLimitMs: number;
  /** Memory limit per case. */
  memoryLimitMb: number;
  /** How outputs are compared; a name like `float:1e-6` or a spec; default whitespace-insensitive. */
  checker?: CheckerSpec | string;
  /** Stop at the first case that is not AC. */
  stopOnFailure?: boolean;
  /** Return each case's output (samples and custom input only, never hidden cases). */
  returnOutput?: boolean;
  /** Output cap per case; more is OLE. Default 64 MB. */
  outputLimitBytes?: number;
}

/** The outcome of a whole task. */
export interface JudgeResult {
  /** AC only when every case is AC; otherwise the first failing case's verdict (CE/SE for the task). */
  verdict: Verdict;
  /** Results in case order (up to the first failure with stopOnFailure). */
  cases: JudgeCaseResult[];
  /** Cases in the task. */
  total: number;
  /** Compiler messages on CE. */
  compileOutput?: string;
  /** System error or CE reason. */
  message?: string;
  /** Largest CPU time and memory over the cases. */
  timeMs: number;
  memoryKb: number;
}

/** Typed progress events of a running task, in order: compiled, then one per case. */
export type JudgeProgress =
  | { type: 'compiled'; ok: boolean; cached: boolean; compileOutput?: string }
  | { type: 'case'; result: JudgeCaseResult; done: number; total: number };

/** Receives progress events; must not throw (errors are ignored). */
export type ProgressListener = (event: JudgeProgress) => void;
