/**
 * After a run, its work folder (`${TOOLSCORE_RUN_DIR}`: what the server
 * wrote, e.g. the memory server's `memory.jsonl`) loses every secret: a text
 * file (valid UTF-8 without NUL bytes) is redacted in place, a binary file
 * that holds a secret (as UTF-8 or UTF-16) is deleted, and so is a file too
 * large to check ({@linkcode MAX_SCRUB_BYTES}); the deleted ones are named
 * in the row's notes. Symbolic links are not followed (nor changed); the
 * walk stops at {@linkcode MAX_SCRUB_ENTRIES} entries, deleting what it did
 * not reach, so that no file goes unchecked.
 *
 * @module
 */

import { join, relative } from "node:path";
import { writeTextFileAtomic } from "../base/atomic_write.ts";
import type { Redactor } from "./keys.ts";

/** The largest file checked; a larger one is deleted. */
export const MAX_SCRUB_BYTES = 64 * 1024 * 1024;
/** The most entries walked in one work folder. */
export const MAX_SCRUB_ENTRIES = 10_000;

/** What {@linkcode scrubFolder} did. */
export interface ScrubResult {
  /** Text files rewritten, relative to the folder. */
  redacted: string[];
  /** Files deleted, relative to the folder, with why. */
  deleted: { path: string; why: string }[];
}

function isText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Redact a folder's files in place.
 *
 * @param folder The folder (absent: nothing to do).
 * @param redactor The secrets.
 * @returns The files changed and deleted.
 *
 * @example Usage
 * ```ts
 * import { Redactor } from "./keys.ts";
 * import { scrubFolder } from "./scrub_work.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/memory.jsonl`, '{"o":"sk-secret-value-1"}\n');
 * await Deno.writeFile(`${dir}/blob.bin`, new Uint8Array([0, 1, ...new TextEncoder().encode("sk-secret-value-1")]));
 * const result = await scrubFolder(dir, new Redactor(["sk-secret-value-1"]));
 * assert.equal(await Deno.readTextFile(`${dir}/memory.jsonl`), '{"o":"***"}\n');
 * assert.deepEqual(result.deleted.map((d) => d.path), ["blob.bin"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function scrubFolder(folder: string, redactor: Redactor): Promise<ScrubResult> {
  const result: ScrubResult = { redacted: [], deleted: [] };
  if (redactor.empty) return result;
  let seen = 0;
  const remove = async (path: string, why: string) => {
    await Deno.remove(path, { recursive: true }).catch(() => {});
    result.deleted.push({ path: relative(folder, path).replaceAll("\\", "/"), why });
  };
  async function walk(dir: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return; // gone, or not a folder
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (++seen > MAX_SCRUB_ENTRIES) {
        await remove(path, `more than ${MAX_SCRUB_ENTRIES} files to check`);
        continue;
      }
      if (entry.isSymlink) continue;
      if (entry.isDirectory) {
        await walk(path);
        continue;
      }
      if (!entry.isFile) continue;
      const size = (await Deno.lstat(path)).size;
      if (size > MAX_SCRUB_BYTES) {
        await remove(path, `larger than ${MAX_SCRUB_BYTES / 1024 / 1024} MiB: not checked`);
        continue;
      }
      const bytes = await Deno.readFile(path);
      const text = isText(bytes);
      if (text === undefined) {
        if (redactor.holds(bytes)) await remove(path, "a binary file that held a secret");
        continue;
      }
      const clean = redactor.text(text);
      if (clean !== text) {
        await writeTextFileAtomic(path, clean);
        result.redacted.push(relative(folder, path).replaceAll("\\", "/"));
      }
    }
  }
  await walk(folder);
  return result;
}
