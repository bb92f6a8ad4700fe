/**
 * Issue 34 (Claude Code messages without a session or result message), found
 * on real files: a session of Claude Code on the web as its sessions API
 * serves it, `{loglines: [{type, timestamp, message}]}`, reads like a
 * `{messages}` list of Claude Code messages; and the claude-code-action's
 * saved execution file, whose early `result` message names no `subtype` or
 * `session_id`, reads instead of being refused whole.
 *
 * @module
 */

import assert from "node:assert/strict";
import "../lib/base/_heavy.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { isClaudeCodeMessage } from "../lib/formats/claude_code.ts";

const REAL = "testdata/formats/real/claudecode-web-session-loglines.json";
const ACTION = "testdata/formats/real/claudecode-action-sample-turns.json";

const SESSION = {
  loglines: [
    { type: "user", timestamp: "t0", message: { role: "user", content: "List the files" } },
    {
      type: "assistant",
      timestamp: "t1",
      message: {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }],
      },
    },
    {
      type: "user",
      timestamp: "t2",
      message: {
        content: [{
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: "a.py",
          is_error: false,
        }],
      },
    },
    {
      type: "assistant",
      timestamp: "t3",
      message: { role: "assistant", content: [{ type: "text", text: "One file: a.py" }] },
    },
  ],
};

Deno.test("tracesFromText() reads a Claude Code on the web session ({loglines}) under auto and claude-code", () => {
  for (const format of ["auto", "claude-code"] as const) {
    const [trace] = tracesFromText(JSON.stringify(SESSION), "s.json", { format });
    assert.equal(trace?.format, "claude-code");
    assert.deepEqual(trace?.calls.map((c) => [c.tool, c.args, c.isError]), [
      ["Bash", { command: "ls" }, false],
    ]);
    assert.equal(trace?.finalAnswer, "One file: a.py");
  }
});

Deno.test("tracesFromText() does not take a {loglines} list of other lines for Claude Code", () => {
  const logs = { loglines: [{ level: "info", msg: "started" }, { level: "warn", msg: "slow" }] };
  assert.throws(
    () => tracesFromText(JSON.stringify(logs), "l.json"),
    /l\.json: not a trace in any known format/,
  );
  assert.throws(
    () => tracesFromText(JSON.stringify(logs), "l.json", { format: "claude-code" }),
    /not a Claude Code stream/,
  );
});

Deno.test("tracesFromText() reads the real web-session file: 12 calls, the failed Bash among them", () => {
  const [trace] = tracesFromText(Deno.readTextFileSync(REAL), REAL);
  assert.equal(trace?.format, "claude-code");
  assert.equal(trace?.calls.length, 12);
  const failed = trace!.calls.filter((c) => c.isError === true);
  assert.deepEqual(failed.map((c) => c.args?.command), ["python -m pytest tests/ -v"]);
  assert.equal(trace?.finalAnswer, "Added multiply function!");
});

Deno.test("isClaudeCodeMessage() takes an early result message, not any {type: result}", () => {
  // Early Claude Code: `{type, cost_usd, duration_ms, result}`, no subtype, no session.
  assert.equal(
    isClaudeCodeMessage({ type: "result", cost_usd: 0.1, duration_ms: 5, result: "done" }),
    true,
  );
  assert.equal(isClaudeCodeMessage({ type: "result", subtype: "success", session_id: "s" }), true);
  assert.equal(isClaudeCodeMessage({ type: "result", result: "done" }), false);
  assert.equal(isClaudeCodeMessage({ type: "result", duration_ms: 5 }), false);
  assert.equal(isClaudeCodeMessage({ type: "result", result: 3, duration_ms: 5 }), false);
});

Deno.test("tracesFromText() reads the real claude-code-action execution file, early result and all", () => {
  for (const format of ["auto", "claude-code"] as const) {
    const [trace] = tracesFromText(Deno.readTextFileSync(ACTION), ACTION, { format });
    assert.equal(trace?.format, "claude-code");
    assert.deepEqual(trace?.calls.map((c) => [c.tool, c.isError]), [
      ["Read", false],
      ["Edit", false],
      ["mcp__github__add_pull_request_review_comment", false],
    ]);
    assert.match(trace?.finalAnswer ?? "", /^Successfully removed debug print statement/);
  }
});
