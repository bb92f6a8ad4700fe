/**
 * Atomic file writes: the text goes to a temporary file in the same folder,
 * which is then renamed over the target, so a failing run never leaves a
 * truncated or half-written output file. Deno's rename needs read and write
 * access to the folder.
 *
 * @module
 */

import { InputError } from "./errors.ts";

function writeError(error: unknown, path: string): InputError {
  if (error instanceof InputError) return error;
  if (error instanceof Deno.errors.NotFound) {
    return new InputError("cannot write: its folder does not exist", path, { cause: error });
  }
  if (error instanceof Deno.errors.NotCapable) {
    // Renaming the temporary file needs read access too, not only write.
    const kind = /Requires (\w+) access/.exec(error.message)?.[1] ?? "write";
    return new InputError(
      `no permission to write it (${kind} access is needed for the atomic write); ` +
        `run deno with --allow-read and --allow-write for its folder`,
      path,
      { cause: error },
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new InputError(
      "the file system refused the write; check the folder's permissions",
      path,
      {
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new InputError(`cannot write (${message})`, path, { cause: error });
}

/** Options for {@linkcode writeTextFileAtomic}. */
export interface WriteAtomicOptions {
  /**
   * Replace an existing file; when `false`, an existing target is an error
   * and is left untouched.
   * @default {true}
   */
  overwrite?: boolean;
}

function folderOf(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return slash === -1 ? "." : slash === 0 ? path.slice(0, 1) : path.slice(0, slash);
}

/**
 * Write a text file atomically (temporary file + rename).
 *
 * @param path The target file.
 * @param text The content.
 * @param options Whether an existing file may be replaced.
 * @throws {InputError} When the file exists and `overwrite` is false, or it
 * cannot be written (no permission, no such folder); the target is unchanged.
 *
 * @example Usage
 * ```ts ignore
 * import { writeTextFileAtomic } from "./atomic_write.ts";
 *
 * await writeTextFileAtomic("contract.json", '{"required": []}\n', { overwrite: false });
 * ```
 */
export async function writeTextFileAtomic(
  path: string,
  text: string,
  options: WriteAtomicOptions = {},
): Promise<void> {
  // Without overwrite, the name is reserved with an exclusive create (no
  // read permission needed, no race with another writer); the reservation is
  // removed again if anything fails.
  let reserved = false;
  if (options.overwrite === false) {
    try {
      (await Deno.open(path, { createNew: true, write: true })).close();
      reserved = true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw new InputError("already exists; choose another path or allow overwriting it", path);
      }
      throw writeError(error, path);
    }
  }
  let temp: string | undefined;
  try {
    temp = await Deno.makeTempFile({ dir: folderOf(path), prefix: ".toolscore-", suffix: ".tmp" });
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
    temp = undefined;
    reserved = false;
  } catch (error) {
    throw writeError(error, path);
  } finally {
    if (temp !== undefined) await Deno.remove(temp).catch(() => {});
    if (reserved) await Deno.remove(path).catch(() => {});
  }
}
