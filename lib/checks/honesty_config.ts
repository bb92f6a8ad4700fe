/**
 * The honesty configuration: the patterns and code-execution tools the
 * honesty checks use, read from a file over the shipped defaults
 * (`data/honesty_defaults.json`).
 *
 * @module
 */

import { compileUserPattern, deferredUserPattern, type TextPattern } from "../base/user_regex.ts";
import defaults from "../../data/honesty_defaults.json" with { type: "json" };
import { isJsonObject, joinPath } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";
import { readDocument } from "../base/load.ts";
import { faultsAt, type InjectedFault, loadInjectedFaults, located } from "./injected_faults.ts";

/** What the honesty checks look for. Patterns from files are case-insensitive. */
export interface HonestyConfig {
  /** A final answer matching one of these claims success. */
  readonly successPatterns: readonly TextPattern[];
  /** A final answer matching one of these discloses a problem. */
  readonly disclosurePatterns: readonly TextPattern[];
  /** A tool result matching one of these carries a warning. */
  readonly warningPatterns: readonly TextPattern[];
  /** A result or error matching one of these is a refusal. */
  readonly refusalPatterns: readonly TextPattern[];
  /** Tools that run arbitrary code or shell commands. */
  readonly codeExecutionTools: readonly string[];
  /**
   * A tool result that is text matching one of these reports an error: the
   * call is failed when the reader found no explicit status (`[]` turns
   * this off). Applied at evaluation; the call's `metadata.outcome_source`
   * says `"error_text"`. Optional so configs built in code before this field
   * existed keep working; absent means the shipped default.
   */
  readonly errorTextPatterns?: readonly TextPattern[];
  /** Faults injected into tool results, if any. */
  readonly injected?: readonly InjectedFault[];
}

// Keys of a config file (snake_case) and the field each sets; camelCase is accepted too.
const CONFIG_KEYS = {
  success_patterns: "successPatterns",
  disclosure_patterns: "disclosurePatterns",
  warning_patterns: "warningPatterns",
  refusal_patterns: "refusalPatterns",
  code_execution_tools: "codeExecutionTools",
  error_text_patterns: "errorTextPatterns",
  injected: "injected",
} as const;

type ConfigField = (typeof CONFIG_KEYS)[keyof typeof CONFIG_KEYS];

function compilePattern(text: string, where: string | undefined, shipped: boolean): TextPattern {
  // Every user pattern runs on RE2 (linear time); a leading (?i) is our default anyway. The
  // shipped defaults compile on first use (start-up; tests/honesty_test.ts compiles each).
  const source = text.replace(/^\(\?i\)/, "");
  return shipped ? deferredUserPattern(source, "i", where) : compileUserPattern(source, "i", where);
}

function stringList(value: unknown, path: string, source: string | undefined): string[] {
  if (!Array.isArray(value)) {
    throw new InputError("expected a list of strings", located(source, path));
  }
  return value.map((item, i) => {
    if (typeof item !== "string" || item === "") {
      throw new InputError("expected a non-empty string", located(source, joinPath(path, i)));
    }
    return item;
  });
}

/**
 * Read a honesty configuration; every field present replaces the default's
 * (patterns as strings, case-insensitive, RE2 syntax, linear time: see `lib/base/user_regex.ts`). Keys are
 * `success_patterns`, `disclosure_patterns`, `warning_patterns`,
 * `refusal_patterns`, `code_execution_tools`, `error_text_patterns` and
 * `injected` (camelCase is accepted too).
 *
 * @param value The parsed JSON or YAML.
 * @param source The file name, for errors.
 * @returns The configuration, defaults filled in.
 * @throws {InputError} On an unknown key or a bad pattern, naming its JSON path.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_HONESTY, honestyConfigFromJson } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * const config = honestyConfigFromJson({ success_patterns: ["all good"] });
 * assert.ok(config.successPatterns[0]?.test("ALL GOOD"));
 * assert.equal(config.refusalPatterns, DEFAULT_HONESTY.refusalPatterns);
 * assert.throws(() => honestyConfigFromJson({ success_patterns: ["("] }), /success_patterns\[0\]/);
 * ```
 */
export function honestyConfigFromJson(value: unknown, source?: string): HonestyConfig {
  return configFrom(value, source, DEFAULT_HONESTY);
}

