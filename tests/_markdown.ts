/**
 * markdown-it for the Markdown report tests (from `tools/test-deps`, see
 * `tests/_deps.ts`), and the raw HTML a rendered report contains.
 *
 * @module
 */

import { npmPackage } from "./_deps.ts";

/** A markdown-it token. */
export interface Token {
  type: string;
  content: string;
  children: Token[] | null;
}

/** The part of markdown-it the tests use. */
export interface MarkdownIt {
  parse(text: string, env: object): Token[];
  render(text: string): string;
  renderInline(text: string): string;
}

/** The only raw HTML a report may hold: collapsed sections. */
export const ALLOWED_HTML = /^(?:<details>|<\/details>|<summary>[^<]*<\/summary>)$/;

/**
 * markdown-it with raw HTML enabled (so that any HTML a report leaks shows
 * up as HTML tokens), or `undefined` with a one-line skip reason.
 */
export async function markdownIt(): Promise<MarkdownIt | undefined> {
  const dir = npmPackage("markdown-it");
  if (dir === undefined) return undefined;
  // The package's browser build is one self-contained module.
  const url = new URL(`file://${dir}/dist/browser/markdown-it.esm.min.mjs`);
  const module = await import(url.href) as { default: new (options: object) => MarkdownIt };
  return new module.default({ html: true });
}

/** Every raw HTML line in the document, block or inline, trimmed. */
export function rawHtml(md: MarkdownIt, text: string): string[] {
  const found: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "html_block" || token.type === "html_inline") {
        for (const line of token.content.split("\n")) {
          if (line.trim() !== "") found.push(line.trim());
        }
      }
      if (token.children) walk(token.children);
    }
  };
  walk(md.parse(text, {}));
  return found;
}
