/**
 * The machine's name for a JUnit suite's `hostname` (issue 33), read only
 * where a permission already allows it, so it never prompts: Deno's
 * `hostname()` under `--allow-sys=hostname`, else `$HOSTNAME` when that
 * variable may be read, else nothing (the attribute is left out).
 *
 * @module
 */

import type { SuiteAttributes } from "../report/junit.ts";

/**
 * The machine's name, when a granted permission allows reading it.
 *
 * @returns `{ hostname }`, or `{}`.
 *
 * @example Usage
 * ```ts
 * import { hostnameInfo } from "./host_name.ts";
 * import assert from "node:assert/strict";
 *
 * const info = hostnameInfo();
 * assert.ok(info.hostname === undefined || info.hostname.length > 0);
 * ```
 */
export function hostnameInfo(): { hostname?: string } {
  try {
    if (Deno.permissions.querySync({ name: "sys", kind: "hostname" }).state === "granted") {
      return { hostname: Deno.hostname() };
    }
    if (Deno.permissions.querySync({ name: "env", variable: "HOSTNAME" }).state === "granted") {
      const name = Deno.env.get("HOSTNAME");
      if (name !== undefined && name !== "") return { hostname: name };
    }
  } catch {
    // No permission API (a sandbox): no host name.
  }
  return {};
}

/**
 * A run's `startedAt`, `seconds` (until now) and `hostname`.
 *
 * @param startedAt When the run started (epoch milliseconds).
 * @returns The suite's where and when.
 *
 * @example Usage
 * ```ts
 * import { suiteWhere } from "./host_name.ts";
 * import assert from "node:assert/strict";
 *
 * const where = suiteWhere(Date.now() - 1500);
 * assert.ok(where.seconds! >= 1.5);
 * ```
 */
export function suiteWhere(startedAt: number): SuiteAttributes {
  return { startedAt, seconds: (Date.now() - startedAt) / 1000, ...hostnameInfo() };
}
