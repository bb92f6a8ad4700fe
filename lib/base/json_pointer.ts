/**
 * JSON Pointers (as Ajv reports them) turned into the JSON paths our error
 * messages use.
 *
 * @module
 */

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

/**
 * Append a key or index to a JSON path: `required[1]` + `tool` → `required[1].tool`.
 *
 * @param path The path so far (`""` for the root).
 * @param key An object key or an array index.
 * @returns The longer path.
 *
 * @example Usage
 * ```ts
 * import { joinPath } from "./json_pointer.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(joinPath(joinPath("required", 1), "tool"), "required[1].tool");
 * assert.equal(joinPath("", 0), "[0]");
 * ```
 */
export function joinPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  const safe = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
  return path === "" ? safe : /^[A-Za-z_$]/.test(safe) ? `${path}.${safe}` : `${path}[${safe}]`;
}
