/**
 * Tool lint: what a model and a careful client would say about a tool list
 * that is valid MCP. Names every major provider accepts (the table `agent
 * run` maps names with), descriptions for each tool and parameter,
 * annotation hints that agree with each other (an absent hint has its MCP
 * default: `readOnlyHint` false, `destructiveHint` true, `idempotentHint`
 * false, `openWorldHint` true), hidden Unicode or instruction-like text in
 * descriptions (a prompt-injection smell), and the catalog's size in tokens,
 * estimated as bytes / 4.
 *
 * @module
 */

import { isJsonObject } from "../scoring/calls.ts";
import { toolNameProblems } from "../mcp/tool_names.ts";

/** What the lint found. */
export interface ToolLint {
  /** One line per problem, naming the tool (and parameter). */
  warns: string[];
  /** Estimated tokens of the tool list a model is sent (bytes of its JSON / 4). */
  estimatedTokens: number;
  /** How many tools have no annotations (clients treat them as destructive and open-world). */
  unannotated: number;
}

/** The MCP defaults of the tool annotation hints. */
export const HINT_DEFAULTS: Readonly<Record<string, boolean>> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * A tool's hints with the MCP defaults filled in.
 *
 * @param annotations The tool's `annotations` (or `undefined`).
 * @returns Every hint, as a client must read it.
 *
 * @example Usage
 * ```ts
 * import { effectiveHints } from "./tool_lint.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(effectiveHints({ readOnlyHint: true }), {
 *   readOnlyHint: true, destructiveHint: true, idempotentHint: false, openWorldHint: true,
 * });
 * ```
 */
export function effectiveHints(annotations: unknown): Record<string, boolean> {
  const out: Record<string, boolean> = { ...HINT_DEFAULTS };
  if (isJsonObject(annotations)) {
    for (const key of Object.keys(HINT_DEFAULTS)) {
      if (typeof annotations[key] === "boolean") out[key] = annotations[key] as boolean;
    }
  }
  return out;
}

// Zero-width and bidirectional controls, invisible operators, tag characters, BOM, C0/C1 controls.
const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/u;

const INSTRUCTIONS: RegExp[] = [
  /\b(?:ignore|disregard|forget)\b.{0,20}\b(?:previous|prior|above|earlier|all other)\b.{0,20}\b(?:instructions?|prompts?|rules)\b/i,
  /<\/?(?:important|system|instructions?|secret|admin)>/i,
  /\bdo not (?:tell|inform|mention|reveal|show)\b.{0,30}\buser\b/i,
  /\b(?:before|instead of) (?:using|calling) (?:any )?(?:other|another) tools?\b/i,
  /\bsystem prompt\b/i,
  /(?:~\/\.ssh|id_rsa|\.aws\/credentials|\/etc\/passwd|\.env\b)/i,
  /\b(?:send|upload|post|forward|exfiltrate)\b.{0,40}\b(?:api[ _-]?keys?|passwords?|credentials|tokens?|secrets?)\b/i,
];

