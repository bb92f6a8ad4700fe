/**
 * The doctor's checks of what an agent run needs besides the server: keys,
 * packages, prices and budget. Each returns one {@linkcode DoctorCheck}.
 * Secret values are read only to see whether they are set; they never reach
 * a detail or a fix.
 *
 * @module
 */

import type { AgentArm, AgentSpec } from "../spec/agent_spec.ts";
import {
  costUsd,
  lookupPrice,
  PRICES_AS_OF,
  type PriceTable,
  type TokenCounts,
} from "../spec/prices.ts";
import { DoctorCheck } from "./check.ts";

/**
 * Reads one environment variable: its value, `undefined` when unset; throws
 * `Deno.errors.NotCapable` when Deno was not given `--allow-env` for it.
 */
export type EnvReader = (name: string) => string | undefined;

/**
 * Read an environment variable without ever prompting: throws
 * `Deno.errors.NotCapable` unless `--allow-env` covers it.
 *
 * @param name The variable.
 * @returns Its value, or `undefined` when unset.
 * @throws {Deno.errors.NotCapable} Without permission.
 *
 * @example Usage
 * ```ts ignore
 * import { permittedEnv } from "./checks.ts";
 *
 * const path = permittedEnv("PATH");
 * ```
 */
export function permittedEnv(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
    throw new Deno.errors.NotCapable(`Requires env access to "${name}"`);
  }
  return Deno.env.get(name);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Options for {@linkcode checkKeys}. */
export interface CheckKeysOptions {
  /**
   * How the caller names more keys, for the skip's detail.
   * @default {"the keys option"}
   */
  keyTerm?: string;
}

/**
 * `keys`: every named variable is set (non-empty). Only names are reported.
 *
 * @param names The variable names.
 * @param read Reads a variable.
 * @param options How to name more keys.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { checkKeys } from "./checks.ts";
 * import assert from "node:assert/strict";
 *
 * const env: Record<string, string> = { A_KEY: "secret-value" };
 * const check = checkKeys(["A_KEY", "B_KEY"], (name) => env[name]);
 * assert.equal(check.status, "fail");
 * assert.equal(check.detail, "not set: B_KEY (set: A_KEY)");
 * ```
 */
export function checkKeys(
  names: readonly string[],
  read: EnvReader,
  options: CheckKeysOptions = {},
): DoctorCheck {
  if (names.length === 0) {
    return new DoctorCheck(
      "keys",
      "skip",
      `no keys to check (the spec's keys, or ${options.keyTerm ?? "the keys option"})`,
    );
  }
  const set: string[] = [];
  const unset: string[] = [];
  const denied: string[] = [];
  for (const name of names) {
    try {
      const value = read(name);
      (value === undefined || value === "" ? unset : set).push(name);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) denied.push(name);
      else throw error;
    }
  }
  if (unset.length === 0 && denied.length === 0) {
    return new DoctorCheck("keys", "pass", `set: ${set.join(", ")}`);
  }
  const parts = [
    unset.length > 0 ? `not set: ${unset.join(", ")}` : "",
    denied.length > 0 ? `no permission to read: ${denied.join(", ")}` : "",
  ].filter((part) => part !== "");
  const fixes = [
    unset.length > 0 ? `export ${unset.map((name) => `${name}=…`).join(" ")}` : "",
    denied.length > 0 ? `run deno with --allow-env=${denied.join(",")}` : "",
  ].filter((part) => part !== "");
  return new DoctorCheck(
    "keys",
    "fail",
    parts.join("; ") + (set.length > 0 ? ` (set: ${set.join(", ")})` : ""),
    { fix: fixes.join("; ") },
  );
}

/** Options for {@linkcode checkPackages}. */
export interface CheckPackagesOptions {
  /**
   * Whether a file exists and is executable; throws `NotCapable` without read permission.
   * @default {undefined} (`Deno.statSync` and the mode's execute bits)
   */
  isExecutable?: (path: string) => boolean;
  /**
   * The operating system, for the PATH separator and Windows extensions.
   * @default {Deno.build.os}
   */
  os?: typeof Deno.build.os;
}

function statExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    return false;
  }
}

/**
 * `packages`: every executable is on `PATH` (only files are looked up; nothing runs).
 *
 * @param names Executable names, or paths.
 * @param read Reads `PATH` (and `PATHEXT` on Windows).
 * @param options How to test a file, and the OS.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { checkPackages } from "./checks.ts";
 * import assert from "node:assert/strict";
 *
 * const check = checkPackages(["npx", "nope"], () => "/usr/bin", {
 *   isExecutable: (path) => path === "/usr/bin/npx",
 *   os: "linux",
 * });
 * assert.equal(check.detail, "not on PATH: nope (found: npx at /usr/bin/npx)");
 * ```
 */
