// Issue 42, item 2: no list of input size is spread into a call's arguments in lib/ (one argument
// per item: past about 125,000 items V8 throws "Maximum call stack size exceeded"). Use pushAll,
// maxOf and minOf from lib/base/arrays.ts. A spread of a list whose size toolscore fixes (a few
// check names, one 8 KiB block) is listed below with why it is bounded.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { maxOf, minOf, pushAll } from "../lib/base/arrays.ts";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));

/** `file: the spread`, for spreads of lists of a size toolscore fixes, not the input. */
const BOUNDED = new Set([
  // 8,192 bytes at a time.
  "agent/keys.ts: String.fromCharCode(...bytes.subarray(i, i + 8192))",
  // The doctor's checks and findings: a fixed list of checks, the findings of one text.
  "doctor/check_server.ts: checks.push(...tail",
  "doctor/run_doctor.ts: checks.push(...inspection.checks)",
  "doctor/report.ts: Math.max(0, ...report.checks",
  "doctor/tool_lint.ts: out.push(...textFindings(",
  "doctor/tool_lint.ts: findings.push(...textFindings(",
  "doctor/lint_server.ts: out.push(...textFindings(",
  "doctor/tool_schemas.ts: fails.push(...found.fails",
  "doctor/tool_schemas.ts: warns.push(...found.warns",
  'doctor/server_checks.ts: DoctorCheck(name, "fail", [...fails',
  // The issues of one initialize answer.
  "doctor/server_checks.ts: fails.push(...issueLines(",
  // Argument-name lists of the matcher syntax, and a contract's `$type` names (at most 7 kinds).
  "scoring/matcher_json.ts: new IsType(...names",
  "formats/custom.ts: first(item, ...ARGS_KEYS)",
  'formats/langchain.ts: makeTrace("langchain", ...split(',
  "cli/run.ts: Math.max(...Object.keys(COMMANDS)",
]);

function libFiles(dir = LIB): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) pushAll(files, libFiles(`${path}/`));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files.sort();
}

const CALL_SPREAD = /[\w$\])]\s*\(([^()[\]{}]*,\s*)?\.\.\.(?!\w+\s*[:?])/g;

function isBounded(file: string, code: string): boolean {
  return [...BOUNDED].some((entry) => {
    const at = entry.indexOf(": ");
    return entry.slice(0, at) === file && code.includes(entry.slice(at + 2));
  });
}

async function spreadsInCalls(): Promise<string[]> {
  const found: string[] = [];
  for (const path of libFiles()) {
    const file = path.slice(LIB.length).replaceAll("\\", "/");
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines.forEach((line, i) => {
      const code = line.trim();
      if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) return;
      // The first argument of a call written over several lines.
      if (code.startsWith("...") && /[\w$\])]\s*\($/.test(lines[i - 1]?.trim() ?? "")) {
        const call = `${lines[i - 1]!.trim()}${code}`;
        if (!isBounded(file, call)) found.push(`lib/${file}:${i + 1}: ${call}`);
      }
      for (const match of code.matchAll(CALL_SPREAD)) {
        const before = code.slice(0, match.index);
        if (/\bfunction\b|\bconstructor\s*$/.test(before) || /^(async\s+)?#?\w+$/.test(before)) {
          continue; // a declaration's rest parameter
        }
        const bounded = [...BOUNDED].some((entry) => {
          const [where, text] = [
            entry.slice(0, entry.indexOf(": ")),
            entry.slice(entry.indexOf(": ") + 2),
          ];
          return where === file && code.includes(text);
        });
        if (!bounded) found.push(`lib/${file}:${i + 1}: ${code}`);
      }
    });
  }
  return found;
}

Deno.test("no list is spread into a call's arguments in lib/ (pushAll, maxOf, minOf instead)", async () => {
  assert.deepEqual(await spreadsInCalls(), []);
});

Deno.test("pushAll(), maxOf() and minOf() take 300,000 items", () => {
  const many = Array.from({ length: 300_000 }, (_, i) => i);
  assert.throws(() => Math.max(...many), RangeError); // what they replace
  assert.equal(pushAll([-1], many).length, 300_001);
  assert.equal(maxOf(many), 299_999);
  assert.equal(minOf(many), 0);
  assert.ok(Number.isNaN(maxOf([1, NaN, 2])));
  assert.equal(maxOf([], 0), 0);
});
