/**
 * The one table of trace formats for people (issue 33): each `--format`
 * name with the shapes it reads, in words, and the file extensions its
 * registry rows claim (derived from {@linkcode SHAPES}, never written
 * twice). `inspect --help`, the `--format` option of `eval`, `contract init`
 * and `inspect`, and the README's "Trace shapes read" table come from here
 * or are checked against it by `tests/docs_tables_test.ts`, so a format
 * added to the registry cannot be missing from the docs.
 *
 * Run files (`tau-bench`, `tau2-bench`) have no registry row: they are JSON
 * documents of many runs, read by the run-file reader, so their extension
 * is `.json`.
 *
 * @module
 */

import type { FormatName } from "../scoring/calls.ts";
import { FORMATS, SHAPES } from "./registry.ts";

/** One format as the docs show it. */
export interface FormatDoc {
  /** The `--format` name. */
  name: FormatName;
  /** The shapes it reads, in a few words (plain text, no Markdown). */
  shapes: string;
  /** The file extensions its registry rows claim, lower case with the dot, sorted. */
  extensions: readonly string[];
}

const SHAPE_TEXT: Record<FormatName, string> = {
  toolscore: `{"format": "toolscore", "calls": […]} (what agent run writes)`,
  openai: "chat messages, {messages}, a chat.completion, or a stream of chat.completion.chunk",
  "openai-responses": "a response, {input}/{output} items, or a stream of response.* events",
  anthropic: "messages, {messages}, a Message, or a stream of message_start…message_stop events",
  gemini: "{candidates}, {contents}, parts, or streamGenerateContent chunks",
  mcp: "JSON-RPC messages or a recorded session; tools/call requests",
  langchain: "AgentActions, {name, args, id} tool calls, or LangGraph message dicts",
  otel: "OTLP JSON {resourceSpans} or spans; execute_tool / tools/call spans",
  "claude-code": "Claude Code / Agent SDK stream-json messages or a saved transcript",
  "vercel-ai": "AI SDK generateText results, UI message stream chunks, fullStream parts",
  "openai-agents": "OpenAI Agents SDK trace exports {data: [trace, spans]} or a RunState",
  "fast-agent": "fast-agent saved histories {messages}; tool_calls/tool_results keyed by id",
  adk: "Google ADK sessions {id, events: [{author, content: {parts}}]} or events",
  langfuse: "Langfuse trace exports {trace, observations} or a trace with observations",
  custom: "{calls|tool_calls: […]} or a list of {tool|name, args|arguments|input, …}",
  "tau-bench": "τ-bench results/trajectories [{task_id, reward, info, traj}] or one record",
  "tau2-bench": "τ²-bench results {simulations: [{task_id, trial, messages}]}; user calls marked",
  vcr: "VCR.py / pytest-recording HTTP cassettes of model API calls (incl. Bedrock, Cohere)",
  "swe-agent": "SWE-agent .traj {trajectory, history, info}; tool_calls, or actions as bash calls",
  "gemini-cli": "gemini-cli fake-response files (.responses): JSONL of {method, response}",
  openhands:
    "OpenHands event logs (action/observation events) or resolver output {instruction, history}",
  inspect: "Inspect AI eval logs (.json, zipped .eval): a trace per sample and epoch",
  "mini-swe-agent": "mini-swe-agent .traj.json chats; ```bash blocks read as bash calls",
  bfcl: "BFCL result files (JSON lines {id, result}): decoded, function-calling or call strings",
};

/**
 * Every format `--format` names (all but `auto`), in {@linkcode FORMATS}
 * order, with its shapes and extensions.
 *
 * @example Usage
 * ```ts
 * import { FORMAT_DOCS } from "./format_table.ts";
 * import assert from "node:assert/strict";
 *
 * const openai = FORMAT_DOCS.find((row) => row.name === "openai")!;
 * assert.ok(openai.extensions.includes(".json"));
 * assert.equal(FORMAT_DOCS[0]!.name, "toolscore");
 * ```
 */
export const FORMAT_DOCS: readonly FormatDoc[] = FORMATS.filter((name) => name !== "auto").map(
  (name) => {
    const format = name as FormatName;
    const claimed = SHAPES.filter((row) => row.format === format).flatMap((row) => row.extensions);
    return {
      name: format,
      shapes: SHAPE_TEXT[format],
      extensions: claimed.length > 0 ? [...new Set(claimed)].sort() : [".json"],
    };
  },
);

/** Options for {@linkcode formatNameList}. */
export interface FormatNameListOptions {
  /**
   * Spaces before each line after the first.
   * @default {0}
   */
  indent?: number;
  /**
   * The longest line, first line's `first` characters included.
   * @default {80}
   */
  width?: number;
  /**
   * Characters already on the first line before the list.
   * @default {0}
   */
  first?: number;
}

/**
 * `auto (default), toolscore, openai, …` wrapped for a help text's option
 * column.
 *
 * @param options Indent, width and what the first line already holds.
 * @returns The wrapped list (lines joined with `\n`).
 *
 * @example Usage
 * ```ts
 * import { formatNameList } from "./format_table.ts";
 * import { FORMATS } from "./registry.ts";
 * import assert from "node:assert/strict";
 *
 * const text = formatNameList({ indent: 4, width: 40 });
 * assert.match(text, /^auto \(default\), toolscore, openai,\n    /);
 * assert.ok(text.trimEnd().endsWith(FORMATS.at(-1)!)); // every name, the last one too
 * ```
 */
export function formatNameList(options: FormatNameListOptions = {}): string {
  const { indent = 0, width = 80, first = 0 } = options;
  const words = FORMATS.map((name, i) =>
    `${name === "auto" ? "auto (default)" : name}${i < FORMATS.length - 1 ? "," : ""}`
  );
  const lines: string[] = [];
  let line = "";
  let room = width - first;
  for (const word of words) {
    if (line !== "" && line.length + 1 + word.length > room) {
      lines.push(line);
      line = "";
      room = width - indent;
    }
    line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}
