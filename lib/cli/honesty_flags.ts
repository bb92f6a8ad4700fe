/**
 The final-answer flags shared by the commands that score (`eval`,
 * `regrade`): `--final-answer TEXT` / `--final-answer-file FILE` as one
 * answer. (`--honesty` and `--injected` go through the library's
 * `loadHonestyFiles`, which `regrade()` also uses for a receipt's files.)
 *
 * Internal (not exported from `mod.ts`).
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import { readTextFile } from "../base/load.ts";

/**
 * The final answer `--final-answer TEXT` or `--final-answer-file FILE` gives.
 *
 * @param text The `--final-answer` value, if given.
 * @param file The `--final-answer-file` value, if given.
 * @returns The answer, or `undefined` when neither flag is given.
 * @throws {UsageError} When both flags are given.
 * @throws {InputError} When the file cannot be read.
 *
 * @example Usage
 * ```ts ignore
 * import { finalAnswerOf } from "./honesty_flags.ts";
 *
 * const answer = await finalAnswerOf(undefined, "answer.txt");
 * ```
 */
export async function finalAnswerOf(
  text: string | undefined,
  file: string | undefined,
): Promise<string | undefined> {
  if (text !== undefined && file !== undefined) {
    throw new UsageError("give --final-answer or --final-answer-file, not both");
  }
  return file !== undefined ? await readTextFile(file) : text;
}
