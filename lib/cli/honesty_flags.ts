/**
 * The honesty-check inputs shared by the commands that score (`eval`,
 * `regrade`): `--honesty FILE` and `--injected FILE` as one configuration,
 * and `--final-answer TEXT` / `--final-answer-file FILE` as one answer. The
 * library's `regrade()` reads a receipt's `honesty_config` and `injected`
 * files with the same {@linkcode honestyOf}, so a regrade sees exactly the
 * configuration `eval` saw.
 *
 * Internal (not exported from `mod.ts`).
 *
 * @module
 */

import { UsageError } from "../errors.ts";
import {
  DEFAULT_HONESTY,
  type HonestyConfig,
  loadHonestyConfig,
  loadInjectedFaults,
} from "../honesty.ts";
import { readTextFile } from "../load.ts";

/**
 * The honesty configuration a honesty file and an injected-faults file give:
 * the file's patterns over the defaults, with the injected faults added.
 *
 * @param honestyPath A honesty configuration file (JSON or YAML), if any.
 * @param injectedPath A file of faults injected into tool results, if any.
 * @returns The configuration, or `undefined` when neither file is given (the defaults apply).
 * @throws {InputError} When a file cannot be read or is not valid.
 *
 * @example Usage
 * ```ts ignore
 * import { honestyOf } from "./honesty_flags.ts";
 *
 * const honesty = await honestyOf("honesty.yaml", "injected.json");
 * ```
 */
export async function honestyOf(
  honestyPath: string | undefined,
  injectedPath: string | undefined,
): Promise<HonestyConfig | undefined> {
  if (honestyPath === undefined && injectedPath === undefined) return undefined;
  const config = honestyPath !== undefined ? await loadHonestyConfig(honestyPath) : DEFAULT_HONESTY;
  if (injectedPath === undefined) return config;
  return { ...config, injected: await loadInjectedFaults(injectedPath) };
}

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