export function checkPackages(
  names: readonly string[],
  read: EnvReader,
  options: CheckPackagesOptions = {},
): DoctorCheck {
  if (names.length === 0) {
    return new DoctorCheck("packages", "skip", "no packages listed in the spec");
  }
  const os = options.os ?? Deno.build.os;
  const isExecutable = options.isExecutable ?? statExecutable;
  let path: string | undefined;
  let extensions = [""];
  try {
    path = read("PATH");
    if (os === "windows") {
      extensions = ["", ...(read("PATHEXT") ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)];
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) throw error;
    return new DoctorCheck("packages", "fail", "no permission to read PATH", {
      fix: "run deno with --allow-env=PATH",
    });
  }
  const separator = os === "windows" ? ";" : ":";
  const slash = os === "windows" ? "\\" : "/";
  const dirs = (path ?? "").split(separator).filter((dir) => dir !== "");
  const found: string[] = [];
  const missing: string[] = [];
  const unreadable = new Set<string>();
  for (const name of names) {
    const candidates = /[\\/]/.test(name)
      ? extensions.map((ext) => name + ext)
      : dirs.flatMap((dir) =>
        extensions.map((ext) => `${dir.replace(/[\\/]$/, "")}${slash}${name}${ext}`)
      );
    let hit: string | undefined;
    for (const candidate of candidates) {
      try {
        if (isExecutable(candidate)) {
          hit = candidate;
          break;
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotCapable)) throw error;
        unreadable.add(candidate.slice(0, candidate.lastIndexOf(slash)) || slash);
      }
    }
    if (hit === undefined) missing.push(name);
    else found.push(`${name} at ${hit}`);
  }
  if (missing.length === 0) return new DoctorCheck("packages", "pass", found.join(", "));
  const note = unreadable.size > 0 ? `; could not look in ${[...unreadable].join(", ")}` : "";
  return new DoctorCheck(
    "packages",
    "fail",
    `not on PATH: ${missing.join(", ")}${
      found.length > 0 ? ` (found: ${found.join(", ")})` : ""
    }${note}`,
    {
      fix: unreadable.size > 0
        ? "run deno with --allow-read (the packages check looks files up on PATH)"
        : `install ${missing.join(", ")} or add ${
          missing.length === 1 ? "its" : "their"
        } folder to PATH`,
    },
  );
}

/** Options for {@linkcode checkPrices}. */
export interface CheckPricesOptions {
  /**
   * Report an unknown price as a warning instead of a failure.
   * @default {false}
   */
  allowUnknownPrice?: boolean;
  /**
   * How the caller allows unknown prices, for the fix.
   * @default {"allowUnknownPrice: true"}
   */
  allowTerm?: string;
}

