// The escaping helpers every report shares, and the byte budget of the Markdown reports.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  escapeHtml,
  escapeHtmlText,
  escapeMarkdown,
  escapeXml,
  showControls,
  utf8Length,
} from "../lib/report/escape.ts";
import { MarkdownBudget } from "../lib/report/markdown_budget.ts";
import { niceTicks } from "../lib/report/html/page.ts";

const DANGEROUS = [
  ..."\x00\x07\x08\x1b\x7f\x85\x9b\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e",
  ..."\u2066\u2067\u2068\u2069",
];
const hostile = fc.array(
  fc.oneof(
    fc.constantFrom(...DANGEROUS, ..."<>&\"'|`\n\t\r"),
    fc.string({ unit: "binary", maxLength: 3 }),
  ),
  { maxLength: 40 },
).map((parts) => parts.join(""));

Deno.test("showControls() leaves no control or bidi character, and changes nothing else", () => {
  fc.assert(fc.property(hostile, (text) => {
    const shown = showControls(text);
    for (const c of DANGEROUS) assert.ok(!shown.includes(c));
    assert.ok(!/[\n\r\t]/.test(shown));
    // Undo the escapes: the original comes back.
    assert.equal(
      shown.replace(/\\u([0-9a-f]{4})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
      text.replace(/\\u([0-9a-f]{4})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
    );
  }));
  assert.equal(showControls("a\x1b[31mred\x9b"), "a\\u001b[31mred\\u009b");
  assert.equal(showControls("a\nb", { keepNewlines: true }), "a\nb");
});

Deno.test("escapeHtml(), escapeHtmlText(), escapeXml(), escapeMarkdown() leave no markup", () => {
  fc.assert(fc.property(hostile, (text) => {
    assert.ok(!/[<>"']/.test(escapeHtml(text)));
    assert.ok(!/[<>]/.test(escapeHtmlText(text)));
    const xml = escapeXml(text);
    assert.ok(!/[<>"']/.test(xml));
    // Nothing XML 1.0 cannot hold: C0 controls but tab, line feed and carriage return
    // (shown escaped anyway), lone surrogates, U+FFFE, U+FFFF.
    // deno-lint-ignore no-control-regex
    assert.ok(!/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/.test(xml));
    assert.ok(xml.isWellFormed());
    const md = escapeMarkdown(text);
    assert.ok(!/[<>\n]/.test(md));
    assert.ok(!/(?<!\\)[|`]/.test(md));
    for (const c of DANGEROUS) assert.ok(!md.includes(c));
  }));
  assert.equal(escapeXml("\ud800x"), "\\ud800x");
});

Deno.test("utf8Length() counts what TextEncoder writes", () => {
  fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
    assert.equal(utf8Length(text), new TextEncoder().encode(text).length);
  }));
});

Deno.test("MarkdownBudget keeps every text within its limit, rows and blocks whole", () => {
  fc.assert(fc.property(
    fc.integer({ min: 800, max: 5_000 }),
    fc.array(fc.string({ unit: "grapheme", maxLength: 80 }), { maxLength: 200 }),
    fc.array(fc.string({ unit: "grapheme", maxLength: 300 }), { maxLength: 30 }),
    (limit, cells, blocks) => {
      const budget = new MarkdownBudget(limit);
      budget.block("# title");
      const rows = cells.map((cell) => `| ${escapeMarkdown(cell)} |`);
      const kept = budget.table(["| a |", "| - |"], rows, "rows", 0.5);
      for (const block of blocks) budget.block(escapeMarkdown(block), "blocks");
      budget.details("more", cells.map(escapeMarkdown), "items");
      const text = budget.text("hint");
      assert.ok(utf8Length(text) <= limit, `${utf8Length(text)} > ${limit}`);
      assert.ok(text.includes(["| a |", "| - |", ...rows.slice(0, kept)].join("\n")));
      if (kept < rows.length) {
        assert.match(
          text,
          new RegExp(`_Truncated to stay within [\\d,]+ bytes: ${rows.length - kept} rows`),
        );
      }
    },
  ));
});

Deno.test("niceTicks() starts at 0, steps 1, 2 or 5 times a power of ten, and reaches the maximum", () => {
  fc.assert(fc.property(fc.double({ min: 1e-6, max: 1e6, noNaN: true }), (max) => {
    const ticks = niceTicks(max);
    assert.equal(ticks[0], 0);
    assert.ok(ticks.at(-1)! >= max);
    assert.ok(ticks.length >= 2 && ticks.length <= 16);
    const step = ticks[1]!;
    const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
    assert.ok([1, 2, 5, 10].some((m) => Math.abs(mantissa - m) < 1e-6), `step ${step}`);
  }));
  assert.deepEqual(niceTicks(0), [0, 1]);
});
