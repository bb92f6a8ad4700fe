/**
 * Internal: heavy npm packages, loaded when a run needs them rather than
 * whenever a module that may need them is imported. ajv alone takes about
 * 40 ms to load and jsonc-parser about 20, which every `toolscore eval` paid
 * although only tool schemas, receipts and JSONC, YAML or broken JSON files
 * use them.
 *
 * The packages come in through `_heavy.ts`, a static import of each: `mod.ts`
 * imports it, so the library has them from the start; the CLI imports it
 * dynamically ({@linkcode loadHeavy}) before any command but `eval`, and
 * `eval` does so when its inputs need it ({@linkcode withHeavy} around a
 * parse). The accessors stay synchronous. Code that imports a library module
 * directly gets the packages through `require` when first used; a
 * `deno bundle` file, which has no packages beside it, relies on the static
 * imports of `_heavy.ts` being bundled in (a test runs the bundle).
 *
 * @module
 */

import type { Ajv } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { type HeavyModules, heavySlot } from "./_heavy_slot.ts";
import { hideEnv, restoreEnv } from "./_env_quiet.ts";

export type { HeavyModules };

/** Thrown by an accessor when `_heavy.ts` has not been loaded yet. */
export class NotLoadedError extends Error {
  /**
   * @param what The package asked for.
   */
  constructor(what: string) {
    super(`${what} is not loaded yet (await loadHeavy() first)`);
    this.name = "NotLoadedError";
  }
}

/** Load `_heavy.ts` if it is not loaded yet. */
export async function loadHeavy(): Promise<void> {
  if (heavySlot.modules === undefined) await import("./_heavy.ts");
}

/**
 * Run synchronous work that may need the packages; when it finds them
 * missing, load them and run it again. The work must have no side effects
 * before it needs a package (parsing qualifies).
 *
 * @param work The work.
 * @returns What it returns.
 */
export async function withHeavy<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof NotLoadedError)) throw error;
    await loadHeavy();
    return work();
  }
}

// Outside a bundle, `require` loads a package synchronously from where Deno keeps it, so code
// that imports a library module directly (tests, scripts) never meets a missing package. Only
// the package asked for is required: the duplicate-key check of a gold file needs jsonc-parser,
// not ajv (about 40 ms). A bundle has no packages beside it: there only `_heavy.ts` (bundled in)
// provides them.
const REQUIRED: Partial<HeavyModules> = {};

function required<K extends keyof HeavyModules>(key: K): HeavyModules[K] | undefined {
  if (REQUIRED[key] !== undefined) return REQUIRED[key];
  try {
    const require = process.getBuiltinModule("node:module").createRequire(import.meta.url);
    const loaded = {
      Ajv: () => (require("ajv") as { Ajv: typeof Ajv }).Ajv,
      Ajv2020: () => (require("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020 }).Ajv2020,
      jsonc: () => require("jsonc-parser") as HeavyModules["jsonc"],
      yaml: () => require("js-yaml") as HeavyModules["yaml"],
      fflate: () => require("fflate") as HeavyModules["fflate"],
      lezer: () => {
        hideEnv(); // @lezer/lr reads process.env.LOG when it loads
        try {
          return {
            python: require("@lezer/python").parser,
            java: require("@lezer/java").parser,
            javascript: require("@lezer/javascript").parser,
          } as HeavyModules["lezer"];
        } finally {
          restoreEnv();
        }
      },
    }[key]() as HeavyModules[K];
    REQUIRED[key] = loaded;
    return loaded;
  } catch {
    return undefined;
  }
}

function modules<K extends keyof HeavyModules>(key: K, what: string): HeavyModules[K] {
  const found = heavySlot.modules?.[key] ?? required(key);
  if (found === undefined) throw new NotLoadedError(what);
  return found;
}

/**
 * ajv's JSON Schema 2020-12 validator class.
 *
 * @returns The class.
 */
export function ajv2020Class(): typeof Ajv2020 {
  return modules("Ajv2020", "ajv");
}

/**
 * ajv's default (draft-07) validator class.
 *
 * @returns The class.
 */
export function ajvClass(): typeof Ajv {
  return modules("Ajv", "ajv");
}

/**
 * jsonc-parser.
 *
 * @returns The module.
 */
export function jsoncModule(): HeavyModules["jsonc"] {
  return modules("jsonc", "jsonc-parser");
}

/**
 * js-yaml.
 *
 * @returns The module.
 */
export function yamlModule(): HeavyModules["yaml"] {
  return modules("yaml", "js-yaml");
}

/**
 * fflate, for gzip cassette bodies and Inspect's zipped `.eval` logs.
 *
 * @returns The package.
 * @throws {NotLoadedError} When it is not loaded yet.
 *
 * @example Usage
 * ```ts
 * import "./_heavy.ts";
 * import { fflateModule } from "./_lazy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(typeof fflateModule().unzipSync, "function");
 * ```
 */
export function fflateModule(): HeavyModules["fflate"] {
  return modules("fflate", "fflate");
}

/**
 * The Python, Java and JavaScript parsers of lezer, for BFCL's call strings.
 *
 * @returns The parsers.
 * @throws {NotLoadedError} When they are not loaded yet.
 *
 * @example Usage
 * ```ts
 * import "./_heavy.ts";
 * import { lezerParsers } from "./_lazy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lezerParsers().python.parse("f(a=1)").topNode.name, "Script");
 * ```
 */
export function lezerParsers(): HeavyModules["lezer"] {
  return modules("lezer", "@lezer/python, @lezer/java and @lezer/javascript");
}
