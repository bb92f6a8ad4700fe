/**
 * What is wrong with a server's tool list, as the official SDK's client and
 * the model APIs see it: the list checked with the SDK's own result schema
 * (what its client enforces: an annotation of the wrong type fails the whole
 * list), missing or duplicate names, and every `inputSchema` and
 * `outputSchema` compiled as a JSON Schema of the dialect its `$schema` names
 * — or, without one, the dialect of the negotiated protocol version (2020-12
 * from 2025-11-25 on, draft-07 before). Each problem names its JSON path.
 * Also the canonical hash of the list that a spec can pin.
 *
 * Changed from the design page (issue 18): schemas without `$schema` follow
 * the negotiated protocol version instead of always draft-07; an invalid
 * schema fails (the SDK's client refuses an invalid `outputSchema`, model
 * APIs an invalid input schema); descriptions moved to the tool lint.
 *
 * @module
 */

import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject } from "../scoring/calls.ts";
import { jsonSha256 } from "../base/canonical.ts";
import { pointerToPath } from "../base/json_pointer.ts";
import { issueLines } from "../mcp/client_failure.ts";

/** Problems found in a tool list. */
export interface ToolListIssues {
  /** Problems a client or a model API refuses (the SDK's schema, names, invalid JSON Schemas). */
  fails: string[];
  /** Problems a client survives (a `$schema` dialect we cannot check). */
  warns: string[];
}

/** A JSON Schema dialect the doctor can check. */
export type SchemaDialect = "draft-07" | "2019-09" | "2020-12";

/** Options for {@linkcode toolListIssues}. */
export interface ToolListIssuesOptions {
  /**
   * The negotiated protocol version: schemas without `$schema` are 2020-12
   * from 2025-11-25 on, draft-07 before.
   * @default {undefined} (draft-07)
   */
  protocolVersion?: string | null;
}

/**
 * The dialect a schema without `$schema` has under a protocol version.
 *
 * @param protocolVersion The negotiated version.
 * @returns `2020-12` from 2025-11-25 on, else `draft-07`.
 *
 * @example Usage
 * ```ts
 * import { defaultDialect } from "./tool_schemas.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(defaultDialect("2025-11-25"), "2020-12");
 * assert.equal(defaultDialect("2025-06-18"), "draft-07");
 * ```
 */
export function defaultDialect(protocolVersion: string | null | undefined): SchemaDialect {
  return protocolVersion !== null && protocolVersion !== undefined &&
      protocolVersion >= "2025-11-25"
    ? "2020-12"
    : "draft-07";
}

function dialectOf(
  schema: Record<string, unknown>,
  fallback: SchemaDialect,
): SchemaDialect | { unsupported: string } {
  const name = schema.$schema;
  if (name === undefined) return fallback;
  if (typeof name !== "string") return { unsupported: "a non-string $schema" };
  if (name.includes("2020-12")) return "2020-12";
  if (name.includes("2019-09")) return "2019-09";
  if (name.includes("draft-07")) return "draft-07";
  return { unsupported: name };
}

// The URI each Ajv class registers its meta-schema under.
const META_SCHEMAS: Record<SchemaDialect, string> = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

type Validators = Record<SchemaDialect, Ajv>;

function validators(): Validators {
  // Not strict: unknown keywords are common in the wild and are not errors of JSON Schema.
  const options = { strict: false, validateFormats: false, addUsedSchema: false, allErrors: true };
  return {
    "draft-07": new Ajv(options),
    "2019-09": new Ajv2019(options) as unknown as Ajv,
    "2020-12": new Ajv2020(options) as unknown as Ajv,
  };
}

/**
 * Why a schema is not a valid JSON Schema of its dialect, one line per
 * problem with its path under `where`; empty when it is valid.
 *
 * @param schema The schema.
 * @param where Its JSON path, e.g. `tools[2].inputSchema`.
 * @param fallback The dialect when it names none.
 * @param ajv The validators, one per dialect.
 * @returns The problems, at most five.
 */
