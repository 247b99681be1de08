/** The problem zip's layout, shared by its reader and writer (documented in the package README). */

/** `problem.json`: everything about a problem that is not a file. */
export interface ProblemJson {
  /** Title in the bank. */
  title?: string;
  /** CPU time limit per case, ms. */
  time_limit_ms?: number;
  /** Memory limit, MB. */
  memory_limit_mb?: number;
  /** Languages offered: judge ids (`cpp`) or names (`C++`). */
  languages?: string[];
  /** A built-in checker's name, or a custom checker's language and file (relative to the problem's folder). */
  checker?: string | { language: string; file: string };
  /** The reference solution's file and language (else `solution.<ext>`, its language from the extension). */
  reference?: { file: string; language?: string };
  /** Hidden cases in order, by name (`cases/<name>.in`); cases not listed follow in natural order. */
  cases?: string[];
  /** Bank metadata. */
  points?: number;
  difficulty?: number;
  tags?: string[];
  knowledge_points?: string[];
  folder?: string[];
  /** Explanation shown after the exam (HTML). */
  explanation?: string;
}

/** Names compared the way people number files: `2` before `10`. */
export const naturalOrder = (a: string, b: string): number =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
