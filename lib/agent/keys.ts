/**
 * API keys of the arms: which environment variable each arm reads (its
 * `api_key_env`, else the provider's default), whether it needs one (a
 * loopback `base_url` with the default variable unset needs none), and the
 * redaction that keeps every key value out of messages and files.
 *
 * Key values come only from the environment and live only in memory: they
 * go into request headers and into {@linkcode Redactor}, nowhere else.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { AgentArm, AgentProvider, AgentSpec } from "./spec.ts";

/** The variable each provider's key is read from when the arm names none. */
export const DEFAULT_KEY_ENV: Readonly<Record<AgentProvider, string>> = Object.freeze({
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
});

/**
 * Whether a URL points at this machine (`localhost`, `127.0.0.0/8`, `::1`).
 *
 * @param url The URL.
 * @returns `true` for a loopback host.
 *
 * @example Usage
 * ```ts
 * import { isLoopbackUrl } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isLoopbackUrl("http://127.0.0.1:11434/v1"), true);
 * assert.equal(isLoopbackUrl("https://api.openai.com/v1"), false);
 * ```
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The environment variable an arm's key is read from.
 *
 * @param arm The arm.
 * @returns Its `api_key_env`, else the provider's default.
 *
 * @example Usage
 * ```ts
 * import { armKeyEnv } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(armKeyEnv({ id: "a", provider: "gemini", model: "m" }), "GEMINI_API_KEY");
 * ```
 */
export function armKeyEnv(arm: AgentArm): string {
  return arm.apiKeyEnv ?? DEFAULT_KEY_ENV[arm.provider];
}

/**
 * Whether an arm cannot run without its key: always, except a loopback
 * `base_url` whose arm names no `api_key_env`.
 *
 * @param arm The arm.
 * @returns `true` when the key must be set.
 *
 * @example Usage
 * ```ts
 * import { armNeedsKey } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(armNeedsKey({ id: "a", provider: "openai", model: "m", baseUrl: "http://127.0.0.1:8080/v1" }), false);
 * assert.equal(armNeedsKey({ id: "a", provider: "openai", model: "m" }), true);
 * ```
 */
export function armNeedsKey(arm: AgentArm): boolean {
  return arm.apiKeyEnv !== undefined || arm.baseUrl === undefined || !isLoopbackUrl(arm.baseUrl);
}

/**
 * The key variables a spec needs set: its `keys` and every arm's key that
 * {@linkcode armNeedsKey}. (The doctor's `keys` check reads these.)
 *
 * @param spec The spec.
 * @returns The names, each once.
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "./spec.ts";
 * import { specKeyNames } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "anthropic", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * assert.deepEqual(specKeyNames(spec), ["ANTHROPIC_API_KEY"]);
 * ```
 */
export function specKeyNames(spec: AgentSpec): string[] {
  return [...new Set([...spec.keys, ...spec.arms.filter(armNeedsKey).map(armKeyEnv)])];
}

/**
 * Hides every configured key value in text: each occurrence becomes `***`.
 *
 * @example Usage
 * ```ts
 * import { Redactor } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * const redactor = new Redactor(["sk-test-123456"]);
 * assert.equal(redactor.text("bad key sk-test-123456"), "bad key ***");
 * assert.deepEqual(redactor.value({ a: ["sk-test-123456"] }), { a: ["***"] });
 * ```
 */
export class Redactor {
  readonly #secrets: string[];

  /**
   * Create a redactor.
   *
   * @param secrets The values to hide (values shorter than 4 characters are ignored).
   */
  constructor(secrets: Iterable<string>) {
    // Longest first, so that a key containing another is hidden whole.
    this.#secrets = [...new Set(secrets)].filter((s) => s.length >= 4)
      .sort((a, b) => b.length - a.length);
  }

  /**
   * Text with every secret hidden.
   *
   * @param text The text.
   * @returns The text, redacted.
   */
  text(text: string): string {
    return this.#secrets.reduce((out, secret) => out.replaceAll(secret, "***"), text);
  }

  /**
   * A JSON value with every secret hidden in every string (keys included).
   *
   * @param value The value.
   * @returns A redacted copy.
   */
  value<T>(value: T): T {
    if (this.#secrets.length === 0) return value;
    return JSON.parse(this.text(JSON.stringify(value))) as T;
  }
}

/** The keys an agent run uses, read once. */
export interface ArmKeys {
  /** The key of each arm id, when it has one. */
  byArm: Map<string, string>;
  /** Hides every key value read. */
  redactor: Redactor;
}

/**
 * Read every arm's key (and the spec's `keys`) from the environment.
 *
 * @param spec The spec.
 * @param read Reads a variable (`undefined` when unset or not permitted).
 * @returns The keys by arm, and a redactor for all of them.
 * @throws {UsageError} When an arm that needs a key finds none, naming the variable (never a value).
 *
 * @example Usage
 * ```ts
 * import { agentSpecFromJson } from "./spec.ts";
 * import { readArmKeys } from "./keys.ts";
 * import assert from "node:assert/strict";
 *
 * const spec = agentSpecFromJson({
 *   spec_version: 1,
 *   server: { command: ["srv"] },
 *   arms: [{ id: "a", provider: "openai", model: "m" }],
 *   tasks: [{ id: "t", prompt: "p", contract: "c.json" }],
 * });
 * const keys = readArmKeys(spec, (name) => name === "OPENAI_API_KEY" ? "sk-abc-123" : undefined);
 * assert.equal(keys.byArm.get("a"), "sk-abc-123");
 * assert.throws(() => readArmKeys(spec, () => undefined), /OPENAI_API_KEY is not set/);
 * ```
 */
export function readArmKeys(
  spec: AgentSpec,
  read: (name: string) => string | undefined,
): ArmKeys {
  const byArm = new Map<string, string>();
  const values: string[] = [];
  for (const name of spec.keys) {
    const value = read(name);
    if (value) values.push(value);
  }
  for (const arm of spec.arms) {
    const name = armKeyEnv(arm);
    const value = read(name);
    if (value) {
      byArm.set(arm.id, value);
      values.push(value);
    } else if (armNeedsKey(arm)) {
      throw new UsageError(
        `arm ${arm.id} needs its API key: ${name} is not set (or deno may not read it); ` +
          `export ${name}=… and run deno with --allow-env=${name}`,
      );
    }
  }
  return { byArm, redactor: new Redactor(values) };
}
