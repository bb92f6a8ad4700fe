/**
 * Text from traces, gold files and contracts (tool names, argument values,
 * parse-error snippets) is shown on a terminal; a trace must not be able to
 * clear the screen, set the window title or reorder what is shown. Every
 * console line the CLI writes goes through {@linkcode escapeControl} (in
 * `runCli`), which shows C0 and C1 control characters, DEL and the
 * bidirectional controls as `\u001b`-style escapes, keeping only newlines,
 * tabs and the exact colour and progress sequences toolscore itself writes.
 * Markdown output escapes separately (the reports' own helper).
 *
 * @module
 */

/** Characters shown escaped: C0 but tab and newline, DEL, C1, and the bidi controls. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * The colour codes toolscore writes (`lib/report/color.ts` and the reports):
 * reset, bold, dim, normal intensity, red, green, yellow, default colour.
 */
// deno-lint-ignore no-control-regex
export const OWN_COLOR_SEQUENCES: RegExp = /\x1b\[(?:0|1|2|22|31|32|33|39)m/;

/** The progress line's own sequence: carriage return and erase line. */
// deno-lint-ignore no-control-regex
export const OWN_PROGRESS_SEQUENCES: RegExp = /\r\x1b\[2K/;

/** Options for {@linkcode escapeControl}. */
export interface EscapeControlOptions {
  /**
   * Sequences to leave as they are (toolscore's own colour or progress codes).
   * @default {undefined}
   */
  keep?: readonly RegExp[];
}

const PATTERNS = new Map<string, RegExp>();

function patternFor(keep: readonly RegExp[]): RegExp {
  const key = keep.map((k) => k.source).join("|");
  let pattern = PATTERNS.get(key);
  if (pattern === undefined) {
    const own = keep.length === 0 ? "" : `(${key})|`;
    pattern = new RegExp(`${own}${CONTROL.source}`, "g");
    PATTERNS.set(key, pattern);
  }
  return pattern;
}

/**
 * Show control characters as escapes: `"\x1b[2J"` becomes the text `\u001b[2J`.
 * Newlines and tabs stay; so do the sequences in `keep`.
 *
 * @param text Text for a terminal.
 * @param options Sequences to keep.
 * @returns The text, safe to write to a terminal.
 *
 * @example Usage
 * ```ts
 * import { escapeControl, OWN_COLOR_SEQUENCES } from "./terminal_safe.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeControl("tool \x1b]0;pwned\x07\n"), "tool \\u001b]0;pwned\\u0007\n");
 * assert.equal(escapeControl("a\u202eb"), "a\\u202eb");
 * assert.equal(escapeControl("\x1b[31mred\x1b[39m", { keep: [OWN_COLOR_SEQUENCES] }), "\x1b[31mred\x1b[39m");
 * ```
 */
export function escapeControl(text: string, options: EscapeControlOptions = {}): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(
    patternFor(options.keep ?? []),
    (match, own: unknown) =>
      typeof own === "string" && own !== ""
        ? match
        : `\\u${match.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
