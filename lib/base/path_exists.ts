/**
 * Whether a path names anything, without following a last symbolic link.
 *
 * @module
 */

/**
 * Whether `path` names a file, folder, link or device (`lstat`: a dangling
 * link exists). Any error but "not found" (no permission, say) is thrown.
 *
 * @param path The path.
 * @returns `true` when something is there.
 *
 * @example Usage
 * ```ts
 * import { pathExists } from "./path_exists.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await pathExists("/"), true);
 * assert.equal(await pathExists("/no/such/toolscore/path"), false);
 * ```
 */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
