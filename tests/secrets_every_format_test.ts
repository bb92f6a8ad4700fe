// Issue 42, item 6: a credential planted in any field of a trace of ANY format we read never
// reaches an output in clear. For every format of the format table a real sample is taken
// (testdata/formats/real with its sidecar, else testdata/formats/FORMAT/, else a minimal inline
// one), and each credential kind is planted by rewriting the sample's text: into a tool name,
// an argument name, an argument value, the result text, the final answer and the file name.
// The planted file must still read with the secret in that field (checked on the raw trace);
// then every output is searched: eval's console, --json, Markdown, HTML, JUnit and receipt,
// export, inspect --full and --json, and contract init.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { basename, join } from "node:path";
import { FORMAT_DOCS } from "../lib/formats/format_table.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import type { Trace } from "../lib/scoring/calls.ts";
import { runCollect } from "./_cli.ts";
import { PLANTED } from "./_planted_secrets.ts";

type Field = "tool name" | "argument name" | "argument value" | "result" | "final answer";
const FIELDS: readonly Field[] = [
  "tool name",
  "argument name",
  "argument value",
  "result",
  "final answer",
];

const REAL = "testdata/formats/real";

// Formats without a sample file: the smallest input of the shape, written here.
const INLINE: Partial<Record<string, [string, string]>> = {
  langfuse: [
    "langfuse-export.json",
    JSON.stringify({
      trace: { id: "t-1", name: "weather agent", output: "It is sunny in Paris today." },
      observations: [
        {
          id: "o-1",
          traceId: "t-1",
          type: "TOOL",
          name: "get_weather",
          startTime: "2025-06-01T10:00:01.100Z",
          endTime: "2025-06-01T10:00:01.400Z",
          input: { city: "Paris" },
          output: { sky: "sunny weather" },
          level: "DEFAULT",
        },
      ],
    }),
  ],
};

interface Sample {
  format: string;
  name: string;
  text: string;
}

function sidecarFormat(path: string): string | undefined {
  try {
    const doc = JSON.parse(Deno.readTextFileSync(`${path}.expected.json`));
    return typeof doc?.format === "string" ? doc.format : undefined;
  } catch {
    return undefined;
  }
}

function readable(path: string): string | undefined {
  const bytes = Deno.readFileSync(path);
  if (bytes.includes(0) || (bytes[0] === 0x50 && bytes[1] === 0x4b)) return undefined; // zipped
  return new TextDecoder().decode(bytes);
}

// Every candidate file of a format, smallest first.
function candidates(format: string): Sample[] {
  const paths: string[] = [];
  for (const entry of Deno.readDirSync(REAL)) {
    if (entry.name.endsWith(".expected.json") || entry.name === "SOURCES.md") continue;
    const path = join(REAL, entry.name);
    if (sidecarFormat(path) === format) paths.push(path);
  }
  try {
    for (const entry of Deno.readDirSync(`testdata/formats/${format}`)) {
      if (entry.isFile) paths.push(`testdata/formats/${format}/${entry.name}`);
    }
  } catch {
    // no folder of samples for this format
  }
  paths.sort((a, b) => Deno.statSync(a).size - Deno.statSync(b).size);
  const out: Sample[] = [];
  for (const path of paths) {
    const text = readable(path);
    if (text !== undefined) out.push({ format, name: basename(path), text });
  }
  const inline = INLINE[format];
  if (inline) out.push({ format, name: inline[0], text: inline[1] });
  return out;
}

