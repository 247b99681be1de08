/** A parse worker thread: runs the tasks the pool hands it, one at a time, and answers each by its id. */
import { parentPort } from 'node:worker_threads';
import type { ErrorCode } from '@examhall/contract';
import { yieldToCandidates } from '../cluster/priority.js';
import { AppError } from '../errors.js';
import { runTask, type ParseKind, type ParseTasks } from './tasks.js';

/** A task for the worker. */
export interface ParseRequest {
  id: number;
  kind: ParseKind;
  input: ParseTasks[ParseKind]['input'];
}

/** The worker's answer: the task's output, or the error it threw (an AppError keeps its code and details). */
export type ParseReply =
  | { id: number; result: unknown }
  | {
      id: number;
      error: { message: string; code?: ErrorCode; data?: Record<string, string | number> | null };
    };

const port = parentPort;
if (port) {
  // Reading a staff member's file must not take the processor from the candidates' calls of this process.
  yieldToCandidates(false);
  port.on('message', (msg: ParseRequest) => {
    runTask(msg.kind, msg.input).then(
      (result) => port.postMessage({ id: msg.id, result } satisfies ParseReply),
      (err: unknown) => {
        const error =
          err instanceof AppError
            ? { message: err.message, code: err.code, data: err.data }
            : { message: err instanceof Error ? err.message : String(err) };
        port.postMessage({ id: msg.id, error } satisfies ParseReply);
      },
    );
  });
}
