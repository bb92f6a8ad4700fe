/**
 * Turning rendered traces into a {@linkcode RenderedSlice}: their texts
 * joined as `eval` prints them, escaped and encoded once, so the thread that
 * rendered them — a worker or the main thread — also does the escaping and
 * encoding, and the command only writes bytes.
 *
 * @module
 */

import { pushAll } from "../base/arrays.ts";
import { escapeControl, OWN_COLOR_SEQUENCES } from "../base/terminal_safe.ts";
import { redactText } from "../checks/security.ts";
import type { RenderedResult, RenderedSlice } from "./eval_types.ts";

/** Traces rendered before their texts are encoded (see {@linkcode joinSlices}). */
export const RENDER_BATCH = 10;

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
  const gold: NonNullable<RenderedSlice["gold"]> = [];
  let violations = 0;
  for (let i = 0; i < rendered.length; i++) {
    const one = rendered[i]!;
    rows[i] = one.row;
    violations += one.violations;
    if (one.record !== undefined) records.push(one.record);
    if (one.gold !== undefined) gold.push(one.gold);
  }
  return {
    bytes: rendered.length === 0 ? EMPTY : joinedBytes(rendered, json, color),
    rows,
    violations,
    records,
    ...(rendered.length === 1 ? { single: rendered[0]!.text } : {}),
    ...(gold.length > 0 ? { gold } : {}),
  };
}

/**
 * Several slices as one, in order: their bytes joined with the trace
 * separator, their rows, records and notes concatenated. A worker renders its
 * files ten traces at a time and joins the pieces, so at most ten traces'
 * texts are alive at once: a hundred held as strings kept V8's young
 * generation growing (peak RSS over 10,000 OTLP exports 212 → 133 MB).
 *
 * @param slices The slices, in order.
 * @param json Whether the run prints JSON.
 * @returns The joined slice.
 *
 * @example Usage
 * ```ts
 * import { joinSlices, sliceOf } from "./eval_slice.ts";
 * import assert from "node:assert/strict";
 *
 * const row = { name: "t", score: 1, grade: "A", selection: 1, argumentF1: 1, sequence: 1, requiredCalls: 1, passed: true };
 * const one = (text: string) => sliceOf([{ text, row, violations: 1 }], true, false);
 * const joined = joinSlices([one("1"), sliceOf([], true, false), one("2")], true);
 * assert.equal(new TextDecoder().decode(joined.bytes), "1,\n2");
 * assert.equal(joined.rows.length, 2);
 * assert.equal(joined.violations, 2);
 * ```
 */
export function joinSlices(slices: readonly RenderedSlice[], json: boolean): RenderedSlice {
  if (slices.length === 1) return slices[0]!;
  const parts = slices.filter((slice) => slice.rows.length > 0);
  const separator = encoder.encode(traceSeparator(json));
  let size = 0;
  for (const [i, part] of parts.entries()) {
    size += part.bytes.length + (i > 0 ? separator.length : 0);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  const rows: RenderedSlice["rows"] = [];
  const records: RenderedSlice["records"] = [];
  const notes: string[] = [];
  const gold: NonNullable<RenderedSlice["gold"]> = [];
  let violations = 0;
  for (const [i, part] of parts.entries()) {
    if (i > 0) {
      bytes.set(separator, at);
      at += separator.length;
    }
    bytes.set(part.bytes, at);
    at += part.bytes.length;
    pushAll(rows, part.rows);
    pushAll(records, part.records);
    pushAll(gold, part.gold ?? []);
    violations += part.violations;
  }
  const strays: string[] = [];
  const unknown: NonNullable<RenderedSlice["unknown"]> = [];
  for (const slice of slices) {
    pushAll(notes, slice.notes ?? []);
    pushAll(strays, slice.strays ?? []);
    pushAll(unknown, slice.unknown ?? []);
  }
  return {
    bytes: parts.length === 0 ? EMPTY : bytes,
    rows,
    violations,
    records,
    ...(rows.length === 1 && parts[0]!.single !== undefined ? { single: parts[0]!.single } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    ...(strays.length > 0 ? { strays } : {}),
    ...(unknown.length > 0 ? { unknown } : {}),
    ...(gold.length > 0 ? { gold } : {}),
  };
}

/**
 * The text escaped as `runCli` escapes stdout (`escapeControl`, toolscore's
 * colour codes kept on a coloured stdout), UTF-8 encoded. JSON text comes out
 * of `JSON.stringify`, which escapes C0 controls itself: when it is all ASCII
 * (as many bytes as characters) and has no DEL, nothing is left to escape, and
 * the regular-expression scan of the whole text is skipped.
 */
// The pieces' bytes with the separator between: one joined string could pass V8's string limit
// (about 512 MiB; 300,000 traces as JSON do, issue 42). Escaping works per character, so per piece.
function joinedBytes(
  rendered: readonly RenderedResult[],
  json: boolean,
  color: boolean,
): Uint8Array {
  if (rendered.length === 1) return safeBytes(rendered[0]!.text, json, color);
  const separator = encoder.encode(traceSeparator(json));
  const pieces = rendered.map((one) => safeBytes(one.text, json, color));
  let size = separator.length * (pieces.length - 1);
  for (const piece of pieces) size += piece.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) {
      bytes.set(separator, at);
      at += separator.length;
    }
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

function safeBytes(shown: string, json: boolean, color: boolean): Uint8Array {
  const text = redactText(shown); // as runCli redacts stdout (issue 42)
  if (json) {
    const bytes = encoder.encode(text);
    if (bytes.length === text.length && text.indexOf("\x7f") === -1) return bytes;
  }
  return encoder.encode(escapeControl(text, { keep: color ? [OWN_COLOR_SEQUENCES] : [] }));
}
