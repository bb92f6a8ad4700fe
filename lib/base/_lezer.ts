/**
 * Internal: lezer's Python, Java and JavaScript parsers, loaded with
 * `process.env` hidden (`_env_quiet.ts`): the imports are evaluated in
 * order, so `_env_hide.ts` runs before `@lezer/lr` and the restore after.
 *
 * @module
 */

import "./_env_hide.ts";
import { parser as python } from "@lezer/python";
import { parser as java } from "@lezer/java";
import { parser as javascript } from "@lezer/javascript";
import { restoreEnv } from "./_env_quiet.ts";

restoreEnv();

/** The three parsers. */
export const lezer = { python, java, javascript };
