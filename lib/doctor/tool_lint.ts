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
 * Changed in issue 38: every finding has a code and a JSON pointer into the
 * catalog (`/tools/NAME/inputSchema/properties/q/description`); every
 * description and title at any depth of `inputSchema` and `outputSchema` is
 * read (`anyOf` branches, `$defs`, items…); a parameter's description may sit
 * in its `anyOf`/`oneOf` branches; `readOnlyHint: true` makes
 * `destructiveHint` and `idempotentHint` irrelevant (the spec), so no
 * warning about them; a tool without annotations is a warning
 * (`lint.unannotated`); new: names equal but for case
 * (`lint.case-duplicate`), `required` naming a property that is not there
 * (`lint.required-missing`), `execution.taskSupport: "required"`
 * (`lint.task-required`: a client without tasks cannot call it) and `type`
 * arrays (`lint.type-array`: Gemini's OpenAPI-subset parameters refuse
 * them).
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { toolNameProblems } from "../mcp/tool_names.ts";
import type { DoctorFinding } from "./check.ts";
import { pointerKey, textFindings, walkSchema } from "./lint_text.ts";

/** What the lint found. */
export interface ToolLint {
  /** One finding per problem, with its code and JSON pointer. */
  findings: DoctorFinding[];
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

function trivial(description: unknown, name: string): { code: string; message: string } | null {
  if (typeof description !== "string" || description.trim() === "") {
    return {
      code: "lint.no-description",
      message: "no description (the model sees only the name)",
    };
  }
  const text = description.trim();
  const words = text.split(/\s+/).length;
  if (text.toLowerCase().replace(/[\s_-]+/g, "") === name.toLowerCase().replace(/[\s_-]+/g, "")) {
    return {
      code: "lint.trivial-description",
      message: "a description that only repeats the name (the model sees only the name)",
    };
  }
  if (words < 3 && text.length < 20) {
    return {
      code: "lint.trivial-description",
      message: `a trivial description (${JSON.stringify(text)})`,
    };
  }
  return null;
}

/** A parameter's description: its own, else the first of its `anyOf`/`oneOf` branches. */
function describedIn(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
  if (typeof schema.description === "string" && schema.description.trim() !== "") return true;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (Array.isArray(list) && list.some(describedIn)) return true;
  }
  return typeof schema.$ref === "string"; // described where it points (checked there)
}

const PROVIDER_NAMES = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini" } as const;

function schemaFindings(schema: unknown, at: string, out: DoctorFinding[]): void {
  walkSchema(schema, at, (node, where) => {
    out.push(...textFindings(node.description, `${where}/description`, "the description"));
    out.push(...textFindings(node.title, `${where}/title`, "the title"));
    if (Array.isArray(node.type) && node.type.length > 1) {
      out.push({
        code: "lint.type-array",
        severity: "warn",
        path: `${where}/type`,
        message: `type ${
          JSON.stringify(node.type)
        } is an array: some providers refuse it (Gemini's OpenAPI-subset parameters); anyOf works everywhere`,
      });
    }
    const properties = isJsonObject(node.properties) ? node.properties : null;
    const composed = ["anyOf", "oneOf", "allOf", "$ref", "patternProperties"].some((key) =>
      node[key] !== undefined
    ) || isJsonObject(node.additionalProperties);
    if (Array.isArray(node.required) && !composed) {
      for (const name of node.required) {
        if (typeof name === "string" && (properties === null || !Object.hasOwn(properties, name))) {
          out.push({
            code: "lint.required-missing",
            severity: "warn",
            path: `${where}/required`,
            message: `required names ${JSON.stringify(name)}, which is not among the properties: ${
              node.additionalProperties === false
                ? "no call can satisfy it"
                : "a model is never told what to send"
            }`,
          });
        }
      }
    }
  });
}

