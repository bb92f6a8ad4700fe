/**
 * Issue 35, part B: agent-harness logs (SWE-agent, mini-swe-agent, gemini-cli,
 * OpenHands, Inspect AI). The real
 * files are in `testdata/formats/real/` (checked by `formats_real_test.ts`);
 * the cases no public file shows (a message with two action blocks, the
 * JSON observation of mini-swe-agent's tool-calling configuration) are
 * built here from mini-swe-agent's templates (`config/mini.yaml`,
 * `config/default.yaml`) and say so.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import "../lib/base/_heavy.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { fencedCommands } from "../lib/formats/mini_swe_agent.ts";
import { tracesFromEvalZip } from "../lib/formats/inspect_zip.ts";
import { runCollect } from "./_cli.ts";
import { callFailed, type FormatName } from "../lib/scoring/calls.ts";

const REAL = "testdata/formats/real";

function read(value: unknown, format: "auto" | FormatName = "auto") {
  return tracesFromText(JSON.stringify(value), "doc.json", { format });
}

const SYSTEM = {
  role: "system",
  content: "To finish, issue the following command: `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`",
};

Deno.test("tracesFromText() reads a mini-swe-agent trajectory as bash calls, never a silent zero", () => {
  const path = `${REAL}/mini-swe-agent-github-issue.traj.json`;
  const text = Deno.readTextFileSync(path);
  const [trace] = tracesFromText(text, path, { format: "auto" });
  assert.equal(trace?.format, "mini-swe-agent");
  assert.equal(trace?.calls.length, 10);
  assert.ok(trace?.calls.every((c) => c.tool === "bash" && c.metadata?.text_action === true));
  assert.equal(trace?.calls[0]?.metadata?.returncode, 1);
  assert.ok(callFailed(trace!.calls[0]!));
  assert.match(trace?.finalAnswer ?? "", /^diff --git/);
  // Forced as an OpenAI chat, the file holds no tool_calls: the old reading is not the default.
  const [chat] = tracesFromText(text, path, { format: "openai" });
  assert.equal(chat?.calls.length, 0);
});

Deno.test("tracesFromText() makes no call of a mini-swe-agent message with two action blocks", () => {
  const [trace] = read([
    SYSTEM,
    { role: "assistant", content: "```bash\nls\n```\nand\n```bash\npwd\n```" },
    { role: "user", content: "Please always provide EXACTLY ONE action in triple backticks." },
    { role: "assistant", content: "THOUGHT: one\n\n```bash\nls\n```" },
    { role: "user", content: "<returncode>0</returncode>\n<output>\na.py\n</output>" },
  ]);
  assert.equal(trace?.format, "mini-swe-agent");
  assert.deepEqual(trace?.calls.map((c) => c.args), [{ command: "ls" }]);
  assert.equal(trace?.calls[0]?.result, "a.py");
  assert.equal(trace?.calls[0]?.isError, false);
});

Deno.test("tracesFromText() reads mini-swe-agent's JSON observations and its saved {info, messages}", () => {
  const [trace] = read({
    info: { mini_version: "1.17.0", exit_status: "Submitted", submission: "patch" },
    trajectory_format: "mini-swe-agent-1.1",
    messages: [
      { role: "assistant", content: "x", extra: { actions: [{ command: "false" }] } },
      { role: "user", content: '{"returncode": 1, "output": ""}' },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "c1", function: { name: "bash", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: '{\n  "returncode": 0,\n  "output": "a"\n}' },
    ],
  });
  assert.equal(trace?.format, "mini-swe-agent");
  assert.equal(trace?.calls[0]?.error, "exit code 1");
  assert.equal(trace?.calls[1]?.id, "c1");
  assert.equal(trace?.calls[1]?.isError, false);
  assert.equal(trace?.finalAnswer, "patch");
  assert.equal(trace?.metadata?.exit_status, "Submitted");
});

Deno.test("tracesFromText() reads SWE-agent history tool_calls paired by tool_call_ids lists", () => {
  const path = `${REAL}/swe-agent-test-repo-function-calling.traj`;
  const [trace] = tracesFromText(Deno.readTextFileSync(path), path, { format: "auto" });
  assert.equal(trace?.format, "swe-agent");
  assert.deepEqual(trace?.calls.map((c) => c.tool), ["find_file", "open", "edit", "bash", "bash"]);
  assert.deepEqual(trace?.calls[0]?.args, { file_name: "missing_colon.py" });
  assert.match(String(trace?.calls[0]?.result), /Found 1 matches/);
  // The last step (submit) is only in the trajectory: a text action with its duration.
  assert.deepEqual(trace?.calls[4]?.args, { command: "submit" });
  assert.ok((trace?.calls[4]?.durationS ?? 0) > 0);
  assert.deepEqual(trace?.usage, { inputTokens: 7141, outputTokens: 243 });
  assert.equal(trace?.metadata?.exit_status, "submitted");
});

Deno.test("tracesFromText() refuses a document forced as swe-agent that has no trajectory", () => {
  assert.throws(
    () => read({ messages: [] }, "swe-agent"),
    /not a SWE-agent trajectory/,
  );
  assert.throws(() => read({ hello: 1 }, "mini-swe-agent"), /not a mini-swe-agent trajectory/);
});

Deno.test("fencedCommands() finds each closed block in order and never more than 64", () => {
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[a-z ]{1,12}$/), { maxLength: 80 }),
      fc.string({ maxLength: 20 }),
      (commands, noise) => {
        const clean = noise.replaceAll("`", "");
        const text = commands.map((c) => `${clean}\n\`\`\`bash\n${c}\n\`\`\`\n`).join("");
        const want = commands.map((c) => c.trim()).slice(0, 64);
        assert.deepEqual(fencedCommands(text), want);
      },
    ),
  );
  assert.deepEqual(fencedCommands("```bash\nunclosed"), []);
  assert.deepEqual(fencedCommands("```bashful\nx\n```"), []);
});

Deno.test("tracesFromText() reads a gemini-cli .responses file as one trace of its streamed turns", () => {
  const path = `${REAL}/gemini-cli-parallel-tools.responses`;
  const [trace, ...rest] = tracesFromText(Deno.readTextFileSync(path), path, { format: "auto" });
  assert.equal(rest.length, 0);
  assert.equal(trace?.format, "gemini-cli");
  assert.deepEqual(trace?.calls.map((c) => c.tool), [
    "read_file",
    "read_file",
    "write_file",
    "read_file",
    "read_file",
  ]);
  assert.ok(trace?.calls.every((c) => c.result === undefined && c.isError === undefined));
  assert.deepEqual(trace?.skipped, [{ type: "generateContent", count: 2 }]);
  assert.equal(trace?.finalAnswer, "All waves completed successfully.");
});

Deno.test("tracesFromText() reads OpenHands events: the model's arguments, observations by cause, exit codes", () => {
  const path = `${REAL}/openhands-trajs-basic-gui-mode.json`;
  const [trace] = tracesFromText(Deno.readTextFileSync(path), path, { format: "auto" });
  assert.equal(trace?.format, "openhands");
  assert.deepEqual(trace?.calls.map((c) => c.tool), [
    "execute_bash",
    "str_replace_editor",
    "str_replace_editor",
    "execute_bash",
  ]);
  assert.deepEqual(trace?.calls[0]?.args, { command: "mkdir -p /workspace/todo-app" });
  assert.equal(trace?.calls[3]?.metadata?.exit_code, -1);
  assert.ok(callFailed(trace!.calls[3]!));
  assert.equal(trace?.model, "claude-3-5-sonnet-20241022");
});

Deno.test("tracesFromText() reads an OpenHands resolver JSONL as one trace per line with its patch", () => {
  const path = `${REAL}/openhands-resolver-mock-output.jsonl`;
  const traces = tracesFromText(Deno.readTextFileSync(path), path, { format: "auto" });
  assert.deepEqual(traces.map((t) => t.calls.length), [3, 21]);
  assert.deepEqual(traces[0]?.calls[0]?.args, { command: "touch LICENSE" });
  assert.equal(traces[0]?.calls[0]?.isError, false);
  assert.match(traces[0]?.finalAnswer ?? "", /^diff --git a\/LICENSE/);
});

Deno.test("tracesFromEvalZip() refuses a zip bomb before inflating it, with exit 2 from the CLI", async () => {
  const { zipSync } = await import("fflate");
  // 64 MiB of one byte deflates about 1000-fold: over the ratio an Inspect sample may have.
  const bomb = zipSync({ "samples/1_epoch_1.json": new Uint8Array(64 * 1024 * 1024).fill(32) }, {
    level: 9,
  });
  assert.ok(bomb.length < 1024 * 1024);
  assert.throws(() => tracesFromEvalZip(bomb, "bomb.eval"), /inflates \d+-fold, over the 200-fold/);
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeFileSync(`${dir}/bomb.eval`, bomb);
    const run = await runCollect(["inspect", `${dir}/bomb.eval`]);
    assert.equal(run.code, 2);
    assert.match(run.err, /bomb\.eval: samples\/1_epoch_1\.json inflates/);
    assert.doesNotMatch(run.err, /\n\s+at /);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("tracesFromEvalZip() applies the JSON limits to an inflated sample", async () => {
  const { strToU8, zipSync } = await import("fflate");
  const deep = `{"id":1,"epoch":1,"input":"x","messages":[],"store":${"[".repeat(1500)}${
    "]".repeat(1500)
  }}`;
  const zip = zipSync({ "samples/1_epoch_1.json": strToU8(deep) });
  assert.throws(() => tracesFromEvalZip(zip, "deep.eval"), /deep\.eval:samples\/1_epoch_1\.json/);
  const notInspect = zipSync({ "word/document.xml": strToU8("<w/>") });
  assert.throws(() => tracesFromEvalZip(notInspect, "doc.docx"), /no samples\/\*\.json/);
  const sample = { id: 1, epoch: 1, input: "x", messages: [] };
  const ok = zipSync({ "samples/1_epoch_1.json": strToU8(JSON.stringify(sample)) });
  assert.throws(() => tracesFromEvalZip(ok, "a.eval", { format: "openai" }), /only as an Inspect/);
});

Deno.test("toolscore inspect walks a folder of .eval, .traj and .responses files", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    for (
      const file of [
        "inspect-scorer-popularity.eval",
        "swe-agent-test-repo-i1.traj",
        "gemini-cli-parallel-tools.responses",
      ]
    ) Deno.copyFileSync(`${REAL}/${file}`, `${dir}/${file}`);
    const run = await runCollect(["inspect", "--json", dir]);
    assert.equal(run.code, 0, run.err);
    const traces = JSON.parse(run.out).traces as { source: string; format: string }[];
    assert.equal(traces.length, 12);
    assert.ok(traces.some((t) => t.source === `${dir}/inspect-scorer-popularity.eval[5#1]`));
    assert.deepEqual([...new Set(traces.map((t) => t.format))].sort(), [
      "gemini-cli",
      "inspect",
      "swe-agent",
    ]);
    // A zip under another name is still told by its bytes (its text is not UTF-8).
    Deno.copyFileSync(`${REAL}/inspect-log-formats.eval`, `${dir}/renamed.json`);
    const renamed = await runCollect(["inspect", "--json", `${dir}/renamed.json`]);
    assert.equal(renamed.code, 0, renamed.err);
    assert.equal(JSON.parse(renamed.out).traces[0].source, `${dir}/renamed.json[1#1]`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("tracesFromText() says an Inspect log without samples holds none, not 0 calls", () => {
  const path = `${REAL}/inspect-analysis-browser.json`;
  const log = JSON.parse(Deno.readTextFileSync(path));
  delete log.samples;
  assert.throws(() => read(log), /holds no samples \(written with --no-log-samples\?\)/);
  const [trace] = tracesFromText(Deno.readTextFileSync(path), path, { format: "inspect" });
  assert.deepEqual(trace?.run, { task: "1", trial: 1 });
  assert.equal(trace?.calls.length, 4);
});

Deno.test("the harness readers take any JSON without throwing anything but an InputError", async () => {
  const { READERS } = await import("../lib/formats/registry.ts");
  const { InputError } = await import("../lib/base/errors.ts");
  const names = ["swe-agent", "mini-swe-agent", "gemini-cli", "openhands", "inspect"];
  const readers = READERS.filter((r) => names.includes(r.name));
  assert.equal(readers.length, names.length);
  const event = fc.record({
    id: fc.nat(5),
    source: fc.constantFrom("agent", "user"),
    action: fc.constantFrom("run", "message", "finish", "edit"),
    cause: fc.option(fc.nat(5), { nil: undefined }),
    observation: fc.option(fc.constantFrom("run", "error"), { nil: undefined }),
    content: fc.option(fc.string(), { nil: undefined }),
    args: fc.option(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), {
      nil: undefined,
    }),
  }, { requiredKeys: ["id"] });
  const documents = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.array(event, { maxLength: 6 }),
    fc.record({
      trajectory: fc.array(fc.record({ action: fc.string(), observation: fc.jsonValue() })),
      history: fc.array(
        fc.record({ role: fc.string(), tool_calls: fc.jsonValue({ maxDepth: 2 }) }),
      ),
    }),
    fc.record({
      id: fc.nat(),
      epoch: fc.nat(),
      input: fc.string(),
      messages: fc.array(
        fc.record({
          role: fc.constantFrom("assistant", "tool"),
          tool_calls: fc.jsonValue({ maxDepth: 3 }),
          content: fc.jsonValue({ maxDepth: 2 }),
          error: fc.jsonValue({ maxDepth: 2 }),
        }),
      ),
    }),
  );
  fc.assert(
    fc.property(documents, (doc) => {
      for (const reader of readers) {
        try {
          reader.readIfClaimed?.(doc, "doc.json");
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
        }
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("a mini-swe-agent chat of k single-block actions reads k calls, never 0", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z ]{0,10}$/), fc.integer({ min: 0, max: 3 })), {
        minLength: 1,
        maxLength: 12,
      }),
      (actions) => {
        const messages: unknown[] = [SYSTEM];
        for (const [command, code] of actions) {
          messages.push({
            role: "assistant",
            content: `THOUGHT\n\n\`\`\`bash\n${command}\n\`\`\``,
          });
          messages.push({
            role: "user",
            content: `<returncode>${code}</returncode>\n<output>\n</output>`,
          });
        }
        const [trace] = read(messages);
        assert.equal(trace?.format, "mini-swe-agent");
        assert.equal(trace?.calls.length, actions.length);
        assert.deepEqual(trace?.calls.map((c) => c.isError), actions.map(([, code]) => code !== 0));
      },
    ),
  );
});

Deno.test("tracesFromText() takes mini-swe-agent 2's extra.returncode and raw_output over the text", () => {
  // The message shapes of mini-swe-agent 2 (`models/utils/actions_text.py`): the action in
  // `extra.actions`, the observation's raw output and return code in its `extra`.
  const [trace] = read({
    trajectory_format: "mini-swe-agent-1.1",
    info: { mini_version: "2.2.6", submission: "" },
    messages: [
      { role: "assistant", content: "x", extra: { actions: [{ command: "make test" }] } },
      {
        role: "user",
        content: "<returncode>0</returncode>\n<output>\nrendered\n</output>",
        extra: { raw_output: "2 failed", returncode: 2 },
      },
    ],
  });
  assert.equal(trace?.calls[0]?.result, "2 failed");
  assert.equal(trace?.calls[0]?.error, "2 failed");
  assert.equal(trace?.calls[0]?.metadata?.returncode, 2);
  assert.equal(trace?.finalAnswer, undefined);
});
