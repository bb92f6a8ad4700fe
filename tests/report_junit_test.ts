// The JUnit reports against Jenkins' junit-10.xsd (testdata/junit/, from the xUnit plugin),
// checked with Debian's xmllint; the counts must match the run.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runCollect } from "./_cli.ts";
import { systemBin } from "./_deps.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const XSD = `${ROOT}testdata/junit/junit-10.xsd`;
const TOKEN = "sk-ant-api03-" + "Zx9Qw8Er7Ty6".repeat(4);

async function xmllint(path: string): Promise<{ ok: boolean; err: string } | undefined> {
  const bin = systemBin("/usr/bin/xmllint");
  if (bin === undefined) return undefined;
  const output = await new Deno.Command(bin, {
    args: ["--noout", "--schema", XSD, path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { ok: output.code === 0, err: new TextDecoder().decode(output.stderr) };
}

const count = (xml: string, pattern: RegExp) => (xml.match(pattern) ?? []).length;

Deno.test("eval --junit: one testcase per trace, failing ones with their top issues, valid XML", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  try {
    const traces = `${dir}/traces`;
    await Deno.mkdir(traces);
    for (const name of ["good.json", "missing_call.json", "wrong_argument.json"]) {
      await Deno.copyFile(`${ROOT}data/demo/${name}`, `${traces}/${name}`);
    }
    // Names and values XML 1.0 cannot hold as they are, and a credential.
    await Deno.writeTextFile(
      `${traces}/x"<&>'.json`,
      JSON.stringify([{
        tool: "a\x00b\x1b]0;title\x07",
        args: { key: TOKEN, "\ufffe": "\ud800" },
      }]),
    );
    const path = `${dir}/junit.xml`;
    const run = await runCollect([
      "eval",
      `${ROOT}data/demo/gold.json`,
      traces,
      "--min-score",
      "0.9",
      "--junit",
      path,
      "--json",
    ]);
    assert.equal(run.code, 1, run.err);
    const summary = JSON.parse(run.out).summary;
    const xml = await Deno.readTextFile(path);
    assert.equal(count(xml, /<testcase /g), summary.count);
    assert.equal(count(xml, /<failure /g), summary.failed);
    assert.match(
      xml,
      new RegExp(
        `<testsuite name="toolscore eval" tests="${summary.count}" failures="${summary.failed}" errors="0" skipped="0"`,
      ),
    );
    assert.match(xml, /<property name="mean_score" value="\d\.\d{3}"\/>/);
    assert.match(xml, /<property name="bar_source" value="flag"\/>/);
    assert.match(
      xml,
      /<failure type="below-bar" message="score 0\.825 B, below bar \(bar 0\.90\): search_flights \(expected call 1\): argument date expected &quot;2026-12-24&quot;, got &quot;2026-12-25&quot;; /,
    );
    assert.match(
      xml,
      /<failure type="failed-checks" message="required-calls: 1 of 3 required calls missing: send_confirmation; [^"]*; claimed-success: [^"]*; score 0\.906 A \(bar 0\.90\): missing call: send_confirmation/,
    );
    assert.match(
      xml,
      /<system-out>score 1\.000, grade A, bar 0\.90, pass\n.*\nevidence: 6 pass, 0 fail, 0 unknown\ntool-call durations in the trace: unknown \(not every call has one\)<\/system-out>/,
    );
    assert.match(xml, /name="[^"]*x&quot;&lt;&amp;&gt;&apos;\.json"/);
    assert.match(xml, /a\\u0000b\\u001b\]0;title\\u0007/);
    assert.ok(!xml.includes(TOKEN));
    assert.ok(!xml.includes("Zx9Qw8Er7Ty6Zx9Q"));
    const lint = await xmllint(path);
    if (lint !== undefined) assert.ok(lint.ok, lint.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval --junit: a contract's bar gates; a passing run has no failure", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  try {
    const path = `${dir}/junit.xml`;
    const run = await runCollect([
      "eval",
      `${ROOT}testdata/contract/flights.yaml`,
      `${ROOT}testdata/contract/good_run.json`,
      "--junit",
      path,
    ]);
    assert.equal(run.code, 0, run.err);
    const xml = await Deno.readTextFile(path);
    assert.equal(count(xml, /<testcase /g), 1);
    assert.equal(count(xml, /<failure/g), 0);
    assert.match(xml, /<property name="bar_source" value="contract"\/>/);
    assert.match(xml, /alternative notify: option 2 \(send_sms\)/);
    const lint = await xmllint(path);
    if (lint !== undefined) assert.ok(lint.ok, lint.err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("decide --junit: one testcase per rule, an unknown rule skipped, valid XML", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  try {
    const runs = `${ROOT}testdata/runs/agent_runs.jsonl`;
    const seen = new Set<number>();
    for (const protocol of ["protocol.yaml", "protocol_local.json", "protocol_cost.json"]) {
      const path = `${dir}/${protocol}.xml`;
      const run = await runCollect([
        "decide",
        `${ROOT}testdata/runs/${protocol}`,
        runs,
        `${ROOT}testdata/runs/records.jsonl`,
        "--junit",
        path,
        "--json",
      ]);
      const result = JSON.parse(run.out);
      const rules = result.rules as { status: string }[];
      const xml = await Deno.readTextFile(path);
      assert.equal(count(xml, /<testcase /g), rules.length, protocol);
      assert.equal(count(xml, /<failure /g), rules.filter((r) => r.status === "fail").length);
      assert.equal(count(xml, /<skipped /g), rules.filter((r) => r.status === "unknown").length);
      assert.match(xml, new RegExp(`<property name="decision" value="${result.decision}"/>`));
      assert.equal(
        run.code,
        { adopt: 0, reject: 1, undecided: 3 }[result.decision as string],
        run.err,
      );
      seen.add(run.code);
      const lint = await xmllint(path);
      if (lint !== undefined) assert.ok(lint.ok, `${protocol}: ${lint.err}`);
    }
    // The three protocols cover adopt, reject and undecided (so failures and skips occur).
    assert.deepEqual([...seen].sort(), [0, 1, 3]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("xmllint rejects a JUnit file the schema does not allow (the check can fail)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  try {
    const path = `${dir}/bad.xml`;
    // testsuite needs name, tests, failures and errors.
    await Deno.writeTextFile(
      path,
      '<?xml version="1.0"?>\n<testsuites><testsuite name="x"/></testsuites>\n',
    );
    const lint = await xmllint(path);
    if (lint !== undefined) assert.equal(lint.ok, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval --junit and --markdown are the same on worker threads as on one thread", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  try {
    await Deno.mkdir(`${dir}/traces`);
    for (let i = 0; i < 250; i++) {
      const calls = [{ tool: "search", args: { q: `q${i}` } }];
      if (i % 5 !== 0) calls.push({ tool: "book", args: { q: `b${i}` } });
      await Deno.writeTextFile(
        `${dir}/traces/t${String(i).padStart(3, "0")}.json`,
        JSON.stringify(calls),
      );
    }
    await Deno.writeTextFile(
      `${dir}/gold.json`,
      JSON.stringify([{ tool: "search" }, { tool: "book" }]),
    );
    const reports: string[][] = [];
    for (const jobs of ["1", "2"]) {
      const run = await runCollect([
        "eval",
        `${dir}/gold.json`,
        `${dir}/traces`,
        "--min-score",
        "0.95",
        "--jobs",
        jobs,
        "--junit",
        `${dir}/j${jobs}.xml`,
        "--markdown",
        `${dir}/m${jobs}.md`,
        "--json",
      ]);
      assert.equal(run.code, 1, run.err);
      reports.push([
        await Deno.readTextFile(`${dir}/j${jobs}.xml`),
        await Deno.readTextFile(`${dir}/m${jobs}.md`),
      ]);
    }
    assert.equal(count(reports[0]![0]!, /<testcase /g), 250);
    assert.equal(count(reports[0]![0]!, /<failure /g), 50);
    // The wall times and the start differ from run to run; nothing else may.
    const steady = (xml: string) => xml.replace(/ (?:time|timestamp)="[^"]*"/g, "");
    assert.equal(steady(reports[1]![0]!), steady(reports[0]![0]!));
    assert.equal(reports[1]![1], reports[0]![1]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const attr = (tag: string, name: string) => new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1];

Deno.test("eval --junit: the message leads with the failed checks; time is wall time, not the agent's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  const hostname = Deno.env.get("HOSTNAME");
  Deno.env.set("HOSTNAME", "ci-runner-7");
  try {
    // Claims success over a failed booking, and searched the wrong airport: the false claim
    // must come before the score issue, and the trace's hours of tool time are not its time.
    const trace = {
      messages: [
        { role: "user", content: "Book SFO to JFK on Christmas Eve for two." },
        {
          role: "assistant",
          content: [{
            type: "tool_use",
            id: "t1",
            name: "search_flights",
            input: { origin: "SFO", destination: "LGA", date: "2026-12-24" },
          }],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: '[{"flight_id":"FL-1"}]' }],
        },
        {
          role: "assistant",
          content: [{
            type: "tool_use",
            id: "t2",
            name: "book_flight",
            input: { flight_id: "FL-1", passengers: 2 },
          }],
        },
        {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: "t2",
            content: "payment declined",
            is_error: true,
          }],
        },
        { role: "assistant", content: "Done! Your flight is booked." },
      ],
    };
    await Deno.writeTextFile(`${dir}/claims.json`, JSON.stringify(trace));
    const gold = `${ROOT}data/demo/gold.json`;
    const path = `${dir}/junit.xml`;
    const before = Date.now();
    const run = await runCollect([
      "eval",
      gold,
      `${dir}/claims.json`,
      `${ROOT}data/demo/missing_call.json`,
      "--min-score",
      "0.9",
      "--junit",
      path,
    ]);
    assert.equal(run.code, 1, run.err);
    const xml = await Deno.readTextFile(path);
    const message = /<testcase name="[^"]*claims\.json"[^>]*>\s*<failure [^>]*message="([^"]*)"/
      .exec(xml)?.[1];
    assert.ok(message, xml);
    const claim = message.indexOf("claimed-success: ");
    const errors = message.indexOf("call-errors: ");
    const score = message.indexOf("destination expected &quot;JFK&quot;, got &quot;LGA&quot;");
    assert.ok(claim >= 0 && errors >= 0 && score > claim && score > errors, message);
    assert.doesNotMatch(message, /^score /);
    // Cases: classname is the gold file; time is toolscore's wall time on the trace, so
    // missing_call.json's 1.72 s of tool durations go to <system-out>.
    const suite = /<testsuite [^>]*>/.exec(xml)![0];
    const suiteTime = Number(attr(suite, "time"));
    assert.ok(suiteTime > 0 && suiteTime < (Date.now() - before) / 1000 + 1, suite);
    const stamp = attr(suite, "timestamp")!;
    assert.match(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.ok(Math.abs(Date.parse(`${stamp}Z`) - before) < 60_000, stamp);
    assert.equal(attr(suite, "hostname"), "ci-runner-7");
    const cases = [...xml.matchAll(/<testcase [^>]*>/g)].map((m) => m[0]);
    assert.equal(cases.length, 2);
    for (const tag of cases) {
      assert.equal(attr(tag, "classname"), gold.replace(/&/g, "&amp;"));
      const time = Number(attr(tag, "time"));
      assert.ok(time >= 0 && time <= suiteTime, tag);
    }
    assert.ok(Number(attr(cases[1]!, "time")) < 1.72, cases[1]);
    assert.match(xml, /tool-call durations in the trace: 1\.720 s summed/);
    const lint = await xmllint(path);
    if (lint !== undefined) assert.ok(lint.ok, lint.err);
  } finally {
    if (hostname === undefined) Deno.env.delete("HOSTNAME");
    else Deno.env.set("HOSTNAME", hostname);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("decide --junit: the suite has time, timestamp and hostname too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-junit-" });
  const hostname = Deno.env.get("HOSTNAME");
  Deno.env.set("HOSTNAME", "ci-runner-8");
  try {
    const path = `${dir}/rules.xml`;
    const before = Date.now();
    const run = await runCollect([
      "decide",
      `${ROOT}testdata/runs/protocol.yaml`,
      `${ROOT}testdata/runs/agent_runs.jsonl`,
      "--junit",
      path,
    ]);
    assert.equal(run.code, 1, run.err); // the example protocol rejects
    const xml = await Deno.readTextFile(path);
    const suite = /<testsuite [^>]*>/.exec(xml)![0];
    assert.ok(Number(attr(suite, "time")) >= 0, suite);
    assert.ok(Math.abs(Date.parse(`${attr(suite, "timestamp")}Z`) - before) < 60_000, suite);
    assert.equal(attr(suite, "hostname"), "ci-runner-8");
    const lint = await xmllint(path);
    if (lint !== undefined) assert.ok(lint.ok, lint.err);
  } finally {
    if (hostname === undefined) Deno.env.delete("HOSTNAME");
    else Deno.env.set("HOSTNAME", hostname);
    await Deno.remove(dir, { recursive: true });
  }
});
