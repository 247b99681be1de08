#!/usr/bin/env node
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LANGUAGE_IDS } from '@examhall/contract';
import type { LanguageId } from '@examhall/contract';
import { parseChecker } from './checkers/index.js';
import { judge, readNoFollow } from './judge.js';
import { describeLanguages } from './languages/index.js';
import { runWorker } from './queue/bullmq.js';
import { parseWorkerArgs, positive, WorkerArgsError } from './queue/workerArgs.js';
import { sandboxInfo } from './sandbox/sandbox.js';

const USAGE = `usage:
  examhall-judge languages
  examhall-judge test --language ID --source FILE --tests DIR [--time-limit MS] [--memory-limit MB] [--checker KIND]
  examhall-judge worker --redis URL [--concurrency N] [--queue NAME] [--lock-duration MS] [--stalled-interval MS]

KIND: default | exact | lines | float | float:EPS | float:ABS:REL`;

class UsageError extends Error {}

function number(value: string | undefined, name: string, fallback: number): number {
  return value === undefined ? fallback : positive(value, name);
}

/** Reads the `NAME.in` / `NAME.out` pairs of a directory, in natural order of NAME. */
export async function readTests(dir: string): Promise<{ name: string; input: string; expected: string }[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.in')).map((n) => n.slice(0, -3));
  names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (names.length === 0) throw new UsageError(`no *.in files in ${dir}`);
  return Promise.all(
    names.map(async (name) => ({
      name,
      input: await readNoFollow(join(dir, `${name}.in`)),
      expected: await readNoFollow(join(dir, `${name}.out`)).catch(() => {
        throw new UsageError(`${name}.in has no ${name}.out`);
      }),
    })),
  );
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function main(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const [command = '', ...rest] = argv;
  try {
    switch (command) {
      case 'languages': {
        const [languages, sandbox] = await Promise.all([describeLanguages(), sandboxInfo()]);
        out(JSON.stringify({ sandbox, languages }, null, 2));
        return 0;
      }
      case 'test': {
        const { values } = parseArgs({
          args: rest,
          options: {
            language: { type: 'string' },
            source: { type: 'string' },
            tests: { type: 'string' },
            'time-limit': { type: 'string' },
            'memory-limit': { type: 'string' },
            checker: { type: 'string' },
          },
        });
        if (!values.language || !values.source || !values.tests)
          throw new UsageError('--language, --source and --tests are required');
        if (!(LANGUAGE_IDS as readonly string[]).includes(values.language)) {
          throw new UsageError(`unknown language ${values.language}; one of ${LANGUAGE_IDS.join(', ')}`);
        }
        let checker: ReturnType<typeof parseChecker> | undefined;
        try {
          checker = values.checker ? parseChecker(values.checker) : undefined;
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
        const tests = await readTests(values.tests);
        const result = await judge({
          language: values.language as LanguageId,
          source: await readNoFollow(values.source),
          cases: tests.map(({ input, expected }) => ({ input, expected })),
          timeLimitMs: number(values['time-limit'], 'time-limit', 1000),
          memoryLimitMb: number(values['memory-limit'], 'memory-limit', 256),
          ...(checker ? { checker } : {}),
        });
        out(
          JSON.stringify({
            verdict: result.verdict,
            total: result.total,
            time_ms: result.timeMs,
            memory_kb: result.memoryKb,
            ...(result.compileOutput !== undefined ? { compile_output: result.compileOutput } : {}),
            ...(result.message !== undefined ? { message: result.message } : {}),
            cases: result.cases.map((c) => ({ name: tests[c.index - 1]?.name, ...c })),
          }),
        );
        return result.verdict === 'AC' ? 0 : 1;
      }
      case 'worker': {
        const { redis, options } = parseWorkerArgs(rest);
        const url = redis ?? process.env.REDIS_URL;
        if (!url) throw new UsageError('--redis URL (or REDIS_URL) is required');
        const handle = await runWorker(url, options);
        out(`examhall-judge worker ${process.pid} ready on ${url.replace(/\/\/[^@]*@/, '//***@')}`);
        await new Promise<void>((resolve) => {
          const stop = (): void => resolve();
          process.once('SIGTERM', stop);
          process.once('SIGINT', stop);
        });
        await handle.close();
        return 0;
      }
      default:
        throw new UsageError(command ? `unknown command ${command}` : 'no command');
    }
  } catch (err) {
    if (
      err instanceof UsageError ||
      err instanceof WorkerArgsError ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`examhall-judge: ${(err as Error).message}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/examhall-judge')) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
