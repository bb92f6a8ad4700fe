/**
 * The real-world corpus: every `testdata/formats/real/<name>` copied byte for
 * byte from a public repository (see SOURCES.md) has a sidecar
 * `<name>.expected.json` of shape `{"format", "traces": [{"name", "calls":
 * [{"tool", "args", "ok"}], "final_answer"}]}`. Each fixture is read under
 * `auto` and under its explicit format, and the trace count, names, calls,
 * arguments, outcomes and final answers must be exactly the sidecar's.
 *
 * `name` is `null` for a file of one trace, else the name the CLI gives the
 * trace (`FILE[task#trial]`, `FILE[n]`) with FILE the fixture's base name.
 * `ok` is the call's outcome as evaluation sees it (the shipped
 * `error_text_patterns` applied): `true` succeeded, `false` failed, `null`
 * not captured. `actor: "user"` marks a call the user made (τ² dual control). Arguments that did not parse read as `"args": null` with
 * `"raw_args"`. A run file whose runs cannot all be read lists the other
 * runs' errors in `run_errors` (issue 34: read with `onRunError`).
 *
 * @module
 */

import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import {
  callFailed,
  type FormatName,
  hasOutcome,
  type ToolCall,
  type Trace,
} from "../lib/scoring/calls.ts";
import { parseFormatName, tracesFromText } from "../lib/formats/detect.ts";
import { applyErrorText } from "../lib/checks/error_text.ts";
import { traceName } from "../lib/cli/inputs.ts";
import { isZipBytes, tracesFromEvalZip } from "../lib/formats/inspect_zip.ts";

const DIR = "testdata/formats/real";

/** One call as a sidecar writes it. */
export interface ExpectedCall {
  tool: string;
  args: Record<string, unknown> | null;
  raw_args?: string;
  ok: boolean | null;
  /** `"user"` for a call the user made (τ² dual control, issue 34); absent for the agent's. */
  actor?: string;
}

/** One trace as a sidecar writes it. */
export interface ExpectedTrace {
  name: string | null;
  calls: ExpectedCall[];
  final_answer: string | null;
}

/** What a corpus file must read as. */
export interface Expected {
  format: FormatName;
  traces: ExpectedTrace[];
  /** The messages of the runs of a run file that cannot be read (issue 34); absent: none. */
  run_errors?: string[];
}

function callView(call: ToolCall): ExpectedCall {
  const view: ExpectedCall = {
    tool: call.tool,
    args: call.argsError !== undefined ? null : (call.args ?? null),
    ok: callFailed(call) ? false : hasOutcome(call) ? true : null,
  };
  if (call.argsError !== undefined) view.raw_args = call.rawArgs ?? "";
  return {
    tool: view.tool,
    args: view.args,
    ...(view.raw_args !== undefined ? { raw_args: view.raw_args } : {}),
    ok: view.ok,
    ...(call.actor !== undefined ? { actor: call.actor } : {}),
  };
}

/**
 * A file's traces as a sidecar writes them.
 *
 * @param file The fixture's base name.
 * @param traces The traces read from it.
 * @returns The sidecar's `traces`.
 */
export function corpusView(file: string, traces: Trace[]): ExpectedTrace[] {
  return traces.map((trace, i) => ({
    name: traces.length === 1 && trace.run === undefined
      ? null
      : traceName(file, trace, i, traces.length),
    calls: applyErrorText(trace.calls).map(callView),
    final_answer: trace.finalAnswer ?? null,
  }));
}

const sidecars = [...Deno.readDirSync(DIR)]
  .map((entry) => entry.name)
  .filter((name) => name.endsWith(".expected.json"))
  .sort();

Deno.test("the real-world corpus has at least 20 fixtures, each with a sidecar and a source", () => {
  const fixtures = [...Deno.readDirSync(DIR)].map((e) => e.name)
    .filter((name) => !name.endsWith(".expected.json") && name !== "SOURCES.md");
  const sources = Deno.readTextFileSync(`${DIR}/SOURCES.md`);
  assert.ok(fixtures.length >= 20, `only ${fixtures.length} fixtures`);
  for (const fixture of fixtures) {
    assert.ok(sidecars.includes(`${fixture}.expected.json`), `${fixture} has no sidecar`);
    assert.ok(sources.includes(`| ${fixture} |`), `${fixture} is not in SOURCES.md`);
  }
});

for (const sidecar of sidecars) {
  const file = sidecar.slice(0, -".expected.json".length);
  const expected = JSON.parse(Deno.readTextFileSync(`${DIR}/${sidecar}`)) as Expected;
  for (const format of ["auto", parseFormatName(expected.format)] as const) {
    Deno.test(`tracesFromText() reads real/${file} under ${format} exactly as its sidecar says`, () => {
      const bytes = Deno.readFileSync(`${DIR}/${file}`);
      const runErrors: string[] = [];
      const onRunError = (error: Error) => void runErrors.push(error.message);
      const traces = isZipBytes(bytes) // an Inspect .eval (issue 35)
        ? tracesFromEvalZip(bytes, `${DIR}/${file}`, { format })
        : tracesFromText(Deno.readTextFileSync(`${DIR}/${file}`), `${DIR}/${file}`, {
          format,
          onRunError,
        });
      assert.equal(traces.length, expected.traces.length, "trace count");
      if (format === "auto") {
        for (const trace of traces) assert.equal(trace.format, expected.format, "detected format");
      }
      assert.deepEqual(corpusView(file, traces), expected.traces);
      assert.deepEqual(runErrors, expected.run_errors ?? [], "runs that cannot be read");
    });
  }
}

Deno.test("toolscore inspect --help and the README list every shape read, one line each", async () => {
  const { FORMATS } = await import("../lib/formats/detect.ts");
  const { inspectCommand } = await import("../lib/cli/inspect.ts");
  const lines = inspectCommand.help.split("\n");
  const help = lines.slice(
    lines.findIndex((l) => l.startsWith("Shapes read")),
    lines.indexOf("Arguments:"),
  );
  const readme = Deno.readTextFileSync("README.md").split("\n");
  for (const format of FORMATS.slice(1)) {
    assert.equal(help.filter((l) => new RegExp(`^  ${format} +\\S`).test(l)).length, 1, format);
    assert.equal(readme.filter((l) => l.startsWith(`| \`${format}\` `)).length, 1, format);
  }
  for (const shape of ["(run file)", "streams"]) {
    assert.ok(help.some((l) => l.startsWith(`  ${shape} `)), shape);
  }
  assert.ok(
    readme.some((l) => l.startsWith("| (run file) ")) &&
      readme.some((l) => l.startsWith("| (streams) ")),
  );
});
