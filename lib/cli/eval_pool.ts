/**
 * Scoring many trace files on every core. `toolscore eval` over a large
 * directory hands contiguous slices of the files to worker threads; each
 * worker prepares the same session from the same arguments (so contracts,
 * matchers and rules never cross a thread boundary), scores its slice and
 * sends back rendered reports. Results come back in file order.
 *
 * Workers inherit the command's permissions. Deno checks read permission for
 * a worker's module file, so workers are used only when that file is local
 * and readable ({@linkcode workersAvailable}); otherwise, or when a worker
 * cannot be created, scoring stays on the main thread. The pool only ever
 * changes the speed, never the output.
 *
 * @module
 */

import { InputError, ToolscoreError, UsageError } from "../errors.ts";
import type { RenderedResult } from "./eval.ts";

/** Below this many files, one thread is faster than starting workers. */
export const WORKER_THRESHOLD = 400;

const SLICE = 100;

/** What a worker is asked to do. */
export interface WorkerRequest {
  /** The `eval` arguments, to prepare the session. */
  args: string[];
  /** The slice's files. */
  files: string[];
  /** Whether to colour console output. */
  color: boolean;
  /** The slice's position. */
  id: number;
}

/** What a worker answers. */
export type WorkerReply =
  | { id: number; rendered: RenderedResult[] }
  | { id: number; error: { name: string; message: string } };

function rethrow(error: { name: string; message: string }): never {
  if (error.name === "UsageError") throw new UsageError(error.message);
  if (error.name === "InputError") throw new InputError(error.message);
  if (error.name.endsWith("Error") && error.name !== "Error") {
    throw new ToolscoreError(error.message);
  }
  throw new Error(error.message);
}

const WORKER_URL = new URL("./eval_worker.ts", import.meta.url);

/**
 * Whether worker threads can start here: the worker's module is a local file
 * this process may read (Deno checks read permission for a worker's module,
 * unlike for static imports). Otherwise scoring stays on the main thread.
 *
 * @returns `true` when workers may be used.
 */
export function workersAvailable(): boolean {
  if (WORKER_URL.protocol !== "file:" || typeof Worker === "undefined") return false;
  try {
    const path = decodeURIComponent(WORKER_URL.pathname);
    return Deno.permissions.querySync({ name: "read", path }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * The default number of threads: one per core, at most 8.
 *
 * @returns The count.
 */
export function defaultJobs(): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency ?? 1 : 1;
  return Math.max(1, Math.min(cores, 8));
}

/**
 * Score files in worker threads, yielding each slice's rendered results in
 * file order.
 *
 * @param args The `eval` arguments.
 * @param files The trace files, in order.
 * @param color Whether to colour console output.
 * @param jobs How many workers to start.
 * @returns The rendered results, slice by slice.
 */
export async function* scoreInWorkers(
  args: string[],
  files: string[],
  color: boolean,
  jobs: number,
): AsyncGenerator<RenderedResult[]> {
  const slices: string[][] = [];
  for (let i = 0; i < files.length; i += SLICE) slices.push(files.slice(i, i + SLICE));
  const workers: Worker[] = [];
  try {
    for (let i = 0; i < Math.min(jobs, slices.length); i++) {
      workers.push(
        new Worker(new URL("./eval_worker.ts", import.meta.url).href, { type: "module" }),
      );
    }
  } catch {
    for (const worker of workers) worker.terminate();
    const { fallbackScore } = await import("./eval_worker.ts");
    for (const slice of slices) yield await fallbackScore(args, slice, color);
    return;
  }
  const done = new Map<number, RenderedResult[]>();
  const waiters = new Map<number, (reply: WorkerReply) => void>();
  let failure: WorkerReply | undefined;
  let next = 0;
  const dispatch = (worker: Worker) => {
    if (next >= slices.length || failure) return;
    const id = next++;
    worker.postMessage({ args, files: slices[id]!, color, id } satisfies WorkerRequest);
  };
  const arrived = (reply: WorkerReply) => {
    const waiter = waiters.get(reply.id);
    if ("error" in reply) failure ??= reply;
    else done.set(reply.id, reply.rendered);
    waiters.delete(reply.id);
    waiter?.(reply);
  };
  try {
    for (const worker of workers) {
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        arrived(event.data);
        dispatch(worker);
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        arrived({ id: -1, error: { name: "Error", message: event.message } });
        for (const waiter of waiters.values()) {
          waiter({ id: -1, error: { name: "Error", message: event.message } });
        }
      };
      dispatch(worker);
    }
    for (let id = 0; id < slices.length; id++) {
      if (!done.has(id) && !failure) {
        await new Promise<WorkerReply>((resolve) => waiters.set(id, resolve));
      }
      if (failure && "error" in failure) rethrow(failure.error);
      const rendered = done.get(id)!;
      done.delete(id);
      yield rendered;
    }
  } finally {
    for (const worker of workers) worker.terminate();
  }
}
