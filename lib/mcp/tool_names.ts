/**
 * Tool names the model providers accept, shared by `agent run` (which maps
 * the names a provider refuses, and maps the model's calls back) and the
 * doctor's tool-name lint.
 *
 * - OpenAI Chat Completions and Anthropic Messages: `^[a-zA-Z0-9_-]{1,64}$`.
 * - Gemini `functionDeclarations`: letters, digits, `_`, `.`, `:` and `-`,
 *   at most 64 characters, starting with a letter or an underscore.
 *
 * @module
 */

/** The providers whose tool-name rules are known. */
export type ToolNameProvider = "openai" | "anthropic" | "gemini";

const PROVIDERS: readonly ToolNameProvider[] = ["openai", "anthropic", "gemini"];
const MAX_LENGTH = 64;

interface Rule {
  /** One allowed character. */
  allowed: RegExp;
  /** What the allowed characters are, for messages. */
  allowedText: string;
  /** Whether the first character must be a letter or `_`. */
  letterFirst: boolean;
}

const RULES: Record<ToolNameProvider, Rule> = {
  openai: { allowed: /[A-Za-z0-9_-]/, allowedText: "letters, digits, _ and -", letterFirst: false },
  anthropic: {
    allowed: /[A-Za-z0-9_-]/,
    allowedText: "letters, digits, _ and -",
    letterFirst: false,
  },
  gemini: {
    allowed: /[A-Za-z0-9_.:-]/,
    allowedText: "letters, digits, _, ., : and -",
    letterFirst: true,
  },
};

function problemsFor(name: string, rule: Rule): string[] {
  const problems: string[] = [];
  if (name.length === 0) return ["is empty"];
  const chars = [...name];
  if (chars.length > MAX_LENGTH) {
    problems.push(`is ${chars.length} characters long; the limit is ${MAX_LENGTH}`);
  }
  const bad = [...new Set(chars.filter((char) => !rule.allowed.test(char)))];
  if (bad.length > 0) {
    problems.push(
      `has ${bad.slice(0, 5).map((char) => JSON.stringify(char)).join(", ")}${
        bad.length > 5 ? "…" : ""
      }; only ${rule.allowedText} are allowed`,
    );
  }
  if (rule.letterFirst && !/^[A-Za-z_]/.test(name)) {
    problems.push("must start with a letter or _");
  }
  return problems;
}

/**
 * What each provider would refuse about a tool name.
 *
 * @param name The MCP tool name.
 * @returns One entry per provider and problem; empty when every provider accepts it.
 *
 * @example Usage
 * ```ts
 * import { toolNameProblems } from "./tool_names.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(toolNameProblems("search_flights"), []);
 * assert.deepEqual(toolNameProblems("files.read").map((p) => p.provider), ["openai", "anthropic"]);
 * ```
 */
export function toolNameProblems(
  name: string,
): { provider: ToolNameProvider; problem: string }[] {
  return PROVIDERS.flatMap((provider) =>
    problemsFor(name, RULES[provider]).map((problem) => ({ provider, problem }))
  );
}

function isValid(name: string, provider: ToolNameProvider): boolean {
  return problemsFor(name, RULES[provider]).length === 0;
}

// FNV-1a, 32 bits, as 8 hex digits: a short, stable tag that keeps mapped names apart.
function tag(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

function sanitize(name: string, rule: Rule): string {
  let out = [...name].map((char) => rule.allowed.test(char) ? char : "_").join("");
  if (rule.letterFirst && !/^[A-Za-z_]/.test(out)) out = `_${out}`;
  return out;
}

/**
 * Provider-safe names for a server's tools: a name the provider accepts maps
 * to itself; any other is rewritten (disallowed characters become `_`, a
 * name too long or clashing with another gets a short hash of the original).
 * The mapping is injective and depends only on the names given.
 *
 * @param names The MCP tool names (duplicates are mapped once).
 * @param provider The provider the names go to.
 * @returns MCP name → provider-safe name.
 *
 * @example Usage
 * ```ts
 * import { providerToolNames } from "./tool_names.ts";
 * import assert from "node:assert/strict";
 *
 * const names = providerToolNames(["search", "files.read", "files/read"], "openai");
 * assert.equal(names.get("search"), "search");
 * assert.match(names.get("files.read")!, /^files_read/);
 * assert.notEqual(names.get("files.read"), names.get("files/read"));
 * ```
 */
export function providerToolNames(
  names: readonly string[],
  provider: ToolNameProvider,
): Map<string, string> {
  const rule = RULES[provider];
  const unique = [...new Set(names)];
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of unique) {
    if (isValid(name, provider)) {
      out.set(name, name);
      taken.add(name);
    }
  }
  // Sorted, so that the result does not depend on the order the server listed its tools in.
  const rest = unique.filter((name) => !out.has(name)).sort();
  for (const name of rest) {
    const base = sanitize(name, rule);
    let candidate = base;
    if ([...base].length > MAX_LENGTH || taken.has(base) || !isValid(base, provider)) {
      const suffix = `_${tag(name)}`;
      candidate = [...base].slice(0, MAX_LENGTH - suffix.length).join("") + suffix;
    }
    for (let n = 2; taken.has(candidate) || !isValid(candidate, provider); n++) {
      const suffix = `_${tag(`${name}#${n}`)}`;
      candidate = [...base].slice(0, MAX_LENGTH - suffix.length).join("") + suffix;
      if (n > 1000) throw new Error(`cannot find a ${provider} name for tool ${name}`);
    }
    out.set(name, candidate);
    taken.add(candidate);
  }
  return out;
}