function read(text: string, name: string): Trace[] | undefined {
  try {
    return tracesFromText(text, name);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Whole-word occurrences of `word` (not inside a longer identifier).
function wordPattern(word: string): RegExp {
  return new RegExp(`(?<![\\w-])${escapeRegExp(word)}(?![\\w-])`, "g");
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

function holds(trace: Trace, field: Field, secret: string): boolean {
  switch (field) {
    case "tool name":
      return trace.calls.some((c) => c.tool.includes(secret));
    case "argument name":
      return trace.calls.some((c) => Object.keys(c.args ?? {}).some((k) => k.includes(secret)));
    case "argument value":
      return trace.calls.some((c) => textOf(c.args).includes(secret));
    case "result":
      return trace.calls.some((c) => textOf(c.result).includes(secret));
    case "final answer":
      return (trace.finalAnswer ?? "").includes(secret);
  }
}

// What to rewrite for a field: [the text found in the file, its planted replacement] candidates.
function rewrites(trace: Trace, field: Field, secret: string): [string, string][] {
  const out: [string, string][] = [];
  const words = (text: string) => [...new Set(text.match(/[A-Za-z]{4,}/g) ?? [])].slice(0, 6);
  for (const call of trace.calls.slice(0, 4)) {
    switch (field) {
      case "tool name":
        if (/^[\w.-]{3,}$/.test(call.tool)) out.push([call.tool, `${call.tool}_${secret}`]);
        break;
      case "argument name":
        for (const key of Object.keys(call.args ?? {})) {
          if (/^\w{2,}$/.test(key)) out.push([key, `${key}_${secret}`]);
        }
        break;
      case "argument value":
        for (const value of Object.values(call.args ?? {})) {
          if (typeof value === "string" && /^[\w .,:-]{3,80}$/.test(value)) {
            out.push([value, `${value} ${secret}`]);
          }
          for (const word of words(textOf(value))) out.push([word, `${word} ${secret}`]);
        }
        break;
      case "result":
        for (const word of words(textOf(call.result))) out.push([word, `${word} ${secret}`]);
        break;
      case "final answer":
        break;
    }
  }
  if (field === "final answer") {
    for (const word of words(trace.finalAnswer ?? "")) out.push([word, `${word} ${secret}`]);
  }
  return out.slice(0, 12);
}

interface Planted {
  text: string;
  fields: { field: Field | "file name"; kind: string; needle: string }[];
}

// Plant one kind per field (the kind of field i is PLANTED[(offset + i) % 11]).
function plant(sample: Sample, offset: number, only: readonly Field[] = FIELDS): Planted {
  let text = sample.text;
  const fields: Planted["fields"] = [];
  FIELDS.forEach((field, i) => {
    if (!only.includes(field)) return;
    const { kind, secret, needle } = PLANTED[(offset + i) % PLANTED.length]!;
    const before = read(text, sample.name);
    if (!before || before.length === 0) return;
    for (const trace of before) {
      for (const [found, replacement] of rewrites(trace, field, secret)) {
        // Never rewrite inside a secret planted before (it would no longer be one).
        if (PLANTED.some((p) => p.secret.includes(found))) continue;
        const next = text.replace(wordPattern(found), replacement);
        if (next === text) continue;
        const after = read(next, sample.name);
        if (after && after.length === before.length && after.some((t) => holds(t, field, secret))) {
          text = next;
          fields.push({ field, kind, needle });
          return;
        }
      }
    }
  });
  return { text, fields };
}

const SAMPLES = FORMAT_DOCS.map((row) => ({ format: row.name, samples: candidates(row.name) }));

Deno.test("every format of the table has a sample to plant credentials in", () => {
  const missing = SAMPLES.filter((row) => row.samples.length === 0).map((row) => row.format);
  assert.deepEqual(missing, [], "add a real sample (testdata/formats/real + sidecar) for these");
});

// The sample of a format whose text takes the most fields.
function bestPlant(samples: Sample[], offset: number): { sample: Sample; planted: Planted } {
  let best: { sample: Sample; planted: Planted } | undefined;
  for (const sample of samples.slice(0, 4)) {
    const planted = plant(sample, offset);
    if (!best || planted.fields.length > best.planted.fields.length) best = { sample, planted };
    if (planted.fields.length === FIELDS.length) break;
  }
  return best!;
}

Deno.test("a credential planted in any field of any format reaches no output in clear (property)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "secrets_every_format_" });
  const gold = join(dir, "gold.json");
  await Deno.writeTextFile(gold, JSON.stringify([{ tool: "zz_not_called" }]));
  const plantedFields = new Map<string, number>();
  let run = 0;
  let contracts = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: PLANTED.length - 1 }), async (offset) => {
        for (const { format, samples } of SAMPLES) {
          if (samples.length === 0) continue; // the test above names it
          const { sample, planted } = bestPlant(samples, offset);
          plantedFields.set(
            format,
            Math.max(plantedFields.get(format) ?? 0, planted.fields.length),
          );
          // The file name takes the next kind that a file name can hold (no "/").
          let k = offset + FIELDS.length;
          while (PLANTED[k % PLANTED.length]!.secret.includes("/")) k++;
          const named = PLANTED[k % PLANTED.length]!;
          planted.fields.push({ field: "file name", kind: named.kind, needle: named.needle });
          const folder = join(dir, `${run++}`);
          await Deno.mkdir(folder);
          const file = join(folder, `${named.secret}_${sample.name}`);
          await Deno.writeTextFile(file, planted.text);
          const out = join(dir, `out${run}`);
          // contract init refuses a credential in a tool or argument name (exit 2, nothing written),
          // so a second file plants the other fields for the contract it writes.
          const values = plant(sample, offset, ["argument value", "result", "final answer"]);
          const forContract = join(folder, `values_${sample.name}`);
          await Deno.writeTextFile(forContract, values.text);
          planted.fields.push(...values.fields);
          const commands = [
            ["eval", gold, folder, "--verbose"],
            ["eval", gold, folder, "--json"],
            ["eval", gold, folder, "--markdown", `${out}.md`, "--html", `${out}.html`],
            ["eval", gold, folder, "--junit", `${out}.xml`, "--receipt-dir", `${out}_receipts`],
            ["export", folder, "--gold", gold, "-o", `${out}.jsonl`],
            ["inspect", folder, "--full"],
            ["inspect", folder, "--json"],
            ["contract", "init", file, "-o", `${out}.refused.json`],
            ["contract", "init", forContract, "-o", `${out}.contract.json`],
            ["contract", "init", forContract, "-o", `${out}.contract.yaml`],
          ];
          const shown: [string, string][] = []; // [what, its text]
          for (const args of commands) {
            const result = await runCollect(args);
            shown.push([args.slice(0, 2).join(" ") + ` (${args.at(-1)})`, result.out + result.err]);
          }
          const written = ["md", "html", "xml", "jsonl", "manifest.json", "contract.json"];
          for (const ext of [...written, "contract.yaml"]) {
            try {
              shown.push([ext, await Deno.readTextFile(`${out}.${ext}`)]);
              if (ext === "contract.json") contracts++;
            } catch (error) {
              if (!(error instanceof Deno.errors.NotFound)) throw error;
            }
          }
          try {
            for (const entry of Deno.readDirSync(`${out}_receipts`)) {
              shown.push(["receipt", await Deno.readTextFile(join(`${out}_receipts`, entry.name))]);
            }
          } catch (error) {
            if (!(error instanceof Deno.errors.NotFound)) throw error;
          }
          for (const { field, kind, needle } of planted.fields) {
            for (const [what, text] of shown) {
              const at = text.indexOf(needle);
              assert.ok(
                at === -1,
                `${format} (${sample.name}): ${kind} planted in the ${field} is in clear in ` +
                  `${what}:\n${text.slice(Math.max(0, at - 300), at + 60)}`,
              );
            }
          }
        }
      }),
      { numRuns: 2 },
    );
    // contract init wrote a contract (credentials as $any) for most formats' samples.
    assert.ok(contracts > SAMPLES.length, `${contracts} contracts written`);
    // Every format takes the secret in its tool names at least, and most in more fields.
    for (const { format, samples } of SAMPLES) {
      if (samples.length === 0) continue;
      assert.ok((plantedFields.get(format) ?? 0) >= 1, `${format}: nothing could be planted`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
