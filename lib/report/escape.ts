/**
 * Escaping for every report format, in one place: text that comes from a
 * trace (tool names, argument values, file names, messages) is shown, never
 * interpreted.
 *
 * - {@linkcode showControls}: C0 and C1 control characters, DEL and the
 *   bidirectional overrides and isolates become visible `\u001b`-style text
 *   (so a trace cannot clear a terminal, set a window title or reorder a
 *   line). Console and Markdown output share it.
 * - {@linkcode escapeMarkdown}: the above, then Markdown and HTML syntax
 *   escaped (`|`, backticks, `*`, `_`, `[`, `<`, `&`…), GitHub references
 *   neutralised (`@mention`, `#123`, `GH-123`), so text is plain text in a
 *   table cell or a list item and cannot ping people or link issues. Issue
 *   33 added what GitHub's renderer adds to CommonMark: `$` (math, `$…$` and
 *   `` $`…`$ ``) becomes the entity `&#36;` (an entity, not `\$`, because
 *   GitHub's own advice is that a backslash does not always stop math on a
 *   line that has some), emoji shortcodes (`:smile:`) get a zero-width space
 *   after their first colon, a leading `-`, `+` or `1.` (a list marker when
 *   the text opens a list item) is escaped, and URLs (`https://…`, `www.…`,
 *   `mailto:…`) become code spans, so they show as text and never autolink.
 * - Every escaper first shows each credential `findSecrets` knows as its
 *   preview (issue 42), so no field of a trace reaches a report in clear.
 * - {@linkcode escapeHtml} and {@linkcode escapeXml}: entities for HTML and
 *   XML text and attributes; XML also drops what XML 1.0 cannot hold by
 *   showing it escaped.
 *
 * @module
 */

import { redactText } from "../checks/security.ts";

// C0 controls, DEL, C1 controls, the bidi embeddings/overrides (U+202A–U+202E), the bidi
// isolates (U+2066–U+2069), the implicit marks (U+200E, U+200F, U+061C), and the line and
// paragraph separators (which end lines in some renderers).
const CONTROLS =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_LINES =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Options for {@linkcode showControls}. */
export interface ShowControlsOptions {
  /**
   * Keep line feeds as they are (for multi-line text blocks).
   * @default {false}
   */
  keepNewlines?: boolean;
}

/**
 * Show control characters and bidirectional formatting characters as
 * `\u001b`-style text; everything else is unchanged.
 *
 * @param text Any text.
 * @param options Whether line feeds stay.
 * @returns The text, safe to print on a terminal or in Markdown.
 *
 * @example Usage
 * ```ts
 * import { showControls } from "./escape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(showControls("a\x1b[2Jb"), "a\\u001b[2Jb");
 * assert.equal(showControls("x\u202Ey"), "x\\u202ey");
 * assert.equal(showControls("1\n2", { keepNewlines: true }), "1\n2");
 * ```
 */
export function showControls(text: string, options: ShowControlsOptions = {}): string {
  // Credentials first (issue 42): a Markdown escape between a key's letters (`ghp\_…`) would
  // hide it from the scan, not from the reader.
  return redactText(text).replace(options.keepNewlines ? CONTROLS_BUT_LINES : CONTROLS, visible);
}

const MARKDOWN_ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  "$": "&#36;",
};

