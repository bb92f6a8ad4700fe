/**
 * Paths inside receipts: written relative to the receipt's folder, and read
 * back only when they stay inside it or the current directory (or inside a
 * root folder the caller names). A receipt is a file anyone can hand
 * you; an input named `../../etc/passwd` or `/etc/shadow` must be reported,
 * never opened, unless the caller opts in.
 *
 * Internal to the receipts module (not exported from `mod.ts`).
 *
 * @module
 */

import {
  basename,
  dirname,
  extname,
  isAbsolute,
  join,
  posix,
  relative,
  resolve,
  sep,
  win32,
} from "node:path";
import { InputError, UsageError } from "../base/errors.ts";

/**
 * How to write a path into a receipt: relative to `folder` (with `/`
 * separators), or as given when there is no folder or no relative form.
 *
 * @param path The path as the caller knows it (relative to the working directory, or absolute).
 * @param folder The receipt's folder, or `undefined` to keep `path` as given.
 * @returns The path to store.
 */
export function storedPath(path: string, folder: string | undefined): string {
  if (folder === undefined) return path;
  const rel = relative(resolve(folder), resolve(path));
  if (rel === "") return ".";
  if (isAbsolute(rel)) return path; // another drive: no relative form
  return sep === "\\" ? rel.replaceAll("\\", "/") : rel;
}

/** Where a stored input path leads: a path to read, or why it must not be read. */
export type InputLocation = { path: string; problem?: undefined } | {
  path?: undefined;
  problem: string;
};

function outside(from: string, to: string): boolean {
  const rel = relative(from, to);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** Options for {@linkcode locateInput}. */
export interface LocateOptions {
  /** Read inputs anywhere (absolute paths, `..`, links out). */
  allowOutside?: boolean;
  /**
   * The folder inputs must stay inside. When absent, an input may lie under
   * the receipt's folder or under the current directory (the project root a
   * receipt written by `eval --receipt-dir` is verified from).
   */
  root?: string;
}

/**
 * Resolve a receipt's input path against the receipt's folder, refusing one
 * that leads outside the allowed folders — by an absolute path, by `..` or
 * through a symbolic link — unless `allowOutside`. The allowed folders are
 * `root` when given, else the receipt's folder and the current directory.
 *
 * @param stored The path as written in the receipt.
 * @param base The folder relative paths resolve against (the receipt's).
 * @param options Whether to read inputs anywhere; the folder they must stay in.
 * @returns The path to read, or the problem (the file is not touched).
 */
export async function locateInput(
  stored: string,
  base: string,
  options: LocateOptions = {},
): Promise<InputLocation> {
  const allowOutside = options.allowOutside ?? false;
  const roots = options.root === undefined ? [base, "."] : [options.root];
  const where = options.root === undefined
    ? "the receipt directory and the current directory"
    : options.root;
  const absolute = posix.isAbsolute(stored) || win32.isAbsolute(stored);
  const path = absolute ? stored : join(base, stored);
  if (allowOutside) return { path };
  const how = absolute ? " (absolute path)" : "";
  const inside = roots.filter((root) => !outside(resolve(root), resolve(path)));
  if (inside.length === 0) return { problem: `input escapes ${where}${how}; not read` };
  let realPath: string;
  try {
    realPath = await Deno.realPath(path);
  } catch {
    return { path }; // missing: reading it reports that
  }
  for (const root of inside) {
    try {
      if (!outside(await Deno.realPath(root), realPath)) return { path };
    } catch {
      // an unreadable root admits nothing
    }
  }
  return { problem: `input escapes ${where} (through a symbolic link); not read` };
}

/**
 * Whether a stored input path leads outside the receipt's folder (absolute or `..`).
 *
 * @param stored The path as written in the receipt.
 * @returns `true` when verifying it needs a wider root or an opt-in.
 */
export function leavesFolder(stored: string): boolean {
  return posix.isAbsolute(stored) || win32.isAbsolute(stored) || stored === ".." ||
    stored.startsWith("../");
}

/**
 * The file name of a trace's receipt: the trace's name without its
 * extension (or without `.receipt.json`), the trace's index within a file
 * that holds several, an optional tag, then `.receipt.json`:
 * `run1.json` → `run1.receipt.json`, `runs.jsonl` #3 → `runs.3.receipt.json`,
 * `run1.receipt.json` tagged `regraded` → `run1.regraded.receipt.json`.
 *
 * @param path The trace (or receipt) path.
 * @param index The trace's 1-based index within its file, if it holds several.
 * @param tag A word to add before `.receipt.json`.
 * @returns The file name (no folder).
 */
export function receiptFileName(path: string, index?: number, tag?: string): string {
  let stem = basename(path);
  if (stem.toLowerCase().endsWith(".receipt.json")) stem = stem.slice(0, -".receipt.json".length);
  else stem = stem.slice(0, stem.length - extname(stem).length) || stem;
  const parts = [stem, index === undefined ? undefined : String(index), tag];
  return `${parts.filter((p) => p !== undefined).join(".")}.receipt.json`;
}

/**
 * Refuse a set of receipt paths in which two are the same file, or one is an
 * input (a receipt must never overwrite what it vouches for).
 *
 * @param targets The receipt paths about to be written.
 * @param inputs The input files of the run.
 * @throws {UsageError} Naming the clash.
 */
export function checkReceiptTargets(targets: string[], inputs: (string | undefined)[]): void {
  const seen = new Map<string, string>();
  const inputSet = new Set(
    inputs.filter((p) => p !== undefined && p !== "-").map((p) => resolve(p!)),
  );
  for (const target of targets) {
    const key = resolve(target);
    if (inputSet.has(key)) {
      throw new UsageError(
        `the receipt ${target} would overwrite an input file; choose another path`,
      );
    }
    const other = seen.get(key);
    if (other !== undefined) {
      throw new UsageError(
        `two traces would write the same receipt ${target}; give each its own path ` +
          "(--receipt-dir with distinct trace names, or --receipt beside each trace)",
      );
    }
    seen.set(key, target);
  }
}

/**
 * Create the folder receipts go into (with its parents), turning a missing
 * permission into a one-line {@linkcode InputError}.
 *
 * @param dir The folder.
 * @throws {InputError} When it cannot be created.
 */
export async function makeReceiptDir(dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    const denied = error instanceof Deno.errors.NotCapable ||
      error instanceof Deno.errors.PermissionDenied;
    const why = denied
      ? "no permission to create it; run deno with --allow-write for this path"
      : `cannot create it (${error instanceof Error ? error.message : String(error)})`;
    throw new InputError(why, dir, { cause: error });
  }
}

/**
 * The nearest folder that holds a receipt's folder and all its inputs, as a
 * path relative to the working directory (`.` when that is it): what to pass
 * as `--root` to verify a receipt whose inputs lie outside its folder.
 *
 * @param receiptFolder The receipt's folder.
 * @param inputs The input paths, as the caller knows them.
 * @returns The folder.
 */
export function commonRoot(receiptFolder: string, inputs: string[]): string {
  let root = resolve(receiptFolder);
  for (const input of inputs) {
    const folder = dirname(resolve(input));
    while (outside(root, folder)) {
      const parent = dirname(root);
      if (parent === root) break;
      root = parent;
    }
  }
  const rel = relative(resolve("."), root);
  return rel === "" ? "." : isAbsolute(rel) ? root : rel;
}
