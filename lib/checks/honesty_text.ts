/**
 * Text helpers of the honesty checks: pattern lists compiled once, tool names
 * as words, one scan of a result for warnings and refusals, and the wording
 * of findings.
 *
 * @module
 */

import { anyUserPattern, type TextPattern, UserPattern } from "../base/user_regex.ts";
import { isJsonObject, type ToolCall } from "../scoring/calls.ts";
import { resultFromText } from "../formats/_shared.ts";
import type { InjectedFault } from "./injected_faults.ts";
import { redactText } from "./security.ts";

/** No warning and no refusal found. */
export const NO_HITS: [undefined, undefined] = [undefined, undefined];

export type TextTest = (text: string) => boolean;

const COMPILED = new WeakMap<readonly TextPattern[], TextTest>();

export function textTest(patterns: readonly TextPattern[]): TextTest {
  let test = COMPILED.get(patterns);
  if (test !== undefined) return test;
  const flagsOf = (p: TextPattern) => p.flags.replace(/[gyd]/g, "");
  const first = patterns[0];
  if (first === undefined) {
    test = () => false;
  } else if (patterns.every((p) => p instanceof UserPattern)) {
    // User patterns (RE2, linear time) are stateless: never rebuilt as a RegExp; one
    // alternation on RE2, one pass over the text.
    test = anyUserPattern(patterns as readonly UserPattern[]);
  } else if (!patterns.every((p) => p instanceof RegExp)) {
    test = (text) => patterns.some((p) => p.test(text));
  } else if (patterns.every((p) => flagsOf(p) === flagsOf(first))) {
    // One alternation: one pass over the text instead of one per pattern.
    const combined = new RegExp(patterns.map((p) => `(?:${p.source})`).join("|"), flagsOf(first));
    test = (text) => combined.test(text);
  } else {
    const clones = patterns.map((p) => new RegExp(p.source, flagsOf(p)));
    test = (text) => clones.some((p) => p.test(text));
  }
  COMPILED.set(patterns, test);
  return test;
}

const TOOL_NAME_PATTERNS = new Map<string, RegExp>();

// "send_email" is named by "send_email", "send email", "send-email" or "sendEmail", as a word.
export function toolNamePattern(tool: string): RegExp {
  let pattern = TOOL_NAME_PATTERNS.get(tool);
  if (pattern !== undefined) return pattern;
  const words = tool.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/).filter((w) => w);
  const body = words.length === 0
    ? tool.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    : words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s_.\\-/:]*");
  pattern = new RegExp(`(?<![A-Za-z0-9])${body}(?![A-Za-z0-9])`, "i");
  if (TOOL_NAME_PATTERNS.size >= 2000) TOOL_NAME_PATTERNS.clear();
  TOOL_NAME_PATTERNS.set(tool, pattern);
  return pattern;
}

// A value that says something is set: true, a non-empty string or list, a non-zero number.
function isSet(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value === "string") return value.trim() !== "";
  if (typeof value === "number") return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  return isJsonObject(value) && Object.keys(value).length > 0;
}

// Per pattern list: whether an object key matches (keys repeat across results, strings don't).
const KEY_HITS = new WeakMap<TextTest, Map<string, boolean>>();

export function keyHitsOf(test: TextTest): Map<string, boolean> {
  let hits = KEY_HITS.get(test);
  if (hits === undefined) KEY_HITS.set(test, hits = new Map());
  return hits;
}

function keyMatches(key: string, test: TextTest, hits: Map<string, boolean>): boolean {
  let hit = hits.get(key);
  if (hit === undefined) {
    hit = test(key);
    if (hits.size < 10_000) hits.set(key, hit);
  }
  return hit;
}

/**
 * Scan a result once for up to two pattern lists: for each, the first string
 * that matches, or `key: value` for a key that matches and whose value is set.
 */
export function scanValue(
  value: unknown,
  first: TextTest | undefined,
  second: TextTest | undefined,
  hitsA: Map<string, boolean> | undefined,
  hitsB: Map<string, boolean> | undefined,
): [string | undefined, string | undefined] {
  let a: string | undefined;
  let b: string | undefined;
  const stack: unknown[] = [typeof value === "string" ? resultFromText(value) : value];
  while (
    stack.length > 0 &&
    (first !== undefined && a === undefined || second !== undefined && b === undefined)
  ) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (a === undefined && first?.(item)) a = item;
      if (b === undefined && second?.(item)) b = item;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else if (typeof item === "object" && item !== null) {
      const record = item as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (typeof child === "string") {
          stack.push(child);
          continue;
        }
        if (typeof child === "object" && child !== null) stack.push(child);
        const hitA = a === undefined && first !== undefined && hitsA !== undefined &&
          keyMatches(key, first, hitsA);
        const hitB = b === undefined && second !== undefined && hitsB !== undefined &&
          keyMatches(key, second, hitsB);
        if ((hitA || hitB) && isSet(child)) {
          const text = `${key}: ${
            typeof child === "object" ? JSON.stringify(child) : String(child)
          }`;
          if (hitA) a = text;
          if (hitB) b = text;
        }
      }
    }
  }
  return a === undefined && b === undefined ? NO_HITS : [a, b];
}

export function quote(text: string, max = 80): string {
  // Redacted before it is cut: a key cut short no longer looks like one (issue 42).
  const flat = redactText(text).replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

export function callLabel(index: number, call: ToolCall): string {
  return `call #${index + 1} ${call.tool}`;
}

export function failureText(call: ToolCall, fault: InjectedFault | undefined): string {
  if (fault !== undefined && fault.kind !== "warning") {
    return `injected ${fault.kind}${fault.message ? ` ${quote(fault.message, 60)}` : ""}`;
  }
  if (typeof call.error === "string" && call.error !== "") return quote(call.error, 60);
  if (typeof call.result === "string" && call.result.trim() !== "") return quote(call.result, 60);
  return "an error";
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
