/**
 * Error lines that echo input stay short (issue 42): a 1,000,000-character
 * key or a 2 MB `$regex` made one 2 MB error line. {@linkcode clipEcho}
 * shortens one echoed value; {@linkcode clipErrorLine} is the CLI's last
 * guard, applied to every error line it prints: a line past 600 characters
 * keeps its first and last 200 (where the file, place and fix are) with
 * `…(N more)…` between.
 *
 * @module
 */

/** How many characters of one echoed value are shown. */
export const ECHO_CHARS = 200;

/**
 * One echoed value, at most `max` characters, then `…(N more)`.
 *
 * @param text The value.
 * @param max The most characters shown.
 * @returns The text, clipped.
 *
 * @example Usage
 * ```ts
 * import { clipEcho } from "./clip_input.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(clipEcho("abc"), "abc");
 * assert.equal(clipEcho("x".repeat(205)), `${"x".repeat(200)}…(5 more)`);
 * ```
 */
export function clipEcho(text: string, max: number = ECHO_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(${text.length - max} more)`;
}

/**
 * Every line of an error message at most about 600 characters: a longer one
 * keeps its first and last {@linkcode ECHO_CHARS} characters.
 *
 * @param message The message (one or more lines).
 * @returns The message, each long line clipped in the middle.
 *
 * @example Usage
 * ```ts
 * import { clipErrorLine } from "./clip_input.ts";
 * import assert from "node:assert/strict";
 *
 * const line = clipErrorLine(`gold.json: key "${"k".repeat(1_000_000)}" is unknown; fix it`);
 * assert.ok(line.length < 500);
 * assert.match(line, /…\(999\d+ more\)…/);
 * assert.match(line, /is unknown; fix it$/);
 * ```
 */
export function clipErrorLine(message: string): string {
  if (message.length <= 3 * ECHO_CHARS) return message;
  return message.split("\n").map((line) =>
    line.length <= 3 * ECHO_CHARS
      ? line
      : `${line.slice(0, ECHO_CHARS)}…(${line.length - 2 * ECHO_CHARS} more)…${
        line.slice(-ECHO_CHARS)
      }`
  ).join("\n");
}
