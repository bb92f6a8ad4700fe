/**
 * The worker thread of {@linkcode scoreInWorkers}: prepares an `eval`
 * session from the command's arguments once, then scores the slices of files
 * it is sent and answers with rendered reports.
 *
 * @module
 */

import type { CliIO } from "./command.ts";
import { prepareEval, renderScored } from "./eval_session.ts";
import { sliceOf } from "./eval_slice.ts";
import type {
  EvalSession,
  RenderedResult,
  RenderedSlice,
  WorkerReply,
  WorkerRequest,
} from "./eval_types.ts";
import { iterateTraceFiles } from "./inputs.ts";

let session: Promise<EvalSession> | undefined;
let sessionArgs: string | undefined;

const NO_IO: CliIO = {
  stdout: () => {},
  stderr: () => {},
  color: false,
  progress: false,
  stdin: () => Promise.resolve(""),
};

/**
 * Score a slice of files on this thread (what a worker does, and the fallback
 * when workers cannot start).
 *
 * @param args The `eval` arguments.
 * @param files The files of the slice.
 * @param color Whether to colour console output.
 * @returns The slice's rendered reports, in file order.
 */
export async function fallbackScore(
  args: string[],
  files: string[],
  color: boolean,
): Promise<RenderedSlice> {
  const key = JSON.stringify(args);
  if (session === undefined || sessionArgs !== key) {
    session = prepareEval(args);
    sessionArgs = key;
  }
  const ready = await session;
  const out: RenderedResult[] = [];
  for await (const batch of iterateTraceFiles(files, NO_IO, ready.run.settings.format)) {
    for (const named of batch) out.push(renderScored(ready, ready.score(named), color));
  }
  return sliceOf(out, ready.values.json === true, color);
}

// Runs only inside a worker (a global `WorkerGlobalScope` has `self.postMessage`).
const scope = globalThis as unknown as {
  onmessage?: (event: MessageEvent<WorkerRequest>) => void;
  postMessage?: (message: WorkerReply, transfer?: Transferable[]) => void;
  WorkerGlobalScope?: unknown;
};
if (scope.WorkerGlobalScope !== undefined) {
  scope.onmessage = async (event: MessageEvent<WorkerRequest>) => {
    const { args, files, color, id } = event.data;
    try {
      const slice = await fallbackScore(args, files, color);
      // The bytes move to the main thread, not copied.
      scope.postMessage?.({ id, slice }, [slice.bytes.buffer as ArrayBuffer]);
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      scope.postMessage?.({ id, error: { name, message } });
    }
  };
}
