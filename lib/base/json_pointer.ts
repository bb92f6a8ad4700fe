/**
 * JSON Pointers (as Ajv reports them) turned into the JSON paths our error
 * messages use.
 *
 * @module
 */

import { joinPath } from "../scoring/calls.ts";

/**
 * A JSON Pointer (`/arms/1/model`) as a JSON path (`arms[1].model`).
 *
 * @param pointer The pointer; `""` is the whole document.
 * @returns The path; `""` for the whole document.
 *
 * @example Usage
 * ```ts
 * import { pointerToPath } from "./json_pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pointerToPath("/arms/1/model"), "arms[1].model");
 * assert.equal(pointerToPath("/env/a~1b"), `env["a/b"]`);
 * assert.equal(pointerToPath(""), "");
 * ```
 */
export function pointerToPath(pointer: string): string {
  let path = "";
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    path = joinPath(path, /^\d+$/.test(key) ? Number(key) : key);
  }
  return path;
}