function hintFindings(annotations: JsonObject, at: string, out: DoctorFinding[]): void {
  // readOnlyHint: true makes destructiveHint and idempotentHint irrelevant (the MCP spec).
  if (annotations.readOnlyHint === true) return;
  if (annotations.destructiveHint === undefined && annotations.idempotentHint !== undefined) {
    out.push({
      code: "lint.hint-default",
      severity: "warn",
      path: `${at}/annotations/destructiveHint`,
      message:
        "idempotentHint without destructiveHint: clients take destructiveHint true (the MCP default)",
    });
  }
}

/**
 * Lint a tool list (valid or not: what cannot be read is skipped).
 *
 * @param tools The raw tools.
 * @returns The findings, the estimated tokens and the count of tools without annotations.
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
 *   annotations: { destructiveHint: true },
 * }]);
 * assert.deepEqual(lint.findings, [{
 *   code: "lint.param-no-description",
 *   severity: "warn",
 *   path: "/tools/rm/inputSchema/properties/path",
 *   message: "the parameter path has no description",
 * }]);
 * ```
 */
export function lintTools(tools: readonly unknown[]): ToolLint {
  const findings: DoctorFinding[] = [];
  let unannotated = 0;
  const shown: unknown[] = [];
  const byLower = new Map<string, string>();
  tools.forEach((tool, i) => {
    if (!isJsonObject(tool)) return;
    const name = typeof tool.name === "string" ? tool.name : `tools[${i}]`;
    const at = `/tools/${pointerKey(name)}`;
    const warn = (code: string, path: string, message: string) =>
      findings.push({ code, severity: "warn", path, message });
    shown.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    if (typeof tool.name === "string") {
      const problems = toolNameProblems(tool.name);
      if (problems.length > 0) {
        const who = problems.map((p) => PROVIDER_NAMES[p.provider]).join(", ");
        warn(
          "lint.name-refused",
          at,
          `${who} refuse${problems.length === 1 ? "s" : ""} the name ${tool.name}: ${
            problems[0]!.problem
          }`,
        );
      }
      findings.push(...textFindings(tool.name, at, "the name"));
      const lower = tool.name.toLowerCase();
      const other = byLower.get(lower);
      if (other !== undefined && other !== tool.name) {
        warn(
          "lint.case-duplicate",
          at,
          `the names ${other} and ${tool.name} differ only in case (providers and clients that fold case see one tool)`,
        );
      } else byLower.set(lower, tool.name);
      const poor = trivial(tool.description, tool.name);
      if (poor !== null) warn(poor.code, `${at}/description`, poor.message);
    }
    findings.push(...textFindings(tool.description, `${at}/description`, "the description"));
    findings.push(...textFindings(tool.title, `${at}/title`, "the title"));
    const properties = isJsonObject(tool.inputSchema) && isJsonObject(tool.inputSchema.properties)
      ? tool.inputSchema.properties
      : {};
    for (const [param, schema] of Object.entries(properties)) {
      if (!describedIn(schema)) {
        warn(
          "lint.param-no-description",
          `${at}/inputSchema/properties/${pointerKey(param)}`,
          `the parameter ${param} has no description`,
        );
      }
    }
    schemaFindings(tool.inputSchema, `${at}/inputSchema`, findings);
    schemaFindings(tool.outputSchema, `${at}/outputSchema`, findings);
    if (isJsonObject(tool.execution) && tool.execution.taskSupport === "required") {
      warn(
        "lint.task-required",
        `${at}/execution/taskSupport`,
        'execution.taskSupport is "required": a client without tasks cannot call this tool',
      );
    }
    const annotations = tool.annotations;
    if (!isJsonObject(annotations)) {
      unannotated++;
      warn(
        "lint.unannotated",
        `${at}/annotations`,
        "no annotations: clients take it as destructive, not idempotent and open-world (the MCP defaults)",
      );
      return;
    }
    findings.push(...textFindings(annotations.title, `${at}/annotations/title`, "the title"));
    hintFindings(annotations, at, findings);
  });
  const bytes = new TextEncoder().encode(JSON.stringify(shown)).length;
  return { findings, estimatedTokens: Math.round(bytes / 4), unannotated };
}