function usd(value: number): string {
  return value >= 0.01 || value === 0 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`;
}

/**
 * `prices`: every arm's model has a known price (the spec's `prices`, then
 * the shipped table). Unknown is a failure, or a warning with `allowUnknownPrice`.
 *
 * @param arms The arms.
 * @param overrides The spec's prices.
 * @param options Whether unknown prices are allowed.
 * @returns The check.
 *
 * @example Usage
 * ```ts
 * import { checkPrices } from "./checks.ts";
 * import assert from "node:assert/strict";
 *
 * const arms = [{ id: "local", provider: "openai" as const, model: "llama3.1" }];
 * assert.equal(checkPrices(arms, {}).status, "fail");
 * assert.equal(checkPrices(arms, {}, { allowUnknownPrice: true }).status, "warn");
 * ```
 */
export function checkPrices(
  arms: readonly AgentArm[],
  overrides: PriceTable,
  options: CheckPricesOptions = {},
): DoctorCheck {
  if (arms.length === 0) return new DoctorCheck("prices", "skip", "no arms");
  const known: string[] = [];
  const unknown: AgentArm[] = [];
  for (const arm of arms) {
    const match = lookupPrice(arm.model, { overrides });
    if (match === null) {
      unknown.push(arm);
      continue;
    }
    const from = match.source === "spec" ? "the spec" : `the shipped table, as of ${PRICES_AS_OF}`;
    const via = match.match === "prefix" ? ` as ${match.key}` : "";
    known.push(
      `${arm.id}: ${arm.model}${via} $${match.price.inputPerMtok}/$${match.price.outputPerMtok} per Mtok in/out (${from})`,
    );
  }
  if (unknown.length === 0) return new DoctorCheck("prices", "pass", known.join("; "));
  const models = [...new Set(unknown.map((arm) => arm.model))];
  const detail =
    `no price for ${unknown.map((arm) => `${arm.model} (arm ${arm.id})`).join(", ")}; ` +
    `its cost would be unknown` + (known.length > 0 ? ` (priced: ${known.join("; ")})` : "");
  const example = `${JSON.stringify(models[0])}: {input_per_mtok: …, output_per_mtok: …}`;
  return new DoctorCheck("prices", options.allowUnknownPrice ? "warn" : "fail", detail, {
    fix: `add prices: {${example}} to the spec (0 for a local model)` +
      (options.allowUnknownPrice
        ? ""
        : `, or pass ${options.allowTerm ?? "allowUnknownPrice: true"}`),
  });
}

/** The tokens one run is estimated to use when the spec does not say. */
export const DEFAULT_RUN_ESTIMATE: Readonly<TokenCounts> = Object.freeze({
  inputTokens: 20_000,
  outputTokens: 2_000,
});

/**
 * `budget`: `budget.max_usd` covers at least one estimated run of every arm ×
 * task (a failure otherwise); a warning when it does not cover every repeat,
 * when there is no budget, or when some arms have no price.
 *
 * @param spec The agent spec.
 * @returns The check; the detail says which per-run estimate was used.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
 * import { checkBudget } from "./checks.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "big", provider: "anthropic", model: "claude-opus-4-1" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 *   budget: { max_usd: 0.1 },
 * });
 * assert.equal(checkBudget(spec).status, "fail"); // one run: 20k in + 2k out at $15/$75 = $0.45
 * ```
 */
export function checkBudget(spec: AgentSpec): DoctorCheck {
  const estimate = spec.budget.estimatePerRun ?? DEFAULT_RUN_ESTIMATE;
  const basis = `${estimate.inputTokens.toLocaleString("en-US")} input + ${
    estimate.outputTokens.toLocaleString("en-US")
  } output tokens per run (${
    spec.budget.estimatePerRun
      ? "budget.estimate_per_run"
      : "the default estimate; set budget.estimate_per_run"
  })`;
  let perRound = 0;
  const unpriced: string[] = [];
  for (const arm of spec.arms) {
    const match = lookupPrice(arm.model, { overrides: spec.prices });
    if (match === null) unpriced.push(arm.id);
    else perRound += costUsd(match.price, estimate) * spec.tasks.length;
  }
  const full = perRound * spec.repeats;
  const shape = `${plural(spec.arms.length, "arm")} × ${plural(spec.tasks.length, "task")} × ${
    plural(spec.repeats, "repeat")
  }`;
  const unpricedNote = unpriced.length > 0
    ? `; arms without a price are not counted: ${unpriced.join(", ")}`
    : "";
  const max = spec.budget.maxUsd;
  if (max === null) {
    return new DoctorCheck(
      "budget",
      "warn",
      `no budget.max_usd: nothing stops the spend; ${shape} is estimated at ${
        usd(full)
      } from ${basis}${unpricedNote}`,
      { fix: `add budget: {max_usd: ${Math.max(0.01, Math.ceil(full * 100) / 100)}} to the spec` },
    );
  }
  if (perRound > max) {
    return new DoctorCheck(
      "budget",
      "fail",
      `${usd(max)} does not cover one run of every arm × task (estimated ${
        usd(perRound)
      }) from ${basis}${unpricedNote}`,
      { fix: `raise budget.max_usd to at least ${usd(perRound)}, or drop arms or tasks` },
    );
  }
  if (full > max) {
    return new DoctorCheck(
      "budget",
      "warn",
      `${usd(max)} covers one round (${usd(perRound)}) but not ${shape} (${
        usd(full)
      }), so the run will stop early; estimated from ${basis}${unpricedNote}`,
      { fix: `raise budget.max_usd to ${usd(full)}, or lower repeats` },
    );
  }
  if (unpriced.length > 0) {
    return new DoctorCheck(
      "budget",
      "warn",
      `${shape} estimated at ${usd(full)}, within ${usd(max)}, from ${basis}${unpricedNote}`,
      { fix: "price every arm (see the prices check) so the budget covers it" },
    );
  }
  return new DoctorCheck(
    "budget",
    "pass",
    `${shape} estimated at ${usd(full)}, within ${usd(max)}, from ${basis}`,
  );
}
