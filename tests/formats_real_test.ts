// The real-world corpus: trace files copied byte for byte from public
// repositories (testdata/formats/real/SOURCES.md), each with a sidecar
// `<file>.expected.json` written by reading the file by hand:
// {"format", "traces": [{"name", "calls": [{"tool", "args", "ok"}], "final_answer"}]}.
// Every file is read under auto and under its explicit format, and the trace
// count, names, calls, arguments, outcomes and final answers must match exactly.
import "../lib/base/_heavy.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { tracesFromText } from "../lib/formats/detect.ts";
import { callFailed, type FormatName, hasOutcome, type Trace } from "../lib/scoring/calls.ts";

const DIR = new URL("../testdata/formats/real/", import.meta.url).pathname;

interface ExpectedCall {
  tool: string;
  args: Record<string, unknown> | null;
  raw_args?: string;
  ok: boolean | null;
}

interface Expected {
  format: FormatName;
  traces: { name: string | null; calls: ExpectedCall[]; final_answer: string | null }[];
}

function seen(trace: Trace) {
  return {
    name: (trace as Trace & { name?: string }).name ?? null,
    calls: trace.calls.map((call) => {
      const out: ExpectedCall = call.argsError !== undefined
        ? { tool: call.tool, args: null, raw_args: call.rawArgs ?? "", ok: null }
        : { tool: call.tool, args: call.args ?? {}, ok: null };
      out.ok = callFailed(call) ? false : hasOutcome(call) ? true : null;
      return out;
    }),
    final_answer: trace.finalAnswer ?? null,
  };
}

const sidecars: string[] = [];
for (const entry of Deno.readDirSync(DIR)) {
  if (entry.isFile && entry.name.endsWith(".expected.json")) sidecars.push(entry.name);
}
sidecars.sort();

Deno.test("the real corpus has a sidecar for every file and a file for every sidecar", () => {
  const files = [...Deno.readDirSync(DIR)]
    .filter((e) => e.isFile && !e.name.endsWith(".expected.json") && e.name !== "SOURCES.md")
    .map((e) => e.name)
    .sort();
  assert.deepEqual(files, sidecars.map((s) => s.slice(0, -".expected.json".length)));
  const sources = Deno.readTextFileSync(join(DIR, "SOURCES.md"));
  for (const file of files) assert.ok(sources.includes(`| ${file} |`), `${file} is in SOURCES.md`);
});

for (const sidecar of sidecars) {
  const file = sidecar.slice(0, -".expected.json".length);
  const expected = JSON.parse(Deno.readTextFileSync(join(DIR, sidecar))) as Expected;
  for (const format of ["auto", expected.format] as const) {
    Deno.test(`tracesFromText() reads real ${file} under ${format} exactly`, () => {
      const text = Deno.readTextFileSync(join(DIR, file));
      const traces = tracesFromText(text, file, { format });
      assert.equal(traces.length, expected.traces.length, "trace count");
      for (const trace of traces) assert.equal(trace.format, expected.format);
      assert.deepEqual(traces.map(seen), expected.traces);
    });
  }
}
