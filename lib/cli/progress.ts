/**
 * A progress line on stderr for long work (many traces): redrawn in place
 * when stderr is a terminal, silent otherwise (CI logs stay clean). It waits
 * half a second before drawing, so short runs never flicker, and redraws at
 * most ten times a second.
 *
 * @module
 */

import type { CliIO } from "./command.ts";
import { ownSequence } from "../base/terminal_safe.ts";

/** A progress line. */
export interface Progress {
  /**
   * Report progress.
   *
   * @param done Units done.
   */
  update(done: number): void;
  /** Clear the line. */
  done(): void;
}

/**
 * A progress line for `total` units of work, labelled `label`.
 *
 * @param io Where to draw (only when `io.progress` is true).
 * @param label What is being done, e.g. `scoring`.
 * @param total How many units there are.
 * @param now The clock, in milliseconds (for tests).
 * @returns The progress line.
 *
 * @example Usage
 * ```ts
 * import { progressLine } from "./progress.ts";
 * import assert from "node:assert/strict";
 *
 * let drawn = "";
 * let clock = 0;
 * const io = {
 *   stdout: () => {},
 *   stderr: (t: string) => void (drawn += t),
 *   color: false,
 *   progress: true,
 *   stdin: () => Promise.resolve(""),
 * };
 * const line = progressLine(io, "scoring", 10, () => clock);
 * clock = 600;
 * line.update(5);
 * line.done();
 * assert.equal(drawn, "\r\x1b[2Kscoring: 5/10 files\r\x1b[2K");
 * ```
 */
export function progressLine(
  io: CliIO,
  label: string,
  total: number,
  now: () => number = () => performance.now(),
): Progress {
  const start = now();
  let last = -Infinity;
  let drawn = false;
  return {
    update(done: number) {
      if (!io.progress) return;
      const time = now();
      if (time - start < 500 || time - last < 100) return;
      last = time;
      drawn = true;
      io.stderr(`${ownSequence("\r\x1b[2K")}${label}: ${done}/${total} files`);
    },
    done() {
      if (drawn) io.stderr(ownSequence("\r\x1b[2K"));
    },
  };
}
