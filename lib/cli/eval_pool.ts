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

import { InputError, ToolscoreError, UsageError } from "../base/errors.ts";
import type { EvalSession, RenderedSlice, WorkerReply, WorkerRequest } from "./eval_types.ts";

/**
 * With the default `--jobs`, runs below this many files stay on one thread:
 * each worker loads and warms up the module graph again, and on 2 cores the
 * second thread competes with V8's own background threads, so workers pay off
 * only on large runs. Measured on 2 cores: 10,000 files took 0.64–0.68 s on
 * two threads and 0.67–0.79 s on one; 30,000 files 1.66–1.87 s against
 * 2.04–2.12 s. An explicit `--jobs N` uses workers from two slices up.
 *
 * Measured again after the start-up work of issue 21 (a worker now starts on
 * about a third less CPU: no ajv, jsonc-parser, `node:crypto` or report
 * writers, the shipped RE2 patterns compiled on first use), on the same two
 * cores shared with other jobs (load 6–9): over 2,000 files a worker added
 * 40–100% CPU and made runs slower, over 10,000 about 15% with wall times
 * within the noise; and a worker's isolate adds 35–60 MB of RSS, which would
 * take `--json` over 10,000 traces past its 150 MB bound. So the default
 * stays.
 *
 * And once more on the same two cores, idle this time (load 0.4), three
 * interleaved runs each over OpenAI transcripts: 2,000 files took 0.56–0.67 s
 * on one thread and 0.63–0.77 s on two; 10,000 files 1.81–2.20 s against
 * 1.32–2.18 s (console) and 1.50–2.69 s against 1.71–2.21 s (`--json`, at
 * 118–120 MB against 187–203 MB of RSS). Still no default below 12,000.
 * A console-only threshold of 6,000 was tried too (two threads gained from
 * about 5,000 files: 1.07–1.26 s against 1.33–1.40 s; 4,000 files broke
 * even): over 10,000 console traces it peaked at 145–153 MB of RSS against
 * 96 MB, past the 150 MB the run is held to, for wall times from 25% slower
 * to 30% faster. So it was left out.
 */
export const WORKER_THRESHOLD = 12_000;

/** Files per slice handed to a thread. */
export const SLICE = 100;

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
 * that exists (a bundled CLI has none) and this process may read (Deno checks
 * read permission for a worker's module, unlike for static imports).
 * Otherwise scoring stays on the main thread.
 *
 * @returns `true` when workers may be used.
 */
export function workersAvailable(): boolean {
  if (WORKER_URL.protocol !== "file:" || typeof Worker === "undefined") return false;
  try {
    const path = decodeURIComponent(WORKER_URL.pathname);
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return false;
    // A bundled CLI is one file: the worker's module is not beside it.
    return Deno.statSync(path).isFile;
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

// One turn of the event loop, so the workers' replies get in between two slices the main
// thread scores. setTimeout(0) would do, but nested timers are clamped to a few milliseconds,
// which over a hundred slices left the main thread idle for a fifth of a second; a message
// to ourselves is not clamped.
class EventTurn {
  #channel = new MessageChannel();
  #wake: (() => void) | undefined;

  constructor() {
    this.#channel.port1.onmessage = () => {
      const wake = this.#wake;
      this.#wake = undefined;
      wake?.();
    };
  }

  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      this.#channel.port2.postMessage(null);
    });
  }

  close(): void {
    this.#channel.port1.close();
    this.#channel.port2.close();
  }
}

/**
 * Score files in worker threads, yielding each slice's rendered results in
 * file order.
 *
 * @param session The main thread's session (it scores slices too).
 * @param args The `eval` arguments (each worker prepares its session from them).
 * @param files The trace files, in order.
 * @param color Whether to colour console output.
 * @param jobs How many workers to start.
 * @param walked The files that came from a folder walk.
 * @returns The rendered slices, each with how many files it covers.
 */
export async function* scoreInWorkers(
  session: EvalSession,
  args: string[],
  files: string[],
  color: boolean,
  jobs: number,
  walked: ReadonlySet<string> = new Set(),
): AsyncGenerator<{ slice: RenderedSlice; files: number }> {
  const slices: string[][] = [];
  for (let i = 0; i < files.length; i += SLICE) slices.push(files.slice(i, i + SLICE));
  const { scoreSlice } = await import("./eval_worker.ts");
  // The main thread scores too, so `jobs` threads in all: jobs - 1 workers.
  const workers: Worker[] = [];
  try {
    for (let i = 0; i < Math.min(jobs - 1, slices.length); i++) {
      workers.push(new Worker(WORKER_URL.href, { type: "module" }));
    }
  } catch {
    for (const worker of workers) worker.terminate();
    workers.length = 0;
  }
  const turn = new EventTurn();
  const done = new Map<number, RenderedSlice>();
  const taken = new Uint8Array(slices.length);
  let waiter: (() => void) | undefined;
  let failure: { name: string; message: string } | undefined;
  let next = 0;
  const nextFree = (): number | undefined => {
    while (next < slices.length && taken[next]) next++;
    return next < slices.length ? next : undefined;
  };
  const dispatch = (worker: Worker) => {
    const id = failure ? undefined : nextFree();
    if (id === undefined) return;
    taken[id] = 1;
    const files = slices[id]!;
    const request = {
      args,
      files,
      walked: files.filter((f) => walked.has(f)),
      consoleLines: session.consoleLines === true,
      color,
      id,
    };
    worker.postMessage(request satisfies WorkerRequest);
  };
  const wake = () => {
    const resolve = waiter;
    waiter = undefined;
    resolve?.();
  };
  try {
    for (const worker of workers) {
      worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        if ("error" in reply) failure ??= reply.error;
        else done.set(reply.id, reply.slice);
        dispatch(worker);
        wake();
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        failure ??= { name: "Error", message: event.message };
        wake();
      };
      // Two slices in flight each, so a worker never waits while the main thread scores.
      dispatch(worker);
      dispatch(worker);
    }
    for (let id = 0; id < slices.length; id++) {
      while (!done.has(id)) {
        if (failure) rethrow(failure);
        // The next slice to print is nobody's yet, or a worker has it: score the earliest
        // free slice here, then let the workers' replies in (a macrotask turn).
        const free = taken[id] ? nextFree() : id;
        if (free !== undefined) {
          taken[free] = 1;
          done.set(free, await scoreSlice(session, slices[free]!, color, walked));
          await turn.next();
        } else {
          await new Promise<void>((resolve) => waiter = resolve);
        }
      }
      if (failure) rethrow(failure);
      const slice = done.get(id)!;
      done.delete(id);
      yield { slice, files: slices[id]!.length };
    }
  } finally {
    for (const worker of workers) worker.terminate();
    turn.close();
  }
}
