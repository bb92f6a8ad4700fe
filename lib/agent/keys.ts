/**
 * API keys of the arms, read from the environment (which variable, and
 * whether an arm needs one: `../spec/arm_keys.ts`), and the redaction that
 * keeps every key value out of messages and files.
 *
 * Key values come only from the environment and live only in memory: they
 * go into request headers and into {@linkcode Redactor}, nowhere else.
 *
 * @module
 */

import { UsageError } from "../base/errors.ts";
import type { AgentSpec } from "../spec/agent_spec.ts";
import { armKeyEnv, armNeedsKey } from "../spec/arm_keys.ts";

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
 * import { agentSpecFromJson } from "../spec/agent_spec.ts";
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
