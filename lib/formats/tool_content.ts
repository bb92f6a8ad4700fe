/**
 * The no-silent-zero rule: a document that holds tool-call content but was
 * read into no calls is an error naming where the content is and what it
 * looks like, never a trace with 0 calls scored as if the agent did nothing.
 *
 * Tool-call content is a non-empty `tool_calls` list, an OpenAI legacy
 * `function_call`, a Gemini `functionCall`, a block or item whose `type` is
 * a call (`tool_use`, `function_call`, `mcp_call`, `*_call`…), a JSON-RPC
 * `tools/call` request, an OTel `execute_tool` span or `gen_ai.tool.name`
 * attribute, a LangChain `tool_input`, or a non-empty `calls` list. Tool
 * *definitions* (`tools`, `functions`, `tool_choice`, `tool_defs`) are not
 * looked into.
 *
 * @module
 */

import { describeJson, isJsonObject } from "../scoring/calls.ts";

/** Where tool-call content was found, and what it looked like. */
export interface ToolContent {
  /** The JSON path of the content (`[3].traj[2].tool_calls`). */
  path: string;
  /** What was seen there, for a person. */
  shape: string;
}

const DEFINITION_KEYS = new Set([
  "tools",
  "functions",
  "tool_choice",
  "tool_defs",
  "tool_definitions",
  "toolConfig",
  "tool_config",
  "function_declarations",
  "functionDeclarations",
  "parallel_tool_calls",
]);

const CALL_TYPES = new Set([
  "tool_use",
  "server_tool_use",
  "mcp_tool_use",
  "function_call",
  "custom_tool_call",
  "mcp_call",
  "tool-call",
  "tool_call",
]);

// Keys whose presence is a call, when their value is an object or a non-empty list.
const CALL_KEYS = ["tool_calls", "toolCalls", "function_call", "functionCall", "tool_input"];

function shapeOf(value: unknown): string {
  if (isJsonObject(value)) {
    const keys = Object.keys(value).slice(0, 6);
    return `an object with keys ${keys.join(", ")}${Object.keys(value).length > 6 ? ", …" : ""}`;
  }
  if (Array.isArray(value) && value.length > 0) {
    return `${describeJson(value)} starting with ${shapeOf(value[0])}`;
  }
  return describeJson(value);
}

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key)
    ? (path === "" ? key : `${path}.${key}`)
    : `${path}[${JSON.stringify(key)}]`;
}

function attributeValue(value: unknown): unknown {
  if (!isJsonObject(value)) return value;
  return value.stringValue ?? value.string_value ?? value;
}

/**
 * The first tool-call content in a document, walking it in document order.
 *
 * @param value The parsed document.
 * @param limit The most nodes to look at (the walk is bounded).
 * @returns Where the content is and what it looks like, or `undefined` when there is none.
 *
 * @example Usage
 * ```ts
 * import { findToolContent } from "./tool_content.ts";
 * import assert from "node:assert/strict";
 *
 * const found = findToolContent({ messages: [{ role: "assistant", tool_calls: [{ id: "1" }] }] });
 * assert.equal(found?.path, "messages[0].tool_calls");
 * assert.equal(findToolContent({ tools: [{ type: "function" }], messages: [] }), undefined);
 * ```
 */
export function findToolContent(value: unknown, limit = 2_000_000): ToolContent | undefined {
  const stack: [unknown, string][] = [[value, ""]];
  let seen = 0;
  while (stack.length > 0 && seen++ < limit) {
    const [node, path] = stack.pop() as [unknown, string];
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child = node[i];
        if (typeof child === "object" && child !== null) stack.push([child, join(path, i)]);
      }
      continue;
    }
    if (!isJsonObject(node)) continue;
    if (typeof node.type === "string" && CALL_TYPES.has(node.type)) {
      return { path, shape: `a ${node.type} item, ${shapeOf(node)}` };
    }
    if (node.method === "tools/call") {
      return { path, shape: `a tools/call request, ${shapeOf(node)}` };
    }
    if (
      node.key === "gen_ai.tool.name" ||
      (node.key === "gen_ai.operation.name" && attributeValue(node.value) === "execute_tool")
    ) {
      return { path, shape: `an OTel tool attribute ${JSON.stringify(node.key)}` };
    }
    if (
      node["gen_ai.tool.name"] !== undefined || node["gen_ai.operation.name"] === "execute_tool"
    ) {
      return { path, shape: `OTel tool attributes, ${shapeOf(node)}` };
    }
    const children: [unknown, string][] = [];
    for (const key of Object.keys(node)) {
      if (DEFINITION_KEYS.has(key)) continue;
      const child = node[key];
      if (CALL_KEYS.includes(key)) {
        if (isJsonObject(child) || (Array.isArray(child) && child.length > 0)) {
          return { path: join(path, key), shape: `${key}: ${shapeOf(child)}` };
        }
      }
      if (key === "calls" && Array.isArray(child) && child.length > 0) {
        return { path: join(path, key), shape: `calls: ${shapeOf(child)}` };
      }
      if (typeof child === "object" && child !== null) children.push([child, join(path, key)]);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as [unknown, string]);
  }
  return undefined;
}