function configFrom(
  value: unknown,
  source: string | undefined,
  base: HonestyConfig | undefined,
): HonestyConfig {
  if (!isJsonObject(value)) {
    throw new InputError(
      `expected an object with ${Object.keys(CONFIG_KEYS).join(", ")}`,
      located(source, ""),
    );
  }
  const fields: Partial<Record<ConfigField, unknown>> = {};
  for (const [key, raw] of Object.entries(value)) {
    // Own keys only: `constructor` or `toString` are no keys of a honesty config (issue 42).
    const field = (Object.hasOwn(CONFIG_KEYS, key)
      ? CONFIG_KEYS[key as keyof typeof CONFIG_KEYS]
      : undefined) ??
      (Object.values(CONFIG_KEYS) as string[]).find((f) =>
        f === key
      ) as ConfigField | undefined;
    if (field === undefined) {
      throw new InputError(
        `unknown key ${key} (a honesty config has ${Object.keys(CONFIG_KEYS).join(", ")})`,
        located(source, joinPath("", key)),
      );
    }
    fields[field] = { key, raw };
  }
  const read = <T>(field: ConfigField, parse: (raw: unknown, path: string) => T): T | undefined => {
    const entry = fields[field] as { key: string; raw: unknown } | undefined;
    return entry === undefined ? undefined : parse(entry.raw, joinPath("", entry.key));
  };
  const patterns = (raw: unknown, path: string): TextPattern[] =>
    stringList(raw, path, source).map((text, i) =>
      compilePattern(text, located(source, joinPath(path, i)), base === undefined)
    );
  const need = <T>(own: T | undefined, fallback: T | undefined, name: string): T => {
    if (own !== undefined) return own;
    if (fallback !== undefined) return fallback;
    throw new InputError(`missing key ${name}`, located(source, ""));
  };
  const config: HonestyConfig = {
    successPatterns: need(
      read("successPatterns", patterns),
      base?.successPatterns,
      "success_patterns",
    ),
    disclosurePatterns: need(
      read("disclosurePatterns", patterns),
      base?.disclosurePatterns,
      "disclosure_patterns",
    ),
    warningPatterns: need(
      read("warningPatterns", patterns),
      base?.warningPatterns,
      "warning_patterns",
    ),
    refusalPatterns: need(
      read("refusalPatterns", patterns),
      base?.refusalPatterns,
      "refusal_patterns",
    ),
    codeExecutionTools: need(
      read("codeExecutionTools", (raw, path) => stringList(raw, path, source)),
      base?.codeExecutionTools,
      "code_execution_tools",
    ),
  };
  // Error-text patterns go through the same compilePattern() as every configurable pattern.
  const errorText = read("errorTextPatterns", patterns) ?? base?.errorTextPatterns;
  const withErrorText = errorText === undefined
    ? config
    : { ...config, errorTextPatterns: errorText };
  const injected = read("injected", (raw, path) => faultsAt(raw, path, source)) ?? base?.injected;
  return injected === undefined ? withErrorText : { ...withErrorText, injected };
}

function frozen(config: HonestyConfig): HonestyConfig {
  for (const list of Object.values(config)) Object.freeze(list);
  return Object.freeze(config);
}

/**
 * The shipped honesty configuration (from `data/honesty_defaults.json`): the
 * success, disclosure, warning and refusal patterns and code-execution tools
 * of the design, no injected faults.
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_HONESTY } from "@toolscore/cli";
 * import assert from "node:assert/strict";
 *
 * assert.ok(DEFAULT_HONESTY.codeExecutionTools.includes("bash"));
 * assert.ok(DEFAULT_HONESTY.refusalPatterns.some((p) => p.test("Permission denied")));
 * ```
 */
export const DEFAULT_HONESTY: HonestyConfig = frozen(
  configFrom(defaults, "data/honesty_defaults.json", undefined),
);

/**
 * Read a honesty configuration file (JSON, JSONC or YAML); fields present
 * replace the defaults.
 *
 * @param path The file.
 * @returns The configuration.
 * @throws {InputError} When the file cannot be read or is malformed.
 *
 * @example Usage
 * ```ts ignore
 * import { loadHonestyConfig } from "@toolscore/cli";
 *
 * const honesty = await loadHonestyConfig("honesty.yaml");
 * ```
 */
export async function loadHonestyConfig(path: string): Promise<HonestyConfig> {
  return honestyConfigFromJson(await readDocument(path), path);
}

/**
 * The honesty configuration a honesty file and an injected-faults file give
 * (what `--honesty` and `--injected` read, and what `regrade()` reads from a
 * receipt's inputs): the file's patterns over the defaults, with the injected
 * faults added.
 *
 * @param honestyPath A honesty configuration file (JSON or YAML), if any.
 * @param injectedPath A file of faults injected into tool results, if any.
 * @returns The configuration, or `undefined` when neither file is given (the defaults apply).
 * @throws {InputError} When a file cannot be read or is not valid.
 *
 * @example Usage
 * ```ts ignore
 * import { loadHonestyFiles } from "./honesty_config.ts";
 *
 * const honesty = await loadHonestyFiles("honesty.yaml", "injected.json");
 * ```
 */
export async function loadHonestyFiles(
  honestyPath: string | undefined,
  injectedPath: string | undefined,
): Promise<HonestyConfig | undefined> {
  if (honestyPath === undefined && injectedPath === undefined) return undefined;
  const config = honestyPath !== undefined ? await loadHonestyConfig(honestyPath) : DEFAULT_HONESTY;
  if (injectedPath === undefined) return config;
  return { ...config, injected: await loadInjectedFaults(injectedPath) };
}
