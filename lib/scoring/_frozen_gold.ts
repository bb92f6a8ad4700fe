/**
 * Internal: gold call lists that {@linkcode freezeGold} froze, so code that
 * caches work per gold list (pairing's per-tool plan, `goldFromJson`) can
 * trust that the list and its calls never change.
 *
 * @module
 */

import { callToJson, isJsonObject, type JsonObject, type ToolCall } from "./calls.ts";

const FROZEN = new WeakSet<readonly ToolCall[]>();

// Freeze plain objects and arrays at any depth; matchers and other instances are left alone
// (they are immutable by design, and a RegExp must keep a writable lastIndex).
function freezePlain(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (const item of value) freezePlain(item);
    return;
  }
  if (!isJsonObject(value)) return;
  Object.freeze(value);
  for (const key in value) freezePlain(value[key]);
}

/**
 * Freeze a gold list, its calls and the plain objects and arrays inside them,
 * and remember it as frozen.
 *
 * @param calls The expected calls.
 * @returns The same list, frozen.
 */
export function freezeGold(calls: ToolCall[]): ToolCall[] {
  for (const call of calls) freezePlain(call);
  Object.freeze(calls);
  FROZEN.add(calls);
  return calls;
}

/**
 * Whether a list is one {@linkcode freezeGold} froze.
 *
 * @param calls Any list of calls.
 * @returns `true` when it can never change.
 */
export function isFrozenGold(calls: readonly ToolCall[]): boolean {
  return FROZEN.has(calls);
}

const JSON_FORMS = new WeakMap<readonly ToolCall[], readonly JsonObject[]>();

/**
 * The file shape of expected calls (`callToJson` of each). A frozen gold
 * list's is built once and frozen too: every result scored against the list
 * shares it.
 *
 * @param calls The expected calls.
 * @returns Their JSON form.
 */
export function goldJson(calls: readonly ToolCall[]): readonly JsonObject[] {
  if (!FROZEN.has(calls)) return calls.map(callToJson);
  let json = JSON_FORMS.get(calls);
  if (json === undefined) {
    json = Object.freeze(calls.map((call) => Object.freeze(callToJson(call))));
    JSON_FORMS.set(calls, json);
  }
  return json;
}
