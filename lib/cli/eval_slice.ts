/**
 * Turning rendered traces into a {@linkcode RenderedSlice}: their texts
 * joined as `eval` prints them, escaped and encoded once, so the thread that
 * rendered them — a worker or the main thread — also does the escaping and
 * encoding, and the command only writes bytes.
 *
 * @module
 */

import { escapeControl, OWN_COLOR_SEQUENCES } from "../base/terminal_safe.ts";
import type { RenderedResult, RenderedSlice } from "./eval_types.ts";

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/**
 * What goes between two traces' texts: `,\n` between JSON documents, a blank
 * line between console blocks.
 *
 * @param json Whether the run prints JSON.
 * @returns The separator.
 */
export function traceSeparator(json: boolean): string {
  return json ? ",\n" : "\n\n";
}

/**
 * Join, escape and encode rendered traces.
 *
 * @param rendered The traces, in order.
 * @param json Whether the run prints JSON: then each text is `JSON.stringify`
 * output (no raw C0 control character), which the escaping relies on.
 * @param color Whether stdout is coloured (toolscore's own colour codes then stay).
 * @returns The slice.
 *
 * @example Usage
 * ```ts
 * import { sliceOf } from "./eval_slice.ts";
 * import assert from "node:assert/strict";
 *
 * const row = { name: "t", score: 1, grade: "A", selection: 1, argumentF1: 1, sequence: 1, requiredCalls: 1, passed: true };
 * const slice = sliceOf([{ text: "a\x1b", row, violations: 0 }, { text: "b", row, violations: 1 }], false, false);
 * assert.equal(new TextDecoder().decode(slice.bytes), "a\\u001b\n\nb");
 * assert.equal(slice.violations, 1);
 * const json = sliceOf([{ text: JSON.stringify("\u202e\x7f"), row, violations: 0 }], true, false);
 * assert.equal(new TextDecoder().decode(json.bytes), '"\\u202e\\u007f"');
 * ```
 */
export function sliceOf(
  rendered: readonly RenderedResult[],
  json: boolean,
  color: boolean,
): RenderedSlice {
  const rows = new Array(rendered.length);
  const records = [];
  let violations = 0;
  for (let i = 0; i < rendered.length; i++) {
    const one = rendered[i]!;
    rows[i] = one.row;
    violations += one.violations;
    if (one.record !== undefined) records.push(one.record);
  }
  const text = rendered.map((one) => one.text).join(traceSeparator(json));
  return {
    bytes: rendered.length === 0 ? EMPTY : safeBytes(text, json, color),
    rows,
    violations,
    records,
    ...(rendered.length === 1 ? { single: rendered[0]!.text } : {}),
  };
}

/**
 * The text escaped as `runCli` escapes stdout (`escapeControl`, toolscore's
 * colour codes kept on a coloured stdout), UTF-8 encoded. JSON text comes out
 * of `JSON.stringify`, which escapes C0 controls itself: when it is all ASCII
 * (as many bytes as characters) and has no DEL, nothing is left to escape, and
 * the regular-expression scan of the whole text is skipped.
 */
function safeBytes(text: string, json: boolean, color: boolean): Uint8Array {
  if (json) {
    const bytes = encoder.encode(text);
    if (bytes.length === text.length && text.indexOf("\x7f") === -1) return bytes;
  }
  return encoder.encode(escapeControl(text, { keep: color ? [OWN_COLOR_SEQUENCES] : [] }));
}
