/**
 * What is wrong with a server's tool list: missing or duplicate names, input
 * schemas that are not objects or not valid JSON Schema (validated against
 * the draft their `$schema` names, draft-07 when it names none), missing
 * descriptions; and the canonical hash of the list that a spec can pin.
 *
 * @module
 */

import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isJsonObject } from "../scoring/calls.ts";
import { jsonSha256 } from "../base/canonical.ts";
import { pointerToPath } from "../base/json_pointer.ts";

/** Problems found in a tool list. */
export interface ToolListIssues {
  /** Problems that make a tool unusable (no name, a duplicate, no object input schema). */
  fails: string[];
  /** Problems a model may survive (an invalid schema, no description, a name providers reject). */
  warns: string[];
}

type Draft = "draft-07" | "2019-09" | "2020-12";

function draftOf(schema: Record<string, unknown>): Draft | { unsupported: string } {
  const name = schema.$schema;
  if (name === undefined) return "draft-07";
  if (typeof name !== "string") return { unsupported: "a non-string $schema" };
  if (name.includes("2020-12")) return "2020-12";
  if (name.includes("2019-09")) return "2019-09";
  if (name.includes("draft-07")) return "draft-07";
  return { unsupported: name };
}

// The URI each Ajv class registers its meta-schema under.
const META_SCHEMAS: Record<Draft, string> = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

interface Validators {
  "draft-07": Ajv;
  "2019-09": Ajv2019;
  "2020-12": Ajv2020;
}

function validators(): Validators {
  // Not strict: unknown keywords are common in the wild and are not errors of JSON Schema.
  const options = { strict: false, validateFormats: false, addUsedSchema: false, allErrors: false };
  return {
    "draft-07": new Ajv(options),
    "2019-09": new Ajv2019(options),
    "2020-12": new Ajv2020(options),
  };
}

/**
 * Why a schema is not a valid JSON Schema of its draft, or `null` when it is.
 *
 * @param schema The input schema.
 * @param ajv The validators, one per draft.
 * @returns A short reason, or `null`.
 */
function schemaProblem(schema: Record<string, unknown>, ajv: Validators): string | null {
  const draft = draftOf(schema);
  if (typeof draft !== "string") {
    return `its $schema (${draft.unsupported}) is not a draft we can check`;
  }
  const validator = ajv[draft];
  // Ajv knows each meta-schema by one URI only; servers also write https://…draft-07/schema,
  // http://…/2020-12/schema and the like, which would otherwise throw "no schema with key".
  const normalized = { ...schema, $schema: META_SCHEMAS[draft] };
  try {
    if (!validator.validateSchema(normalized)) {
      const error = validator.errors?.[0];
      const where = error ? pointerToPath(error.instancePath) : "";
      return `not a valid ${draft} JSON Schema (${where === "" ? "" : `${where} `}${
        error?.message ?? "invalid"
      })`;
    }
    validator.compile(normalized);
  } catch (error) {
    // One odd tool must never stop the doctor: whatever Ajv throws is this tool's problem.
    return `not a usable ${draft} JSON Schema (${(error as Error).message.split("\n")[0]})`;
  }
  return null;
}

// Function names every provider accepts (OpenAI's rule is the strictest).
const PORTABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Check a tool list as a server sent it.
 *
 * @param tools The raw tool objects from `tools/list` (all pages).
 * @returns The failures and warnings, each naming the tool.
 *
 * @example Usage
 * ```ts
 * import { toolListIssues } from "./tool_schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const issues = toolListIssues([
 *   { name: "add", description: "Add.", inputSchema: { type: "object" } },
 *   { name: "bad", description: "Bad.", inputSchema: { type: "object", properties: { n: { minimum: "0" } } } },
 *   { name: "add", inputSchema: { type: "object" } },
 * ]);
 * assert.deepEqual(issues.fails, ["tools[2] (add): the name add is used twice"]);
 * assert.match(issues.warns[0]!, /^bad: not a valid draft-07 JSON Schema \(properties\.n\.minimum must be number\)/);
 * ```
 */
export function toolListIssues(tools: readonly unknown[]): ToolListIssues {
  const fails: string[] = [];
  const warns: string[] = [];
  const seen = new Set<string>();
  const ajv = validators();
  tools.forEach((tool, i) => {
    if (!isJsonObject(tool)) {
      fails.push(`tools[${i}]: not an object`);
      return;
    }
    const name = typeof tool.name === "string" && tool.name !== "" ? tool.name : undefined;
    const label = name ?? `tools[${i}]`;
    if (name === undefined) {
      fails.push(`tools[${i}]: no name`);
    } else if (seen.has(name)) {
      fails.push(`tools[${i}] (${name}): the name ${name} is used twice`);
      return;
    } else {
      seen.add(name);
      if (!PORTABLE_NAME.test(name)) {
        warns.push(
          `${name}: model APIs accept only letters, digits, _ and - (up to 64) in tool names`,
        );
      }
    }
    const schema = tool.inputSchema;
    if (!isJsonObject(schema)) {
      fails.push(`${label}: inputSchema is missing or not an object`);
    } else if (schema.type !== "object") {
      fails.push(
        `${label}: inputSchema must have type "object" (MCP), got ${JSON.stringify(schema.type)}`,
      );
    } else {
      const problem = schemaProblem(schema, ajv);
      if (problem !== null) warns.push(`${label}: ${problem}`);
    }
    if (typeof tool.description !== "string" || tool.description.trim() === "") {
      warns.push(`${label}: no description (the model sees only the name)`);
    }
  });
  return { fails, warns };
}

/**
 * The canonical SHA-256 of a tool list, independent of the order the server
 * lists the tools in: RFC 8785 JSON of the tools sorted by name. Pin it as
 * `server.verify.tools_sha256`.
 *
 * @param tools The raw tool objects.
 * @returns 64 lowercase hex digits.
 *
 * @example Usage
 * ```ts
 * import { toolsSha256 } from "./tool_schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const a = { name: "a", inputSchema: { type: "object" } };
 * const b = { name: "b", inputSchema: { type: "object" } };
 * assert.equal(toolsSha256([a, b]), toolsSha256([b, a]));
 * ```
 */
export function toolsSha256(tools: readonly unknown[]): string {
  const nameOf = (tool: unknown) =>
    isJsonObject(tool) && typeof tool.name === "string" ? tool.name : "";
  const sorted = [...tools].sort((x, y) => {
    const [a, b] = [nameOf(x), nameOf(y)];
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return jsonSha256(sorted);
}
