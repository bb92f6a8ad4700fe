/**
 * What the trace readers said, for stderr: a file's notes and skipped items,
 * and a warning when one expected file scores several tasks' runs. Shared by
 * `eval` on the main thread and its worker threads.
 *
 * @module
 */

import type { CliIO } from "./command.ts";
import type { NamedTrace } from "./inputs.ts";

/**
 * What the reader said about a file's traces, on stderr: each trace's notes
 * (a chat with no tool calls…) and skipped items, and a warning when one
 * gold file or contract scores the runs of several different tasks.
 *
 * @param batch The traces of one file.
 * @param io Where to write.
 * @param ownContracts GOLD is a folder of contracts (issue 43): each task has its own, no warning.
 */
export function readingNotes(batch: readonly NamedTrace[], io: CliIO, ownContracts = false): void {
  for (const { name, trace } of batch) {
    for (const note of trace.notes ?? []) io.stderr(`note: ${name}: ${note}\n`);
    for (const skip of trace.skipped ?? []) {
      io.stderr(
        `note: ${name}: skipped ${skip.count} item${
          skip.count === 1 ? "" : "s"
        } of type ${skip.type}\n`,
      );
    }
  }
  const tasks = [...new Set(batch.flatMap(({ trace }) => trace.run ? [trace.run.task] : []))];
  if (tasks.length > 1 && !ownContracts) {
    const shown = tasks.length <= 5 ? tasks.join(", ") : `${tasks.slice(0, 5).join(", ")}, …`;
    io.stderr(
      `warning: ${batch[0]?.file} holds runs of ${tasks.length} different tasks (${shown}), ` +
        "all scored against the one expected file; score each task against its own contract " +
        "(GOLD a folder of contracts)\n",
    );
  }
}
