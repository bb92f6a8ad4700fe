/**
 * ANSI colours for the console report, applied only when the caller says the
 * output is a terminal and `NO_COLOR` / `--no-color` are absent.
 *
 * @module
 */

import { ownSequence } from "../base/terminal_safe.ts";

/** Colour functions; each returns its text unchanged when colour is off. */
export interface Palette {
  /** Good news. */
  green(text: string): string;
  /** Warnings. */
  yellow(text: string): string;
  /** Failures. */
  red(text: string): string;
  /** Less important text. */
  dim(text: string): string;
  /** Headings. */
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) =>
  `${ownSequence(`\x1b[${open}m`)}${text}${ownSequence(`\x1b[${close}m`)}`;

/**
 * A palette that colours when `enabled`, else leaves text as it is.
 *
 * @param enabled Whether to colour.
 * @returns The palette.
 *
 * @example Usage
 * ```ts
 * import { palette } from "./color.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(palette(false).red("x"), "x");
 * assert.equal(palette(true).red("x"), "\x1b[31mx\x1b[39m");
 * ```
 */
export function palette(enabled: boolean): Palette {
  if (!enabled) {
    const same = (text: string) => text;
    return { green: same, yellow: same, red: same, dim: same, bold: same };
  }
  return {
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    red: wrap(31, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
