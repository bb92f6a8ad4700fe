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

/**
 * markdown-it as GitHub reads a comment: raw HTML on, links found in bare
 * text (`linkify`, scheme URLs and `www.` only, as GitHub's autolinks), and
 * `$…$`, `$$…$$` and `` $`…`$ `` math (markdown-it-texmath, its `dollars`
 * and `gitlab` delimiters), or `undefined` with a one-line skip reason.
 */
export async function markdownItGitHub(): Promise<MarkdownIt | undefined> {
  const md = await markdownIt();
  const dir = npmPackage("markdown-it-texmath");
  if (md === undefined || dir === undefined) return undefined;
  const { createRequire } = await import("node:module");
  const texmath = createRequire(import.meta.url)(`${dir}/texmath.js`);
  const gh = md as MarkdownIt & {
    use(plugin: unknown, options: object): void;
    set(options: object): void;
    linkify: { set(options: object): void };
  };
  gh.set({ linkify: true });
  gh.linkify.set({ fuzzyLink: false, fuzzyEmail: true });
  // Parsing needs no TeX engine; rendering gets the formula back as text.
  gh.use(texmath, {
    engine: { renderToString: (tex: string) => tex },
    delimiters: ["dollars", "gitlab"],
  });
  return gh;
}

/** Every token of the document (block and inline, depth first). */
export function allTokens(md: MarkdownIt, text: string): Token[] {
  const out: Token[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      out.push(token);
      if (token.children) walk(token.children);
    }
  };
  walk(md.parse(text, {}));
  return out;
}
