/**
 * Which environment variable each arm's API key is read from (its
 * `api_key_env`, else the provider's default) and whether the arm needs one:
 * a loopback `base_url` whose arm names no `api_key_env` needs none. Read by
 * `agent run` and by the doctor's `keys` check.
 *
 * @module
 */

import type { AgentArm, AgentProvider, AgentSpec } from "./agent_spec.ts";

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
 * import { isLoopbackUrl } from "./arm_keys.ts";
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
 * import { armKeyEnv } from "./arm_keys.ts";
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
 * import { armNeedsKey } from "./arm_keys.ts";
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
 * import { agentSpecFromJson } from "./agent_spec.ts";
 * import { specKeyNames } from "./arm_keys.ts";
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