// What GitHub's autolink extension links (scheme URLs, `www.` hosts, `mailto:`/`xmpp:`), up
// to the first space, backtick, pipe or angle bracket (none of which a code span in a table
// cell could hold), at most 2,048 characters; trailing sentence punctuation is given back
// (as GitHub leaves it out of the link).
const URL_LIKE = /([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/|www\.|(?:mailto|xmpp):)[^\s<>`|]{0,2048}/g;
const TRAILING = new Set([...".,:;!?'\")]"]);

// Text outside URLs: inline syntax, entities, then GitHub's references and emoji broken.
function escapeInline(text: string): string {
  return text
    .replace(/[\\`*_[\]#!|~]/g, (c) => `\\${c}`)
    .replace(/[<>&$]/g, (c) => MARKDOWN_ENTITIES[c]!)
    // After escaping, a reference reads `@name`, `\#12` or `GH-12`.
    .replace(/@(?=[A-Za-z0-9])/g, "@\u200b")
    // An e-mail address (`name@host`, which GitHub and linkify link): a space before the `@` too.
    .replace(/(?<=[A-Za-z0-9._+-])@/g, "\u200b@")
    .replace(/\\#(?=\d)/g, "\\#\u200b")
    .replace(/\b(GH)-(?=\d)/gi, "$1\u200b-")
    // An emoji shortcode `:name:` (GitHub replaces it in the rendered text, after parsing).
    .replace(/:(?=[A-Za-z0-9_+-]{1,64}:)/g, ":\u200b");
}

/**
 * Text from a trace as inert Markdown: controls shown escaped, Markdown and
 * HTML syntax escaped, `|` escaped (so it is safe in a table cell), `$`
 * written `&#36;` (no math), URLs as code spans (no links), GitHub's
 * `@mention`, `#123` and `GH-123` references and `:emoji:` shortcodes broken
 * with a zero-width space so they neither notify, link nor turn into
 * pictures, and a leading list marker (`-`, `+`, `1.`) escaped.
 *
 * @param text Any text.
 * @returns Markdown that renders as the text itself.
 *
 * @example Usage
 * ```ts
 * import { escapeMarkdown } from "./escape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeMarkdown("a|b `c` <i>"), "a\\|b \\`c\\` &lt;i&gt;");
 * assert.equal(escapeMarkdown("@octocat fixed #12"), "@\u200boctocat fixed \\#\u200b12");
 * assert.equal(escapeMarkdown('{"$regex":"^FL-\\d+$"}'), '{"&#36;regex":"^FL-\\\\d+&#36;"}');
 * assert.equal(escapeMarkdown("see https://x.test/a_b."), "see `https://x.test/a_b`.");
 * ```
 */
export function escapeMarkdown(text: string): string {
  const shown = showControls(text);
  let out = "";
  let last = 0;
  for (const match of shown.matchAll(URL_LIKE)) {
    let end = match[0].length;
    while (end > 0 && TRAILING.has(match[0][end - 1]!)) end--;
    const url = match[0].slice(0, end);
    if (url.length <= match[1]!.length) continue; // a bare scheme links nothing
    out += escapeInline(shown.slice(last, match.index)) + "`" + url + "`";
    last = match.index + end;
  }
  out += escapeInline(shown.slice(last));
  // A list marker or an ordered-list number would open a nested list in a list item.
  return out.replace(/^(\d{1,9})([.)])/, "$1\\$2").replace(/^[-+]/, "\\$&");
}

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text as HTML text or an attribute value (double or single quoted).
 *
 * @param text Any text.
 * @returns The escaped text.
 *
 * @example Usage
 * ```ts
 * import { escapeHtml } from "./escape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
 * ```
 */
export function escapeHtml(text: string): string {
  return showControls(text, { keepNewlines: true }).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

/**
 * Text as HTML element content (not an attribute value): only `&`, `<` and
 * `>` become entities, so JSON values keep their quotes and stay short.
 *
 * @param text Any text.
 * @returns The escaped text.
 *
 * @example Usage
 * ```ts
 * import { escapeHtmlText } from "./escape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeHtmlText('{"a":"<b>"}'), '{"a":"&lt;b&gt;"}');
 * ```
 */
export function escapeHtmlText(text: string): string {
  return showControls(text, { keepNewlines: true }).replace(/[&<>]/g, (c) => HTML_ENTITIES[c]!);
}

// What XML 1.0 cannot hold even as a character reference: C0 controls other than tab, line
// feed and carriage return, lone surrogates, U+FFFE and U+FFFF.
const XML_ILLEGAL =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as XML text or an attribute value: entities for `&<>"'`, controls and
 * bidi overrides shown as `\u001b`-style text (XML 1.0 cannot hold most C0
 * controls at all), line feeds kept.
 *
 * @param text Any text.
 * @returns The escaped text.
 *
 * @example Usage
 * ```ts
 * import { escapeXml } from "./escape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(escapeXml('a<b & "c"\x00'), "a&lt;b &amp; &quot;c&quot;\\u0000");
 * ```
 */
export function escapeXml(text: string): string {
  return showControls(text.replace(XML_ILLEGAL, visible), { keepNewlines: true })
    .replace(/[&<>"']/g, (c) => c === "'" ? "&apos;" : HTML_ENTITIES[c]!);
}

/**
 * The UTF-8 length of a text, in bytes.
 *
 * @param text Any text.
 * @returns The byte count.
 *
 * @example Usage
 * ```ts
 * import { utf8Length } from "./escape.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(utf8Length("a€"), 4);
 * ```
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
