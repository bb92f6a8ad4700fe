/**
 * Issue 34: the shipped `error_text_patterns` widened from real files, each
 * pattern with its test, and a property test over the real corpus's
 * successful results that none of them fires on a success.
 *
 * @module
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import "../lib/base/_heavy.ts";
import { applyErrorText } from "../lib/checks/error_text.ts";
import { DEFAULT_HONESTY, honestyConfigFromJson } from "../lib/checks/honesty_config.ts";
import { evaluate } from "../lib/evaluate/evaluate.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { isZipBytes, tracesFromEvalZip } from "../lib/formats/inspect_zip.ts";
import type { ToolCall } from "../lib/scoring/calls.ts";
import type { Expected } from "./formats_real_test.ts";

const failed = (result: unknown) => applyErrorText([{ tool: "t", result }])[0]?.isError === true;

// The texts below were seen in public repositories: tool results quoted from Gemini /
// Antigravity runs (`Encountered error in step execution: …`), agent frameworks' tool messages
// (`Tool execution failed: …`) and pre-tool hooks (`tool call denied by pre-tool hook: …`).

// The patterns added by issue 34 alone (the first shipped pattern is the older `Error:` prefix).
const ADDED = honestyConfigFromJson({
  error_text_patterns: (JSON.parse(Deno.readTextFileSync("data/honesty_defaults.json")) as {
    error_text_patterns: string[];
  }).error_text_patterns.slice(1),
});
const firesAdded = (text: string) =>
  applyErrorText([{ tool: "t", result: text }], ADDED)[0]?.isError === true;

Deno.test("error_text_patterns: a leading 'Encountered error' (Gemini / Antigravity step errors) fails the call", () => {
  for (
    const text of [
      "Encountered error in step execution: Permission prompt for action 'command' on target " +
      "'node tests/runner.js' timed out waiting for user response.",
      'Encountered error in step execution: error executing cascade step: CORTEX_STEP_TYPE_GREP_SEARCH: exec: "grep": executable file not found in %PATH%',
      "encountered an error while reading the file",
      "Encountered error in tool execution: failed to generate content: 429 Too Many Requests",
    ]
  ) assert.ok(failed(text), text);
  assert.ok(!failed("The parser never encountered error states in 3 runs."));
});

Deno.test("error_text_patterns: a leading 'Tool execution failed' fails the call", () => {
  for (
    const text of [
      "Tool execution failed: test failure",
      "Tool execution failed - no result received",
      "tool execution failed: chroma down",
    ]
  ) assert.ok(failed(text), text);
  assert.ok(!failed("Retried after: Tool execution failed earlier, now ok"));
});

Deno.test("error_text_patterns: 'denied by' in the first words (hooks, policies) fails the call", () => {
  for (
    const text of [
      "denied by pre-tool hook: bash is forbidden",
      "tool call denied by pre-tool hook: ASP Mandate: not granted",
      "Denied by policy 'dry_run_block_push_sandboxed'.",
      "Permission denied by user",
      "Tool use was denied by the user",
    ]
  ) assert.ok(failed(text), text);
  for (
    const text of [
      "The request to /admin was logged; access for other users denied by default rules.",
      "Of 12 applications, 3 were denied by the committee.",
    ]
  ) assert.ok(!failed(text), text);
});

Deno.test("error_text_patterns: the Agents SDK's tool error and pydantic-ai's retry prompt fail the call", () => {
  // Both read from real cassettes (testdata/formats/real: ddtrace-openai-agents-tool-errors-gzip,
  // pydantic-ai-groq-tool-use-failed-streaming), where no status marks the failure.
  for (
    const text of [
      "An error occurred while running the tool. Please try again. Error: division by zero",
      "1 validation errors: [{'type': 'missing', 'loc': ('x',)}]\n\nFix the errors and try again.",
    ]
  ) assert.ok(failed(text), text);
  for (
    const text of [
      "The report says an error occurred while running the tool last week; today it is fixed.",
      "Fix the errors and try again. Then the second step explains the rest of the setup.",
    ]
  ) assert.ok(!failed(text), text);
});

Deno.test("applyErrorText() reads the one string of a single-key result object (a Gemini functionResponse)", () => {
  assert.ok(failed({ output: "Encountered error in step execution: denied by pre-tool hook" }));
  assert.ok(failed({ result: "Error: file not found" }));
  // How a Go agent framework hands a failed tool to Gemini (seen in its public tests).
  assert.ok(failed({ output: "tool execution failed: permission denied" }));
  assert.ok(!failed({ output: "Encountered error", code: 1 }), "two keys: not read as text");
  assert.ok(!failed({ output: { text: "Error: x" } }), "not a string");
  assert.ok(!failed({ output: "3 files" }));
});

Deno.test("evaluate() fails a Gemini functionResponse whose text reads 'Encountered error …'", () => {
  const transcript = {
    contents: [
      { role: "user", parts: [{ text: "Run the tests." }] },
      {
        role: "model",
        parts: [{ functionCall: { name: "run_command", args: { command: "npm test" } } }],
      },
      {
        role: "user",
        parts: [{
          functionResponse: {
            name: "run_command",
            response: { output: "Encountered error in step execution: denied by pre-tool hook" },
          },
        }],
      },
      { role: "model", parts: [{ text: "The tests pass." }] },
    ],
  };
  const result = evaluate([{ tool: "run_command" }], transcript);
  assert.equal(result.traceCalls[0]?.isError, true);
  assert.equal(result.traceCalls[0]?.metadata?.outcome_source, "error_text");
  assert.equal(result.requiredCallRecall, 0);
});

// Every result of the real corpus whose sidecar (written before these patterns) says it succeeded.
function corpusSuccesses(): string[] {
  const dir = "testdata/formats/real";
  const texts: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".expected.json")) continue;
    const file = entry.name.slice(0, -".expected.json".length);
    const expected = JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`)) as Expected;
    const bytes = Deno.readFileSync(`${dir}/${file}`);
    const traces = isZipBytes(bytes) // an Inspect .eval (issue 35)
      ? tracesFromEvalZip(bytes, `${dir}/${file}`)
      : tracesFromText(Deno.readTextFileSync(`${dir}/${file}`), `${dir}/${file}`, {
        onRunError: () => {}, // a run that cannot be read holds no result (its sidecar's run_errors)
      });
    traces.forEach((trace, i) => {
      trace.calls.forEach((call: ToolCall, j) => {
        const ok = expected.traces[i]?.calls[j]?.ok;
        if (ok !== true && call.isError !== false) return;
        const result = call.result;
        if (typeof result === "string") texts.push(result);
        else if (result !== undefined) texts.push(JSON.stringify(result));
      });
    });
  }
  return texts;
}

const SUCCESSES = corpusSuccesses();

Deno.test("no shipped error pattern fires on a successful result of the real corpus", () => {
  assert.ok(SUCCESSES.length >= 150, `only ${SUCCESSES.length} successful results`);
  const fired = SUCCESSES.filter((text) =>
    applyErrorText([{ tool: "t", result: text }], DEFAULT_HONESTY)[0]?.isError === true
  );
  assert.deepEqual(fired, []);
});

Deno.test("property: the added patterns never fire on a corpus success, whatever follows its first line", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SUCCESSES),
      fc.string({ maxLength: 80 }),
      (text, tail) => !firesAdded(`${text}\n${tail}`) && !firesAdded(`${text} ${tail}`),
    ),
    { numRuns: 300 },
  );
});

Deno.test("property: each added pattern fires on its phrase at the start, whatever follows", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(
        "Encountered error",
        "Tool execution failed",
        "denied by",
        "Tool call denied by",
      ),
      fc.constantFrom("", " ", "  \n"),
      fc.string({ maxLength: 60 }),
      (phrase, lead, rest) => firesAdded(`${lead}${phrase}: ${rest}`),
    ),
    { numRuns: 200 },
  );
});
