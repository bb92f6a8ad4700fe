/**
 * What `agent run` gives each run's server (`${TOOLSCORE_RUN_DIR}`, a fresh
 * folder, and `${TOOLSCORE_RUN_ID}`), as placeholders for `doctor --spec`
 * and `agent run --dry-run`, which start the server once outside any run:
 * an empty folder made for the check and removed after it (where the
 * folder cannot be made, e.g. under a narrowed `--allow-write`, a path that
 * does not exist), and the id `doctor`.
 *
 * @module
 */

import { join } from "node:path";

/** The placeholder values and how to clean up. */
export interface RunPlaceholders {
  /** `TOOLSCORE_RUN_DIR` and `TOOLSCORE_RUN_ID`. */
  values: Readonly<Record<string, string>>;
  /** Removes the folder made. */
  dispose(): Promise<void>;
}

/** The id a check's server gets as `${TOOLSCORE_RUN_ID}`. */
export const PLACEHOLDER_RUN_ID = "doctor";

/**
 * Make the placeholders.
 *
 * @returns The values and `dispose`.
 *
 * @example Usage
 * ```ts
 * import { runPlaceholders } from "./run_placeholders.ts";
 * import assert from "node:assert/strict";
 *
 * const run = await runPlaceholders();
 * assert.equal(run.values.TOOLSCORE_RUN_ID, "doctor");
 * await run.dispose();
 * ```
 */
export async function runPlaceholders(): Promise<RunPlaceholders> {
  let made: string | undefined;
  try {
    made = await Deno.makeTempDir({ prefix: "toolscore-run-dir-" });
  } catch {
    // No write access to the temp folder: a path the server may not create things in.
  }
  const dir = made ??
    join(Deno.build.os === "windows" ? "C:\\Temp" : "/tmp", "toolscore-run-dir-placeholder");
  return {
    values: { TOOLSCORE_RUN_DIR: dir, TOOLSCORE_RUN_ID: PLACEHOLDER_RUN_ID },
    dispose: async () => {
      if (made !== undefined) await Deno.remove(made, { recursive: true }).catch(() => {});
    },
  };
}
