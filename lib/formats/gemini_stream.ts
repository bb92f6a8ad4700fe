/**
 * Gemini streamed function-call arguments (Vertex AI
 * `streamFunctionCallArguments`): a `functionCall{name, willContinue: true}`
 * part starts a call, `partialArgs[{jsonPath, stringValue|numberValue|
 * boolValue|nullValue, willContinue}]` fragments fill its arguments (string
 * fragments at one path are concatenated), and a part without `willContinue`
 * ends it. Paths are bounded (64 segments, indexes up to 10,000).
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../scoring/calls.ts";
import { InputError } from "../base/errors.ts";

const MAX_PATH_SEGMENTS = 64;
const MAX_ARRAY_INDEX = 10_000;

/** The segments of a partialArgs `jsonPath`: `$.a.b[0]['c d']`. */
function pathSegments(path: string, where: string): (string | number)[] {
  if (!path.startsWith("$")) {
    throw new InputError(`jsonPath ${JSON.stringify(path)} does not start with $`, where);
  }
  const out: (string | number)[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\[(?:'([^']*)'|"([^"]*)")\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const at = pattern.lastIndex;
    const match = pattern.exec(path);
    if (match === null || out.length >= MAX_PATH_SEGMENTS) {
      throw new InputError(
        `jsonPath ${JSON.stringify(path)} cannot be read at character ${at}`,
        where,
      );
    }
    if (match[2] !== undefined) {
      const index = Number(match[2]);
      if (index > MAX_ARRAY_INDEX) {
        throw new InputError(
          `jsonPath ${JSON.stringify(path)} has an index over ${MAX_ARRAY_INDEX}`,
          where,
        );
      }
      out.push(index);
    } else out.push((match[1] ?? match[3] ?? match[4]) as string);
  }
  return out;
}

function applyPartialArg(args: JsonObject, fragment: JsonObject, where: string): void {
  if (typeof fragment.jsonPath !== "string") return;
  const segments = pathSegments(fragment.jsonPath, where);
  if (segments.length === 0) return;
  let value: unknown;
  if (typeof fragment.stringValue === "string") value = fragment.stringValue;
  else if (typeof fragment.numberValue === "number") value = fragment.numberValue;
  else if (typeof fragment.boolValue === "boolean") value = fragment.boolValue;
  else if ("nullValue" in fragment) value = null;
  else return;
  let node: Record<string | number, unknown> = args;
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    // No holes in an array: the places before an index are null, as JSON would write them.
    if (Array.isArray(node) && typeof segment === "number") {
      while (node.length < segment) node.push(null);
    }
    if (last) {
      const existing = node[segment];
      node[segment] = typeof value === "string" && typeof existing === "string"
        ? existing + value
        : value;
      return;
    }
    let child = node[segment];
    if (typeof child !== "object" || child === null) {
      child = typeof segments[i + 1] === "number" ? [] : {};
      node[segment] = child;
    }
    node = child as Record<string | number, unknown>;
  });
}

function hasStreamedArgs(chunks: JsonObject[]): boolean {
  return chunks.some((chunk) =>
    (chunk.candidates as unknown[]).some((c) =>
      isJsonObject(c) && isJsonObject(c.content) && Array.isArray(c.content.parts) &&
      c.content.parts.some((p) =>
        isJsonObject(p) && isJsonObject(p.functionCall) &&
        (p.functionCall.willContinue === true || Array.isArray(p.functionCall.partialArgs))
      )
    )
  );
}

/**
 * Gemini stream chunks with streamed function-call arguments put together:
 * the chunks themselves when none has `willContinue` or `partialArgs`, else
 * one response whose parts are every chunk's parts in order, each streamed
 * call one `functionCall{name, args}`.
 *
 * @param chunks The `streamGenerateContent` chunks.
 * @param source The file name, for errors.
 * @returns The chunks, or the merged response.
 * @throws {InputError} On a `jsonPath` that cannot be read or indexes too far.
 *
 * @example Usage
 * ```ts
 * import { mergeGeminiChunks } from "./gemini_stream.ts";
 * import assert from "node:assert/strict";
 *
 * const part = (functionCall: unknown) => ({ candidates: [{ content: { parts: [{ functionCall }] } }] });
 * const merged = mergeGeminiChunks([
 *   part({ name: "w", willContinue: true }),
 *   part({ partialArgs: [{ jsonPath: "$.city", stringValue: "Rome" }] }),
 * ], "g.jsonl") as { candidates: { content: { parts: unknown[] } }[] };
 * assert.deepEqual(merged.candidates[0]?.content.parts, [{ functionCall: { name: "w", args: { city: "Rome" } } }]);
 * ```
 */
export function mergeGeminiChunks(chunks: JsonObject[], source: string): unknown {
  if (!hasStreamedArgs(chunks)) return chunks;
  const parts: unknown[] = [];
  let pending: { call: JsonObject; args: JsonObject } | undefined;
  const finish = () => {
    if (pending === undefined) return;
    parts.push({ functionCall: { ...pending.call, args: pending.args } });
    pending = undefined;
  };
  let last: JsonObject | undefined;
  chunks.forEach((chunk, i) => {
    last = chunk;
    const candidate = (chunk.candidates as unknown[])[0];
    if (!isJsonObject(candidate) || !isJsonObject(candidate.content)) return;
    const chunkParts = Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    chunkParts.forEach((part, j) => {
      const fn = isJsonObject(part) ? part.functionCall : undefined;
      if (!isJsonObject(fn)) {
        parts.push(part);
        return;
      }
      const where = `${source}: [${i}].candidates[0].content.parts[${j}].functionCall`;
      if (typeof fn.name === "string" && fn.name !== "") {
        finish();
        const { willContinue: _more, partialArgs: _partial, args, ...call } = fn;
        pending = { call, args: isJsonObject(args) ? { ...args } : {} };
      } else if (pending === undefined) {
        parts.push(part); // a fragment of no call: the reader names it
        return;
      }
      if (Array.isArray(fn.partialArgs)) {
        for (const fragment of fn.partialArgs) {
          if (isJsonObject(fragment)) applyPartialArg(pending!.args, fragment, where);
        }
      }
      if (fn.willContinue !== true) finish();
    });
  });
  finish();
  const response: JsonObject = {
    ...(last ?? {}),
    candidates: [{ content: { role: "model", parts } }],
  };
  const first = chunks.find((c) => typeof c.modelVersion === "string");
  if (first !== undefined) response.modelVersion = first.modelVersion;
  return response;
}