function schemaProblems(
  schema: Record<string, unknown>,
  where: string,
  fallback: SchemaDialect,
  ajv: Validators,
): { fails: string[]; warns: string[] } {
  const dialect = dialectOf(schema, fallback);
  if (typeof dialect !== "string") {
    return {
      fails: [],
      warns: [`${where}.$schema: ${dialect.unsupported} is not a dialect we can check`],
    };
  }
  const validator = ajv[dialect];
  // Ajv knows each meta-schema by one URI only; servers also write https://…draft-07/schema,
  // http://…/2020-12/schema and the like, which would otherwise throw "no schema with key".
  const normalized = { ...schema, $schema: META_SCHEMAS[dialect] };
  const named = schema.$schema === undefined ? `${dialect} (the protocol's default)` : dialect;
  try {
    if (!validator.validateSchema(normalized)) {
      const errors = (validator.errors ?? []).filter((error) => error.keyword !== "$dynamicRef");
      const lines = [
        ...new Set(errors.map((error) => {
          const path = pointerToPath(error.instancePath);
          return `${where}${path === "" ? "" : path.startsWith("[") ? path : `.${path}`}: ${
            error.message ?? "invalid"
          } (not a valid ${named} JSON Schema)`;
        })),
      ];
      return { fails: lines.slice(0, 5), warns: [] };
    }
    validator.compile(normalized);
  } catch (error) {
    // One odd tool must never stop the doctor: whatever Ajv throws is this tool's problem.
    return {
      fails: [
        `${where}: not a usable ${named} JSON Schema (${(error as Error).message.split("\n")[0]})`,
      ],
      warns: [],
    };
  }
  return { fails: [], warns: [] };
}

/**
 * Check a tool list as a server sent it.
 *
 * @param tools The raw tool objects from `tools/list` (all pages).
 * @param options The negotiated protocol version.
 * @returns The failures and warnings, each with its JSON path and tool.
 *
 * @example Usage
 * ```ts
 * import { toolListIssues } from "./tool_schemas.ts";
 * import assert from "node:assert/strict";
 *
 * const issues = toolListIssues([
 *   { name: "add", description: "Add.", inputSchema: { type: "object" } },
 *   { name: "bad", inputSchema: { type: "object", properties: { n: { minimum: "0" } } } },
 *   { name: "add", inputSchema: { type: "object" } },
 * ]);
 * assert.deepEqual(issues.fails, [
 *   "tools[1].inputSchema.properties.n.minimum: must be number (not a valid draft-07 (the protocol's default) JSON Schema) (tool bad)",
 *   "tools[2]: the name add is used twice",
 * ]);
 * ```
 */
export function toolListIssues(
  tools: readonly unknown[],
  options: ToolListIssuesOptions = {},
): ToolListIssues {
  const fails: string[] = [];
  const warns: string[] = [];
  // What the SDK's client enforces: one bad field fails the whole list there.
  const parsed = ListToolsResultSchema.safeParse({ tools });
  if (!parsed.success) {
    const lines = issueLines(parsed.error.issues, 12);
    for (const line of lines) {
      const index = /^tools\[(\d+)\]/.exec(line)?.[1];
      const name = index === undefined
        ? undefined
        : (tools[Number(index)] as { name?: unknown })?.name;
      fails.push(
        `${line} (the SDK's client refuses the list${
          typeof name === "string" ? `; tool ${name}` : ""
        })`,
      );
    }
  }
  const seen = new Set<string>();
  const ajv = validators();
  const fallback = defaultDialect(options.protocolVersion);
  tools.forEach((tool, i) => {
    if (!isJsonObject(tool)) return; // the SDK's schema said so
    const name = typeof tool.name === "string" && tool.name !== "" ? tool.name : undefined;
    if (name !== undefined) {
      if (seen.has(name)) {
        fails.push(`tools[${i}]: the name ${name} is used twice`);
        return;
      }
      seen.add(name);
    } else if (parsed.success) {
      fails.push(`tools[${i}].name: empty`);
    }
    const label = name === undefined ? "" : ` (tool ${name})`;
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[key];
      if (!isJsonObject(schema)) continue; // missing or not an object: the SDK's schema said so
      const found = schemaProblems(schema, `tools[${i}].${key}`, fallback, ajv);
      fails.push(...found.fails.map((line) => line + label));
      warns.push(...found.warns.map((line) => line + label));
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
