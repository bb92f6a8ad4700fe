/**
 * Markdown within a byte limit: a GitHub comment holds at most 65,536
 * characters, a step summary at most 1 MiB. {@linkcode MarkdownBudget}
 * collects whole blocks and whole table rows, so a cut never falls inside a
 * table or a `<details>` block; what did not fit is counted and named in one
 * closing note.
 *
 * @module
 */

import { utf8Length } from "./escape.ts";

/**
 * GitHub's limit for a comment body, used as the byte limit of every Markdown
 * report (counted in UTF-8 bytes, which is never fewer than characters).
 */
export const MARKDOWN_LIMIT = 65_536;

// Room kept for the truncation note.
const NOTE_RESERVE = 600;

/**
 * Markdown text built block by block under a byte limit.
 *
 * @example Usage
 * ```ts
 * import { MarkdownBudget } from "./markdown_budget.ts";
 * import assert from "node:assert/strict";
 *
 * const budget = new MarkdownBudget(700);
 * budget.block("# Title");
 * const table = budget.table(["| a |", "| - |"], ["| 1 |", "| 2 |"], "rows");
 * assert.equal(table, 2);
 * assert.match(budget.text(), /^# Title\n\n\| a \|/);
 * ```
 */
export class MarkdownBudget {
  readonly #limit: number;
  readonly #parts: string[] = [];
  #used = 0;
  readonly #omitted = new Map<string, number>();

  /**
   * Start an empty text.
   *
   * @param limit The byte limit of the whole text, note included.
   */
  constructor(limit: number = MARKDOWN_LIMIT) {
    this.#limit = limit;
  }

  /** Bytes still free, keeping room for the note. */
  get free(): number {
    return this.#limit - NOTE_RESERVE - this.#used;
  }

  /**
   * Count something left out, for the note.
   *
   * @param what What it is (`"table rows"`).
   * @param count How many.
   */
  omit(what: string, count: number): void {
    if (count > 0) this.#omitted.set(what, (this.#omitted.get(what) ?? 0) + count);
  }

  /**
   * Add a block (followed by a blank line) if it fits.
   *
   * @param text The block.
   * @param what What to count as left out when it does not fit.
   * @returns Whether it was added.
   */
  block(text: string, what?: string): boolean {
    const size = utf8Length(text) + 2;
    if (size > this.free) {
      if (what !== undefined) this.omit(what, 1);
      return false;
    }
    this.#parts.push(text);
    this.#used += size;
    return true;
  }

  /**
   * Add a table: the header always (when it fits), then rows while they fit
   * in `share` of the free bytes; the rest is counted as `what`.
   *
   * @param header The header and separator lines.
   * @param rows The row lines.
   * @param what What the rows are, for the note.
   * @param share The part of the free bytes the table may use.
   * @returns How many rows were added.
   */
  table(header: string[], rows: string[], what: string, share = 1): number {
    const head = header.join("\n");
    const room = Math.floor(this.free * share) - utf8Length(head) - 2;
    if (room <= 0) {
      this.omit(what, rows.length);
      return 0;
    }
    let used = 0;
    let kept = 0;
    for (const row of rows) {
      const size = utf8Length(row) + 1;
      if (used + size > room) break;
      used += size;
      kept++;
    }
    this.block([head, ...rows.slice(0, kept)].join("\n"));
    this.omit(what, rows.length - kept);
    return kept;
  }

  /**
   * Add a `<details>` block: the summary, then list items while they fit;
   * the rest is counted as `what`.
   *
   * @param summary The summary text (already escaped).
   * @param items The list items (already escaped, without the `- `).
   * @param what What the items are, for the note.
   * @returns How many items were added.
   */
  details(summary: string, items: string[], what: string): number {
    const open = `<details>\n<summary>${summary}</summary>\n`;
    const close = "\n</details>";
    const room = this.free - utf8Length(open) - utf8Length(close) - 2;
    let used = 0;
    let kept = 0;
    for (const item of items) {
      const size = utf8Length(item) + 3;
      if (used + size > room) break;
      used += size;
      kept++;
    }
    if (kept > 0) {
      this.block(
        `${open}\n${items.slice(0, kept).map((item) => `- ${item}`).join("\n")}\n${close}`,
      );
    }
    this.omit(what, items.length - kept);
    return kept;
  }

  /** Whether something was left out. */
  get truncated(): boolean {
    return this.#omitted.size > 0;
  }

  /**
   * The text, with the truncation note when something was left out.
   *
   * @param hint Where to find the rest (appended to the note).
   * @returns The Markdown, ending with a newline.
   */
  text(hint = ""): string {
    const parts = [...this.#parts];
    if (this.#omitted.size > 0) {
      const what = [...this.#omitted].map(([name, count]) =>
        `${count.toLocaleString("en-US")} ${name}`
      );
      parts.push(
        `_Truncated to stay within ${this.#limit.toLocaleString("en-US")} bytes: ${
          what.join(", ")
        } not shown.${hint === "" ? "" : ` ${hint}`}_`,
      );
    }
    return `${parts.join("\n\n")}\n`;
  }
}
