/**
 * The hostile-input corpus, generated into a folder by the test (nothing
 * large is committed): for every kind of file toolscore reads, the generic
 * damage (empty, a BOM, invalid UTF-8, binary bytes, a directory, a missing
 * file) and one case per issue-20 item that applies to it (deep nesting, a
 * YAML alias bomb, 1e400, duplicate keys, control characters, regexes that
 * backtrack or that RE2 cannot run, a huge group of one tool).
 *
 * @module
 */

/** The kinds of input, each read by a set of commands (see `hostile_test.ts`). */
export type Kind =
  | "gold"
  | "trace"
  | "receipt"
  | "runs"
  | "protocol"
  | "export"
  | "spec"
  | "honesty"
  | "forbidden";

/** One corpus file. */
export interface Case {
  /** `kind/variant`, e.g. `trace/deep`. */
  id: string;
  /** The kind of input. */
  kind: Kind;
  /** The file (it may be a directory or missing, as the case says). */
  path: string;
  /** `error`: every command must refuse it; `ok`: every command must read it. */
  expect: "error" | "ok";
  /** What the error must say, beside the file name (a place: line:col or a JSON path). */
  says?: RegExp;
}

const EXTENSION: Record<Kind, string> = {
  gold: ".json",
  trace: ".json",
  receipt: ".receipt.json",
  runs: ".jsonl",
  protocol: ".yaml",
  export: ".jsonl",
  spec: ".yaml",
  honesty: ".json",
  forbidden: ".json",
};

