/**
 * What `agent run` prints passes through its {@linkcode Redactor}: stdout,
 * stderr (progress, notes, the final table, `--json`) and the error that
 * ends it, message and stack (what `TOOLSCORE_DEBUG=1` prints) included.
 *
 * @module
 */

import type { Redactor } from "../agent/keys.ts";
import type { CliIO } from "./command.ts";

/**
 * The same streams, every text redacted.
 *
 * @param io The streams.
 * @param redactor The secrets.
 * @returns Streams that hide them (raw bytes go through `stdout` too).
 *
 * @example Usage
 * ```ts
 * import { Redactor } from "../agent/keys.ts";
 * import { redactedIO } from "./redacted_io.ts";
 * import assert from "node:assert/strict";
 *
 * let out = "";
 * const io = redactedIO({
 *   stdout: (text) => out += text,
 *   stderr: () => {},
 *   color: false,
 *   progress: false,
 *   stdin: () => Promise.resolve(""),
 * }, new Redactor(["sk-live-000000"]));
 * io.stdout("key sk-live-000000\n");
 * assert.equal(out, "key ***\n");
 * ```
 */
export function redactedIO(io: CliIO, redactor: Redactor): CliIO {
  if (redactor.empty) return io;
  return {
    color: io.color,
    progress: io.progress,
    stdin: () => io.stdin(),
    stdout: (text) => io.stdout(redactor.text(text)),
    stderr: (text) => io.stderr(redactor.text(text)),
  };
}

/**
 * An error with every secret hidden in its message and stack (changed in place).
 *
 * @param error What was thrown.
 * @param redactor The secrets.
 * @returns The same error.
 *
 * @example Usage
 * ```ts
 * import { Redactor } from "../agent/keys.ts";
 * import { redactedError } from "./redacted_io.ts";
 * import assert from "node:assert/strict";
 *
 * const error = redactedError(new Error("bad sk-live-000000"), new Redactor(["sk-live-000000"]));
 * assert.equal((error as Error).message, "bad ***");
 * assert.doesNotMatch((error as Error).stack ?? "", /sk-live/);
 * ```
 */
export function redactedError(error: unknown, redactor: Redactor): unknown {
  if (!(error instanceof Error) || redactor.empty) return error;
  error.message = redactor.text(error.message);
  if (error.stack !== undefined) error.stack = redactor.text(error.stack);
  if (error.cause !== undefined) redactedError(error.cause, redactor);
  return error;
}
