/**
 * JSON lines: parsing them with errors that name the line and column, and
 * telling whether a text is JSON lines at all. Private to `lib/formats/`.
 *
 * @module
 */

import { InputError } from "../base/errors.ts";
import { parseDocument } from "../base/load.ts";
import { checkJsonLimits } from "../base/json_limits.ts";
import { parseJsonLossless } from "../base/lossless_json.ts";

/** One parsed JSONL line and its 1-based number. */
export interface JsonlRow {
  value: unknown;
  line: number;
}

/** Parse JSONL text, skipping blank lines; a bad line is an error naming it. */
export function parseJsonl(text: string, source: string): JsonlRow[] {
  const rows: JsonlRow[] = [];
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    line++;
    const row = text.slice(start, end);
    start = end + 1;
    if (row.trim() === "") continue;
    let value: unknown;
    try {
      value = parseJsonLossless(row);
    } catch {
      throw lineError(row, source, line);
    }
    // Held to the same limits as a whole document before anything walks it.
    checkJsonLimits(value, `${source}:${line}`);
    rows.push({ value, line });
  }
  return rows;
}

function lineError(row: string, source: string, line: number): InputError {
  try {
    parseDocument(row, "line.json");
  } catch (error) {
    if (!(error instanceof InputError)) throw error; // e.g. the parser is not loaded yet
    if (error.where !== undefined) {
      const column = /:(\d+)$/.exec(error.where)?.[1] ?? "1";
      const what = error.message.slice(error.where.length + 2).replace(/; fix the syntax.*$/, "");
      return new InputError(
        `${what} on this line; fix or remove the line`,
        `${source}:${line}:${column}`,
      );
    }
  }
  return new InputError("invalid JSON on this line; fix or remove the line", `${source}:${line}`);
}

/** Whether a text looks like JSON lines: its first two non-blank lines each start with `{` or `[`. */
export function looksLikeJsonLines(text: string): boolean {
  let seen = 0;
  let start = 0;
  for (let n = 0; n < 100 && start < text.length && seen < 2; n++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, Math.min(end, start + 64)).trimStart();
    start = end + 1;
    if (line === "") continue;
    if (line[0] !== "{" && line[0] !== "[") return false;
    seen++;
  }
  return seen >= 2;
}

/** The rows of a text when it has two or more lines that each parse as JSON. */
export function jsonLines(text: string): JsonlRow[] | undefined {
  const head = text.trimStart()[0];
  if (head !== "{" && head !== "[") return undefined;
  try {
    const rows = parseJsonl(text, "");
    return rows.length >= 2 ? rows : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a text may be log text, judged from its start (so JSON documents
 * are not scanned): it starts with neither `{` nor `[`, or with a `[tag]`.
 */
export function mayBeLog(text: string): boolean {
  const start = text.trimStart().slice(0, 200);
  if (start[0] === "{") return false;
  return start[0] !== "[" || /^\[[^\][{"\d\s-][^\][{"]*\]\s/.test(start);
}

/** Whether a text is one JSON document, or lines that each are. */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    try {
      return parseJsonl(text, "").length > 0;
    } catch {
      return false;
    }
  }
}
