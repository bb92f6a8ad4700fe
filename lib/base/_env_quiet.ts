/**
 * Internal: `@lezer/lr` reads `process.env.LOG` when its module is
 * evaluated (a debug switch). In Deno that read needs `--allow-env`, and
 * scoring runs with `--allow-read` only: without the permission the read
 * throws (or prompts). While lezer's modules load, `process.env` is an
 * empty object when the environment may not be read, and is put back right
 * after (`_lezer.ts`, and `require` in `_lazy.ts`). With the permission
 * nothing is changed.
 *
 * @module
 */

import process from "node:process";

let saved: PropertyDescriptor | undefined;

/** Hide `process.env` when the environment may not be read (idempotent). */
export function hideEnv(): void {
  if (saved !== undefined) return;
  try {
    if (Deno.permissions.querySync({ name: "env", variable: "LOG" }).state === "granted") return;
  } catch {
    // no permission API: hide it
  }
  saved = Object.getOwnPropertyDescriptor(process, "env");
  Object.defineProperty(process, "env", { value: {}, configurable: true, writable: true });
}

/** Put `process.env` back. */
export function restoreEnv(): void {
  if (saved === undefined) return;
  Object.defineProperty(process, "env", saved);
  saved = undefined;
}