/** Nested arrays `depth` deep, as JSON text. */
export function deepJson(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

/** A YAML "billion laughs": 9 levels of 9 aliases each (9^9 strings) in ~600 bytes. */
export function aliasBomb(indent: string): string {
  const lines = [`${indent}a: &a ["x","x","x","x","x","x","x","x","x"]`];
  const names = "abcdefghi";
  for (let i = 1; i < names.length; i++) {
    const previous = `*${names[i - 1]}`;
    lines.push(`${indent}${names[i]}: &${names[i]} [${Array(9).fill(previous).join(",")}]`);
  }
  return lines.join("\n") + "\n";
}

const GOOD_TRACE = '[{"tool": "search_flights", "args": {"destination": "JFK"}}]';
const ESC_TRACE = JSON.stringify([{
  tool: "search\x1b]0;pwned\x07\x1b[2J",
  args: { q: "\u202egnp.exe\x9b31m" },
}]);

/**
 * Write the corpus into `dir`.
 *
 * @param dir An empty folder.
 * @returns The cases.
 */
export async function writeCorpus(dir: string): Promise<Case[]> {
  const cases: Case[] = [];
  const write = async (
    kind: Kind,
    variant: string,
    content: string | Uint8Array | null,
    expect: "error" | "ok" = "error",
    says?: RegExp,
    extension = EXTENSION[kind],
  ) => {
    const path = `${dir}/${kind}-${variant}${extension}`;
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else if (content instanceof Uint8Array) await Deno.writeFile(path, content);
    cases.push({ id: `${kind}/${variant}`, kind, path, expect, says });
  };
  const demo = (name: string) =>
    Deno.readTextFile(new URL(`../../data/demo/${name}`, import.meta.url));
  const valid: Partial<Record<Kind, string>> = {
    gold: await demo("gold.json"),
    trace: await demo("good.json"),
    runs: await Deno.readTextFile(new URL("../../testdata/runs/agent_runs.jsonl", import.meta.url)),
    protocol: await Deno.readTextFile(
      new URL("../../testdata/runs/protocol.yaml", import.meta.url),
    ),
    honesty: '{"success_patterns": ["all set"]}',
    forbidden: '[{"tool": "cancel_booking", "reason": "never"}]',
  };
  for (const kind of Object.keys(EXTENSION) as Kind[]) {
    // The generic damage every reader must survive.
    await write(kind, "empty", "");
    await write(
      kind,
      "invalid-utf8",
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x7d]),
      "error",
      /:1(:\d+)?: not UTF-8/,
    );
    await write(
      kind,
      "binary",
      new Uint8Array([
        0x89,
        0x50,
        0x4e,
        0x47,
        0x0d,
        0x0a,
        0x1a,
        0x0a,
        0,
        0,
        0,
        0x0d,
        0x49,
        0x48,
        0x44,
        0x52,
        0x1b,
        0x5b,
        0x32,
        0x4a,
      ]),
    );
    await Deno.mkdir(`${dir}/${kind}-directory${EXTENSION[kind]}`);
    cases.push({
      id: `${kind}/directory`,
      kind,
      path: `${dir}/${kind}-directory${EXTENSION[kind]}`,
      expect: "error",
      says: /directory/,
    });
    cases.push({
      id: `${kind}/missing`,
      kind,
      path: `${dir}/${kind}-missing${EXTENSION[kind]}`,
      expect: "error",
      says: /not found/,
    });
    const text = valid[kind];
    if (text !== undefined) await write(kind, "bom", `\ufeff${text}`, "ok");
    // Item 3: deep nesting.
    const deep = kind === "runs" || kind === "export"
      ? `{"a": ${deepJson(100_000)}}\n`
      : kind === "protocol" || kind === "spec"
      ? `title: ${deepJson(100_000)}\n`
      : deepJson(100_000);
    await write(kind, "deep", deep, "error", /nested deeper than 1000 levels|exceeded maxDepth/);
  }
  // Item 2: YAML alias bombs where a YAML file is read.
  await write(
    "gold",
    "bomb",
    `- tool: a\n  args:\n${aliasBomb("    ")}`,
    "error",
    /:\d+:\d+: YAML aliases expand/,
    ".yaml",
  );
  await write(
    "trace",
    "bomb",
    `- tool: a\n  args:\n${aliasBomb("    ")}`,
    "error",
    /:\d+:\d+: YAML aliases expand/,
    ".yaml",
  );
  await write(
    "protocol",
    "bomb",
    `${valid.protocol}\nx:\n${aliasBomb("  ")}`,
    "error",
    /:\d+:\d+: YAML aliases expand/,
  );
  await write(
    "spec",
    "bomb",
    `spec_version: 1\nx:\n${aliasBomb("  ")}`,
    "error",
    /:\d+:\d+: YAML aliases expand/,
  );
  // Item 9: numbers JSON cannot hold.
  await write(
    "gold",
    "huge-number",
    '[{"tool": "a", "args": {"n": 1e400}}]',
    "error",
    /\[0\]\.args\.n: number too large/,
  );
  await write(
    "trace",
    "huge-number",
    '[{"tool": "a", "args": {"n": -1e400}}]',
    "error",
    /\[0\]\.args\.n: number too large/,
  );
  await write(
    "runs",
    "huge-number",
    '{"variant": "a", "task": "t", "passed": true, "cost_usd": 1e400}\n',
    "error",
    /:1: cost_usd: number too large/,
  );
  await write(
    "protocol",
    "huge-number",
    '{"protocol_version": 1, "baseline": "mini", "candidate": "large", "alpha": 1e400, ' +
      '"rules": [{"id": "r", "metric": "pass_rate", "expect": "candidate_better"}]}',
    "error",
    /alpha: number too large/,
    ".json",
  );
  // Item 10: duplicate keys in files people write.
  await write(
    "gold",
    "duplicate-key",
    '[{"tool": "a", "args": {"x": 1, "x": 2}}]',
    "error",
    /:1:\d+: \[0\]\.args: key "x" is given twice/,
  );
  await write(
    "gold",
    "contract-duplicate-key",
    '{"contract_version": 2,\n "required": [],\n "min_score": 0.5, "min_score": 0.9}',
    "error",
    /:3:\d+: key "min_score" is given twice/,
  );
  await write(
    "honesty",
    "duplicate-key",
    '{"success_patterns": ["a"], "success_patterns": ["b"]}',
    "error",
    /key "success_patterns" is given twice/,
  );
  await write(
    "forbidden",
    "duplicate-key",
    '[{"tool": "a", "tool": "b"}]',
    "error",
    /key "tool" is given twice/,
  );
  await write(
    "protocol",
    "duplicate-key",
    '{"protocol_version": 1, "baseline": "a", "baseline": "b"}',
    "error",
    /key "baseline" is given twice/,
    ".json",
  );
  await write(
    "spec",
    "duplicate-key",
    '{"spec_version": 1, "spec_version": 1}',
    "error",
    /key "spec_version" is given twice/,
    ".json",
  );
  // Item 1: patterns RE2 cannot run are refused with the path; backtracking ones run in linear time.
  await write(
    "gold",
    "backreference",
    '[{"tool": "a", "args": {"q": {"$regex": "(a)\\\\1"}}}]',
    "error",
    /\[0\]\.args\.q: \$regex .* uses a backreference/,
  );
  await write(
    "honesty",
    "lookahead",
    '{"success_patterns": ["done(?=!)"]}',
    "error",
    /success_patterns\[0\]: pattern .* uses lookahead/,
  );
  await write(
    "gold",
    "backtracking",
    '[{"tool": "search_flights", "args": {"destination": {"$regex": "(a+)+$"}}}]',
    "ok",
  );
  await write("honesty", "backtracking", '{"success_patterns": ["(a+)+$"]}', "ok");
  // Item 5: control characters from inputs, in output and in error snippets.
  await write("trace", "control-chars", ESC_TRACE, "ok");
  await write(
    "trace",
    "control-chars-broken",
    '[{"tool": "a\x1b[2J"',
    "error",
    /:1:\d+: invalid JSON/,
  );
  // Item 4: a huge group of one tool (1,000 expected × 100,000 actual).
  const calls = (n: number) =>
    JSON.stringify(Array.from({ length: n }, (_, i) => ({ tool: "search", args: { q: i } })));
  await write("gold", "huge-group", calls(1_000), "ok");
  await write("trace", "huge-group", calls(100_000), "ok");
  // The trace every gold case is scored against; the gold every trace case is scored against.
  await Deno.writeTextFile(`${dir}/good-trace.json`, GOOD_TRACE);
  await Deno.writeTextFile(
    `${dir}/backtracking-trace.json`,
    JSON.stringify([{ tool: "search_flights", args: { destination: "a".repeat(5000) + "!" } }]),
  );
  return cases;
}
