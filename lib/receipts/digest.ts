/**
 * `fileDigest()`: the size and SHA-256 of a file, read in fixed-size chunks so
 * that a gigabyte trace never sits in memory at once.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { InputError } from "../base/errors.ts";
import { fileError } from "../base/load.ts";
import { assertRegularFile } from "./regular_file.ts";

/** The digest of one file. */
export interface FileDigest {
  /** The path, as given. */
  path: string;
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  /** The size in bytes. */
  bytes: number;
}

// 1 MiB: large enough that the per-read overhead vanishes, small enough to not matter.
const CHUNK = 1 << 20;

/**
 * The SHA-256 and size of a file's bytes, streamed in 1 MiB chunks.
 *
 * @param path The file.
 * @returns `{path, sha256, bytes}`, the path as given.
 * @throws {InputError} When the file is missing, unreadable or not a regular file.
 *
 * @example Usage
 * ```ts ignore
 * import { fileDigest } from "@toolscore/cli";
 *
 * const { sha256, bytes } = await fileDigest("trace.json");
 * ```
 */
export async function fileDigest(path: string): Promise<FileDigest> {
  assertRegularFile(path); // before opening: a FIFO would block the open itself
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    throw fileError(error, path);
  }
  try {
    const info = await file.stat();
    if (!info.isFile) throw new InputError("not a regular file", path);
    const hash = createHash("sha256");
    const buffer = new Uint8Array(CHUNK);
    let bytes = 0;
    for (;;) {
      const n = await file.read(buffer);
      if (n === null) break;
      hash.update(buffer.subarray(0, n));
      bytes += n;
    }
    return { path, sha256: hash.digest("hex"), bytes };
  } catch (error) {
    throw fileError(error, path);
  } finally {
    file.close();
  }
}