function hidden(text: string): string | null {
  const match = HIDDEN.exec(text);
  if (!match) return null;
  const code = match[0].codePointAt(0)!;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

function instructionLike(text: string): string | null {
  for (const pattern of INSTRUCTIONS) {
    const match = pattern.exec(text);
    if (match) {
      const snippet = match[0].replace(HIDDEN, "").slice(0, 60);
      return JSON.stringify(snippet);
    }
  }
  return null;
}

function trivial(description: unknown, name: string): string | null {
  if (typeof description !== "string" || description.trim() === "") return "no description";
  const text = description.trim();
  const words = text.split(/\s+/).length;
  if (text.toLowerCase().replace(/[\s_-]+/g, "") === name.toLowerCase().replace(/[\s_-]+/g, "")) {
    return "a description that only repeats the name";
  }
  if (words < 3 && text.length < 20) return `a trivial description (${JSON.stringify(text)})`;
  return null;
}

function textFindings(text: unknown, where: string, warns: string[]): void {
  if (typeof text !== "string") return;
  const code = hidden(text);
  if (code !== null) {
    warns.push(
      `${where}: hidden Unicode (${code}) in the text a model reads (a prompt-injection smell)`,
    );
  }
  const phrase = instructionLike(text);
  if (phrase !== null) {
    warns.push(`${where}: instruction-like text ${phrase} (a prompt-injection smell)`);
  }
}

const PROVIDER_NAMES = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini" } as const;

/**
 * Lint a tool list (valid or not: what cannot be read is skipped).
 *
 * @param tools The raw tools.
 * @returns The warnings, the estimated tokens and the count of tools without annotations.
 *
 * @example Usage
 * ```ts
 * import { lintTools } from "./tool_lint.ts";
 * import assert from "node:assert/strict";
 *
 * const lint = lintTools([{
 *   name: "rm",
 *   description: "Delete a file at a path.",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } } },
 *   annotations: { readOnlyHint: true, destructiveHint: true },
 * }]);
 * assert.deepEqual(lint.warns, [
 *   "rm: parameters without a description: path",
 *   "rm: readOnlyHint: true with destructiveHint: true is a contradiction",
 * ]);
 * ```
 */
export function lintTools(tools: readonly unknown[]): ToolLint {
  const warns: string[] = [];
  let unannotated = 0;
  const shown: unknown[] = [];
  tools.forEach((tool, i) => {
    if (!isJsonObject(tool)) return;
    const name = typeof tool.name === "string" ? tool.name : `tools[${i}]`;
    shown.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    if (typeof tool.name === "string") {
      const problems = toolNameProblems(tool.name);
      if (problems.length > 0) {
        const who = problems.map((p) => PROVIDER_NAMES[p.provider]).join(", ");
        warns.push(
          `${name}: ${who} refuse${problems.length === 1 ? "s" : ""} this name: ${
            problems[0]!.problem
          }`,
        );
      }
      textFindings(tool.name, `${name} (name)`, warns);
    }
    const poor = typeof tool.name === "string" ? trivial(tool.description, tool.name) : null;
    if (poor !== null) warns.push(`${name}: ${poor} (the model sees only the name)`);
    textFindings(tool.description, `${name}.description`, warns);
    textFindings(tool.title, `${name}.title`, warns);
    const properties = isJsonObject(tool.inputSchema) && isJsonObject(tool.inputSchema.properties)
      ? tool.inputSchema.properties
      : {};
    const undocumented: string[] = [];
    for (const [param, schema] of Object.entries(properties)) {
      const description = isJsonObject(schema) ? schema.description : undefined;
      if (typeof description !== "string" || description.trim() === "") undocumented.push(param);
      textFindings(description, `${name}.${param}.description`, warns);
    }
    if (undocumented.length > 0) {
      warns.push(`${name}: parameters without a description: ${undocumented.join(", ")}`);
    }
    const annotations = tool.annotations;
    if (!isJsonObject(annotations)) {
      unannotated++;
      return;
    }
    if (annotations.readOnlyHint === true && annotations.destructiveHint === true) {
      warns.push(`${name}: readOnlyHint: true with destructiveHint: true is a contradiction`);
    } else if (annotations.readOnlyHint === true && annotations.idempotentHint === false) {
      warns.push(
        `${name}: readOnlyHint: true with idempotentHint: false (a read that is not repeatable?)`,
      );
    }
    if (
      annotations.readOnlyHint !== true && annotations.destructiveHint === undefined &&
      annotations.idempotentHint !== undefined
    ) {
      warns.push(
        `${name}: idempotentHint without destructiveHint: clients take destructiveHint true (the MCP default)`,
      );
    }
  });
  const bytes = new TextEncoder().encode(JSON.stringify(shown)).length;
  return { warns, estimatedTokens: Math.round(bytes / 4), unannotated };
}
