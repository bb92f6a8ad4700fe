/**
 * One writer per output (issue 29): `agent run` holds an exclusive lock on
 * `OUT.lock` (`Deno.FsFile.tryLock(true)`) from before it reads the output
 * until it ends. The operating system releases the lock when the process
 * dies, however it dies, so there is no stale-pid logic: the pid and host
 * written into the file are only for the message a second process prints.
 *
 * The lock file is left in place when the run ends: removing it could let
 * two writers in (one still holding the old file, one locking a new one).
 *
 * @module
 */

import { InputError } from "../base/errors.ts";

/**
 * Another process writes the output. The CLI exits 2.
 *
 * @example Usage
 * ```ts
 * import { OutputLockedError } from "./output_lock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new OutputLockedError("pid 7 is writing it", "runs.jsonl").name, "OutputLockedError");
 * ```
 */
export class OutputLockedError extends InputError {
  /**
   * Create the error.
   *
   * @param message Who holds the lock and what to do.
   * @param where The output file.
   */
  constructor(message: string, where: string) {
    super(message, where);
    this.name = "OutputLockedError";
  }
}

/** A held lock. */
export interface OutputLock {
  /** The lock file. */
  path: string;
  /** Release the lock (closing the file). */
  release(): void;
}

/**
 * The lock file of an output.
 *
 * @param output The JSONL file.
 * @returns `OUT.lock`.
 *
 * @example Usage
 * ```ts
 * import { lockPathOf } from "./output_lock.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lockPathOf("results/runs.jsonl"), "results/runs.jsonl.lock");
 * ```
 */
export function lockPathOf(output: string): string {
  return `${output}.lock`;
}

function hostname(): string | null {
  try {
    return Deno.hostname();
  } catch {
    return null; // without --allow-sys the pid alone names the holder
  }
}

async function holder(file: Deno.FsFile): Promise<string> {
  try {
    const bytes = new Uint8Array(512);
    const read = await file.read(bytes);
    const value = JSON.parse(new TextDecoder().decode(bytes.subarray(0, read ?? 0)));
    const host = typeof value.host === "string" ? ` on ${value.host}` : "";
    return typeof value.pid === "number" ? `pid ${value.pid}${host}` : "another process";
  } catch {
    return "another process";
  }
}

/**
 * Take the output's lock, or fail at once naming its holder.
 *
 * @param output The JSONL file (its folder must exist).
 * @returns The held lock.
 * @throws {OutputLockedError} When another process holds it.
 * @throws {InputError} When the lock file cannot be opened.
 *
 * @example Usage
 * ```ts ignore
 * import { lockOutput } from "./output_lock.ts";
 *
 * const lock = await lockOutput("runs.jsonl");
 * try {
 *   // write runs.jsonl
 * } finally {
 *   lock.release();
 * }
 * ```
 */
export async function lockOutput(output: string): Promise<OutputLock> {
  const path = lockPathOf(output);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true, create: true });
  } catch (error) {
    const denied = error instanceof Deno.errors.NotCapable ||
      error instanceof Deno.errors.PermissionDenied;
    throw new InputError(
      `cannot open the lock file (${(error as Error).message})${
        denied ? `; add ${path} to --allow-write` : ""
      }`,
      path,
    );
  }
  let locked: boolean;
  try {
    locked = await file.tryLock(true);
  } catch (error) {
    file.close();
    throw new InputError(`cannot lock (${(error as Error).message})`, path);
  }
  if (!locked) {
    const who = await holder(file);
    file.close();
    throw new OutputLockedError(
      `${who} is writing it (it holds ${path}); wait for that agent run to end, or stop it, ` +
        "then run again — or write to another -o",
      output,
    );
  }
  const note = `${JSON.stringify({ pid: Deno.pid, host: hostname() })}\n`;
  try {
    await file.truncate(0);
    await file.seek(0, Deno.SeekMode.Start);
    await file.write(new TextEncoder().encode(note));
  } catch {
    // The note is only for a second process's message; the lock is what counts.
  }
  return {
    path,
    release() {
      try {
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}
