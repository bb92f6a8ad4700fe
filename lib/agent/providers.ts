/**
 * The provider of an arm, by its `provider` field.
 *
 * @module
 */

import type { PostJsonOptions } from "./http.ts";
import { anthropicProvider } from "./anthropic.ts";
import { geminiProvider } from "./gemini.ts";
import { openaiProvider } from "./openai.ts";
import type { Provider } from "./provider.ts";
import type { AgentArm } from "../spec/agent_spec.ts";

/**
 * The provider an arm speaks to.
 *
 * @param arm The arm.
 * @param apiKey Its key, if any.
 * @param http Retry, timeout, cancellation and redaction settings.
 * @returns The provider.
 *
 * @example Usage
 * ```ts
 * import { createProvider } from "./providers.ts";
 * import assert from "node:assert/strict";
 *
 * const provider = createProvider({ id: "a", provider: "openai", model: "m" }, undefined, {});
 * assert.equal(typeof provider.start, "function");
 * ```
 */
export function createProvider(
  arm: AgentArm,
  apiKey: string | undefined,
  http: PostJsonOptions,
): Provider {
  const options = { arm, apiKey, http };
  switch (arm.provider) {
    case "openai":
      return openaiProvider(options);
    case "anthropic":
      return anthropicProvider(options);
    case "gemini":
      return geminiProvider(options);
  }
}
