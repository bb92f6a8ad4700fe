/**
 * A receipt's inputs must be regular files (issue 42): a FIFO named as a
 * trace would make `verify` or `regrade` wait forever for a writer, a device
 * (`/dev/zero`) would be read without end. {@linkcode assertRegularFile}
 * checks with `stat` (links followed) before anything opens the path.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { fileError } from "../base/load.ts";

function kind(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo === true) return "a FIFO";
  if (info.isSocket === true) return "a socket";
  if (info.isCharDevice === true || info.isBlockDevice === true) return "a device";
  return "not a regular file";
}

/**
 * Refuse a path that is not a regular file, without opening it.
 *
 * @param path The file.
 * @returns Its file info.
 * @throws {InputError} When the path is missing, unreadable, or a FIFO, socket, device or directory.
 *
 * @example Usage
 * ```ts
 * import { assertRegularFile } from "./regular_file.ts";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => assertRegularFile("/dev/null"), /a device, not a regular file/);
 * ```
 */
export function assertRegularFile(path: string): Deno.FileInfo {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    throw fileError(error, path);
  }
  if (!info.isFile) {
    throw new InputError(
      `${kind(info)}, not a regular file: a receipt's inputs must be regular files`,
      path,
    );
  }
  return info;
}
