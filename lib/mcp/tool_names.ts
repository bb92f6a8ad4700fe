/**
 * The tool-name rules of the major model APIs, shared by `doctor` (which
 * lints a server's names) and `agent run` (which maps MCP names to names a
 * provider accepts and back):
 *
 * - OpenAI (Chat Completions and Responses function tools): `^[a-zA-Z0-9_-]{1,64}$`.
 * - Anthropic Messages: `^[a-zA-Z0-9_-]{1,64}$`.
 * - Gemini (`FunctionDeclaration.name`): letters, digits, `_`, `.`, `:` and
 *   `-`, at most 64, starting with a letter or an underscore.
 *
 * @module
 */

/** A model API whose tool-name rule we know. */
export type ToolNameProvider = "openai" | "anthropic" | "gemini";

/** Every provider, in a fixed order. */
export const TOOL_NAME_PROVIDERS: readonly ToolNameProvider[] = ["openai", "anthropic", "gemini"];

const MAX_LENGTH = 64;

interface Rule {
  allowed: RegExp; // one character
  first: RegExp; // the first character
  text: string;
}

const RULES: Record<ToolNameProvider, Rule> = {
  openai: { allowed: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/, text: "letters, digits, _ and -" },
  anthropic: {
    allowed: /[A-Za-z0-9_-]/,
    first: /[A-Za-z0-9_-]/,
    text: "letters, digits, _ and -",
  },
  gemini: {
    allowed: /[A-Za-z0-9_.:-]/,
    first: /[A-Za-z_]/,
    text: "letters, digits, _ . : and -, starting with a letter or _",
  },
};

function valid(name: string, rule: Rule): boolean {
  const chars = [...name];
  return chars.length >= 1 && chars.length <= MAX_LENGTH && rule.first.test(chars[0]!) &&
    chars.every((char) => rule.allowed.test(char));
}

/**
 * Why each provider would refuse a tool name; empty when all accept it.
 *
 * @param name The MCP tool name.
 * @returns One entry per provider that refuses it.
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
export function toolNameProblems(name: string): { provider: ToolNameProvider; problem: string }[] {
  const problems: { provider: ToolNameProvider; problem: string }[] = [];
  const length = [...name].length;
  for (const provider of TOOL_NAME_PROVIDERS) {
    const rule = RULES[provider];
    if (valid(name, rule)) continue;
    const bad = [...new Set([...name].filter((char) => !rule.allowed.test(char)))];
    const reasons: string[] = [];
    if (length === 0) reasons.push("it is empty");
    if (length > MAX_LENGTH) reasons.push(`it has ${length} characters (at most ${MAX_LENGTH})`);
    if (bad.length > 0) {
      reasons.push(`it contains ${bad.map((char) => JSON.stringify(char)).join(", ")}`);
    }
    if (length > 0 && !rule.first.test([...name][0]!) && bad.length === 0) {
      reasons.push("it does not start with a letter or _");
    }
    problems.push({ provider, problem: `${reasons.join("; ")} (allowed: ${rule.text})` });
  }
  return problems;
}

// FNV-1a, 32 bits, as base 36: a short, stable tag that tells apart names that sanitize alike.
function tag(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of new TextEncoder().encode(text)) {
    hash ^= char;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, "0");
}

function sanitize(name: string, rule: Rule): string {
  let out = [...name].map((char) => rule.allowed.test(char) ? char : "_").join("");
  if (out === "" || !rule.first.test(out[0]!)) out = `_${out}`;
  return out;
}

/**
 * Names a provider accepts for a list of MCP tool names: a valid name maps
 * to itself; an invalid one gets its refused characters replaced by `_`
 * (and a leading `_` where the provider needs one), cut to 64 characters,
 * with a short hash of the original appended when that would collide or was
 * cut. The map is injective and depends only on the set of names.
 *
 * @param names The MCP tool names (duplicates are mapped once).
 * @param provider The model API.
 * @returns MCP name → provider-safe name.
 *
 * @example Usage
 * ```ts
 * import { providerToolNames } from "./tool_names.ts";
 * import assert from "node:assert/strict";
 *
 * const map = providerToolNames(["files.read", "files_read", "ok"], "openai");
 * assert.equal(map.get("ok"), "ok");
 * assert.equal(map.get("files_read"), "files_read");
 * assert.match(map.get("files.read")!, /^files_read_[0-9a-z]{7}$/);
 * ```
 */
export function providerToolNames(
  names: readonly string[],
  provider: ToolNameProvider,
): Map<string, string> {
  const rule = RULES[provider];
  const unique = [...new Set(names)];
  const map = new Map<string, string>();
  const taken = new Set<string>();
  // Valid names keep themselves and are reserved first, so an invalid name never takes one.
  for (const name of unique) {
    if (valid(name, rule)) {
      map.set(name, name);
      taken.add(name);
    }
  }
  const invalid = unique.filter((name) => !map.has(name)).sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  for (const name of invalid) {
    const base = sanitize(name, rule);
    let candidate = [...base].length <= MAX_LENGTH ? base : "";
    if (candidate === "" || taken.has(candidate)) {
      const suffix = `_${tag(name)}`;
      candidate = [...base].slice(0, MAX_LENGTH - suffix.length).join("") + suffix;
    }
    for (let i = 2; taken.has(candidate); i++) {
      const suffix = `_${tag(name)}${i}`;
      candidate = [...base].slice(0, MAX_LENGTH - suffix.length).join("") + suffix;
    }
    map.set(name, candidate);
    taken.add(candidate);
  }
  // In the caller's order.
  return new Map(unique.map((name) => [name, map.get(name)!]));
}
