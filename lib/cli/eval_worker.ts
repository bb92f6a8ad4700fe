/**
 * The worker thread of {@linkcode scoreInWorkers}: prepares an `eval`
 * session from the command's arguments once, then scores the slices of files
 * it is sent and answers with rendered reports.
 *
 * @module
 */

import type { CliIO } from "./command.ts";
import { withOwnSequences } from "../base/terminal_safe.ts";
import { prepareEval, renderScored } from "./eval_session.ts";
import { joinSlices, RENDER_BATCH, sliceOf } from "./eval_slice.ts";
import type {
  EvalSession,
  RenderedResult,
  RenderedSlice,
  WorkerReply,
  WorkerRequest,
} from "./eval_types.ts";
import { readTraceFiles } from "./inputs.ts";
import { unknownOf, type UnknownTrace } from "./eval_console.ts";
import { readingNotes } from "./reading_notes.ts";

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
 * Score a slice of files with a prepared session on this thread: what a worker
 * does with each slice, and what the main thread does with the slices it
 * takes. The readers' notes come back as stderr lines, for the command to
 * print in file order.
 *
 * @param ready The session.
 * @param files The files of the slice.
 * @param color Whether to colour console output.
 * @param walked The files that came from a folder walk (strays skipped, unreadable ones reported).
 * @returns The slice's rendered reports, in file order.
 */
export async function scoreSlice(
  ready: EvalSession,
  files: string[],
  color: boolean,
  walked: ReadonlySet<string> = new Set(),
): Promise<RenderedSlice> {
  const json = ready.values.json === true;
  const parts: RenderedSlice[] = [];
  let out: RenderedResult[] = [];
  const notes: string[] = [];
  const noteIO: CliIO = { ...NO_IO, stderr: (text) => void notes.push(text) };
  const strays: string[] = [];
  const unknown: UnknownTrace[] = [];
  const inputErrors: string[] = [];
  const onRunError = (error: Error) => void inputErrors.push(error.message);
  const reads = readTraceFiles(files, NO_IO, ready.run.settings.format, {
    walked,
    collectErrors: true,
    onRunError,
  });
  for await (const read of reads) {
    if (read.stray === true) strays.push(read.file);
    if (read.error !== undefined) unknown.push(unknownOf(read.file, read.error));
    const batch = read.traces;
    readingNotes(batch, noteIO, ready.folder !== undefined);
    for (const named of batch) out.push(renderScored(ready, ready.score(named), color));
    if (out.length >= RENDER_BATCH) {
      parts.push(sliceOf(out, json, color));
      out = [];
    }
  }
  parts.push(sliceOf(out, json, color));
  const slice = joinSlices(parts, json);
  return {
    ...slice,
    ...(notes.length > 0 ? { notes } : {}),
    ...(strays.length > 0 ? { strays } : {}),
    ...(unknown.length > 0 ? { unknown } : {}),
    ...(inputErrors.length > 0 ? { inputErrors } : {}),
  };
}

/**
 * Score a slice of files in a worker: the session is prepared from the
 * command's arguments on the first slice and kept.
 *
 * @param args The `eval` arguments.
 * @param files The files of the slice.
 * @param color Whether to colour console output.
 * @param walked The files that came from a folder walk (strays skipped, unreadable ones reported).
 * @param consoleLines Whether the console prints one line per trace (blocks not rendered).
 * @returns The slice's rendered reports, in file order.
 */
export async function workerScore(
  args: string[],
  files: string[],
  color: boolean,
  walked: readonly string[] = [],
  consoleLines = false,
): Promise<RenderedSlice> {
  const key = JSON.stringify(args);
  if (session === undefined || sessionArgs !== key) {
    session = prepareEval(args);
    sessionArgs = key;
  }
  const ready = await session;
  ready.consoleLines = consoleLines;
  // Own colour codes marked, as in `runCli`: the slice's escaping keeps only those.
  return withOwnSequences(() => scoreSlice(ready, files, color, new Set(walked)));
}

// Runs only inside a worker (a global `WorkerGlobalScope` has `self.postMessage`).
const scope = globalThis as unknown as {
  onmessage?: (event: MessageEvent<WorkerRequest>) => void;
  postMessage?: (message: WorkerReply, transfer?: Transferable[]) => void;
  WorkerGlobalScope?: unknown;
};
if (scope.WorkerGlobalScope !== undefined) {
  scope.onmessage = async (event: MessageEvent<WorkerRequest>) => {
    const { args, files, walked, consoleLines, color, id } = event.data;
    try {
      const slice = await workerScore(args, files, color, walked, consoleLines);
      // The bytes move to the main thread, not copied.
      scope.postMessage?.({ id, slice }, [slice.bytes.buffer as ArrayBuffer]);
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      scope.postMessage?.({ id, error: { name, message } });
    }
  };
}
