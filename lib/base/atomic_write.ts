/**
 * Atomic file writes: the text goes to a temporary file in the same folder,
 * which is then renamed over the target, so a failing run never leaves a
 * truncated or half-written output file. Deno's rename needs read and write
 * access to the folder.
 *
 * Issue 20: temporary files are named after their target and the writer's
 * process id (`.out.json.4242-1.toolscore.tmp`), are removed on SIGINT and
 * SIGTERM, and hold an exclusive lock while written, so the next write to the
 * same target removes one a killed writer left (SIGKILL) but never one a
 * running writer holds. New files get mode `0o666` less the umask, as any
 * tool's output does (`Deno.makeTempFile` made them 0600).
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

function nameOf(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return path.slice(slash + 1);
}

/** A temporary file being written for a target, locked while this process writes it. */
export interface TempFile {
  /** The temporary file: `.<target name>.<pid>-<n>.toolscore.tmp` beside the target. */
  readonly path: string;
  /** The open file (write access, exclusively locked). */
  readonly file: Deno.FsFile;
}

// Temp files of this process, removed on SIGINT and SIGTERM.
const ACTIVE = new Set<string>();
let counter = 0;
let listening = false;

const SIGNALS: readonly [Deno.Signal, number][] = [["SIGINT", 130], ["SIGTERM", 143]];
const handlers = new Map<Deno.Signal, () => void>();

function onSignal(code: number): void {
  for (const path of ACTIVE) {
    try {
      Deno.removeSync(path);
    } catch {
      // gone already, or not ours to remove
    }
  }
  Deno.exit(code);
}

function listen(on: boolean): void {
  if (on === listening) return;
  listening = on;
  for (const [signal, code] of SIGNALS) {
    try {
      if (on) {
        const handler = () => onSignal(code);
        handlers.set(signal, handler);
        Deno.addSignalListener(signal, handler);
      } else {
        const handler = handlers.get(signal);
        if (handler) Deno.removeSignalListener(signal, handler);
        handlers.delete(signal);
      }
    } catch {
      // a platform without this signal (SIGTERM on Windows)
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Remove temp files of this target left by a writer that died (SIGKILL, power loss): their
// lock is gone with their process. A running writer holds its lock, and its file is kept.
async function removeStale(folder: string, name: string): Promise<void> {
  const pattern = new RegExp(`^\\.${escapeRegExp(name)}\\.(\\d+)-\\d+\\.toolscore\\.tmp$`);
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(folder));
  } catch {
    return; // cannot list the folder: the write itself will say why, if it fails
  }
  for (const entry of entries) {
    if (!entry.isFile || !pattern.test(entry.name)) continue;
    const path = folder === "." ? entry.name : `${folder}/${entry.name}`;
    if (ACTIVE.has(path)) continue;
    let file: Deno.FsFile | undefined;
    try {
      file = await Deno.open(path, { write: true });
      if (await file.tryLock(true)) await Deno.remove(path);
    } catch {
      // not ours to judge
    } finally {
      file?.close();
    }
  }
}

/**
 * Create the temporary file for an atomic write of `target`: beside it,
 * named after it and this process's id, created with mode `0o666` (the
 * umask applies, as for any new file), exclusively locked, and removed
 * again if the process gets SIGINT or SIGTERM before
 * {@linkcode commitTempFile} or {@linkcode discardTempFile}. Stale temp
 * files of the same target whose writer died (even by SIGKILL) are removed
 * first; those of a writer still running are not.
 *
 * @param target The file the temporary file will replace.
 * @returns The temporary file, open for writing.
 * @throws {InputError} When it cannot be created.
 *
 * @example Usage
 * ```ts ignore
 * import { commitTempFile, openTempFile } from "./atomic_write.ts";
 *
 * const temp = await openTempFile("out.json");
 * await temp.file.write(new TextEncoder().encode("{}\n"));
 * await commitTempFile(temp, "out.json");
 * ```
 */
export async function openTempFile(target: string): Promise<TempFile> {
  const folder = folderOf(target);
  const name = nameOf(target);
  await removeStale(folder, name);
  const base = `.${name}.${Deno.pid}-${++counter}.toolscore.tmp`;
  const path = folder === "." ? base : `${folder}/${base}`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { createNew: true, write: true, mode: 0o666 });
  } catch (error) {
    throw writeError(error, target);
  }
  ACTIVE.add(path);
  listen(true);
  try {
    await file.lock(true);
  } catch {
    // a file system without locks: the file is still ours, and still cleaned on signals
  }
  return { path, file };
}

function release(temp: TempFile): void {
  try {
    temp.file.close();
  } catch {
    // closed already
  }
  ACTIVE.delete(temp.path);
  if (ACTIVE.size === 0) listen(false);
}

/**
 * Rename a temporary file over its target and close it.
 *
 * @param temp The temporary file from {@linkcode openTempFile}.
 * @param target The target.
 * @throws {InputError} When the rename fails (the temporary file is removed).
 */
export async function commitTempFile(temp: TempFile, target: string): Promise<void> {
  try {
    await Deno.rename(temp.path, target);
  } catch (error) {
    await discardTempFile(temp);
    throw writeError(error, target);
  }
  release(temp);
}

/**
 * Close and remove a temporary file that will not be used.
 *
 * @param temp The temporary file from {@linkcode openTempFile}.
 */
export async function discardTempFile(temp: TempFile): Promise<void> {
  try {
    temp.file.close();
  } catch {
    // closed already
  }
  await Deno.remove(temp.path).catch(() => {});
  release(temp);
}

/**
 * Write a text file atomically (temporary file + rename). The file is
 * created with mode `0o666` less the umask; the temporary file is named
 * after the target and the process, and removed on failure and on SIGINT
 * and SIGTERM (see {@linkcode openTempFile}).
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
      (await Deno.open(path, { createNew: true, write: true, mode: 0o666 })).close();
      reserved = true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw new InputError("already exists; choose another path or allow overwriting it", path);
      }
      throw writeError(error, path);
    }
  }
  try {
    const temp = await openTempFile(path);
    try {
      const bytes = new TextEncoder().encode(text);
      let written = 0;
      while (written < bytes.length) written += await temp.file.write(bytes.subarray(written));
    } catch (error) {
      await discardTempFile(temp);
      throw writeError(error, path);
    }
    await commitTempFile(temp, path);
    reserved = false;
  } finally {
    if (reserved) await Deno.remove(path).catch(() => {});
  }
}
