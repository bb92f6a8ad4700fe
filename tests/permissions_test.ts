// Each command runs with the least permissions the README names: the README's lines run as
// written, each flag they grant is needed, and scoring cannot write or spawn.
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { type CliRun, runDeno } from "./_cli.ts";

const root = fromFileUrl(new URL("..", import.meta.url));

/** The `deno run …` lines of the README's Permissions section, as argument lists after `deno`. */
async function readmePermissionLines(): Promise<string[][]> {
  const readme = await Deno.readTextFile(`${root}README.md`);
  const section = readme.split("\n## Permissions\n")[1]?.split("\n## ")[0] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const lines = block.split("\n").filter((line) => line.startsWith("deno run "));
  assert.ok(lines.length > 0, "the README's Permissions section has no deno run lines");
  return lines.map((line) => line.trim().split(/\s+/).slice(1));
}

/** What a README line must do; `files` are created under `out/`. */
interface Expectation {
  code: number;
  out?: RegExp;
  files?: string[];
}

// Keyed by the words after `mod.ts` up to the first path or flag value.
const EXPECTED: Record<string, Expectation> = {
  "demo": { code: 0, out: /What this shows/ },
  "eval": { code: 0, out: /good\.json {2}score 1\.00 A/ },
  "eval --receipt-dir": { code: 0, files: ["good.receipt.json"] },
  "eval --junit": { code: 0, files: ["junit.xml", "report.md", "report.html"] },
  "inspect": { code: 0, out: /format openai/ },
  "compare": { code: 0, out: /^mini +40/m },
  "compare --html": { code: 0, files: ["compare.html"] },
  "select": { code: 0, out: /Chosen: large/ },
  // The shipped protocol rejects the switch: exit 1 is its decision, not a permission problem.
  "decide": { code: 1, out: /Protocol: / },
  "regrade": { code: 0, files: ["missing_call.regraded.receipt.json"] },
  "export": { code: 0, files: ["runs.jsonl", "runs.manifest.json"] },
  "validate-export": { code: 0, out: /ok \(120 records/ },
  "contract init": { code: 0, files: ["contract.yaml"] },
  // The fixture's count_items schema is invalid on purpose: doctor fails it, and exits 1.
  "doctor --": {
    code: 1,
    out: /✓ server-start .*\n(?:.*\n)*✓ tools-list +7 tools.*\n✗ tool-schemas +tools\[4\]/,
  },
  // Keys are unset here, so doctor fails on them; but it could read them and PATH.
  "doctor --spec": {
    code: 1,
    out: /✗ keys +not set: OPENAI_API_KEY[^\n]*\n.*\n✓ packages +deno at /,
  },
};

function keyOf(args: string[]): string {
  const rest = args.slice(args.indexOf("mod.ts") + 1);
  const words = [rest[0]!];
  if (rest[0] === "contract") words.push(rest[1]!);
  const flag = rest.find((arg) =>
    ["--receipt-dir", "--junit", "--html", "--spec", "--"].includes(arg)
  );
  if (flag !== undefined && rest[0] !== "regrade") words.push(flag);
  return words.join(" ");
}

/**
 * Run a README line from the repository root with `out/` pointing at `out`, and `deno` on
 * PATH as for whoever types the line (doctor's server command is `deno`).
 */
async function runLine(args: string[], out: string): Promise<CliRun> {
  const resolved = args.map((arg) => arg.replaceAll("out/", `${out}/`));
  const denoDir = Deno.execPath().replace(/[\\/][^\\/]*$/, "");
  const output = await new Deno.Command(Deno.execPath(), {
    // --no-prompt grants nothing: a missing permission fails instead of waiting on a terminal.
    args: ["run", "--no-prompt", ...resolved.slice(1)],
    cwd: root,
    env: { NO_COLOR: "1", PATH: `${denoDir}:${Deno.env.get("PATH") ?? ""}` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

async function listing(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("the README's permission lines run as written and each flag they grant is needed", async () => {
  const lines = await readmePermissionLines();
  assert.deepEqual(lines.map(keyOf).sort(), Object.keys(EXPECTED).sort());
  const out = await Deno.makeTempDir({ prefix: "toolscore-permissions-" });
  try {
    for (const args of lines) {
      const key = keyOf(args);
      const expected = EXPECTED[key]!;
      for (const flag of args.filter((arg) => arg.startsWith("--allow-"))) {
        // The fixture server needs no variables; PATH and HOME are for real servers' children.
        if (key === "doctor --" && flag.startsWith("--allow-env")) continue;
        // Without any one of its flags the command fails, naming that flag, and writes nothing.
        const before = await listing(out);
        const denied = await runLine(args.filter((arg) => arg !== flag), out);
        const kind = flag.replace(/=.*/, "");
        assert.notEqual(denied.code, 0, `${key} without ${flag}`);
        assert.match(denied.err + denied.out, new RegExp(`run deno with [^\n]*${kind}`), key);
        assert.deepEqual(await listing(out), before, `${key} without ${flag} wrote nothing`);
      }
      const result = await runLine(args, out);
      assert.equal(result.code, expected.code, `${key}: ${result.err}${result.out}`);
      if (expected.out) assert.match(result.out, expected.out, key);
      assert.doesNotMatch(result.err + result.out, /no permission|missing permission/, key);
      for (const file of expected.files ?? []) {
        assert.ok((await Deno.stat(`${out}/${file}`)).size > 0, `${key}: ${file}`);
      }
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("eval under --allow-read only scores, and cannot write: one line names the flag", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolscore-readonly-" });
  try {
    for (const name of ["gold.json", "good.json", "missing_call.json"]) {
      await Deno.copyFile(`${root}data/demo/${name}`, `${dir}/${name}`);
    }
    await Deno.copyFile(`${root}testdata/contract/flights.yaml`, `${dir}/flights.yaml`);
    await Deno.copyFile(`${root}testdata/contract/good_run.json`, `${dir}/good_run.json`);
    const before = await listing(dir);
    const evalReadOnly = (...args: string[]) =>
      runDeno(["run", "--no-prompt", `--allow-read=${dir}`, `${root}cli.ts`, "eval", ...args], {
        cwd: dir,
      });
    const scored = await evalReadOnly("gold.json", "good.json", "missing_call.json", "-j", "2");
    assert.equal(scored.code, 0, scored.err);
    assert.match(scored.out, /2 traces: 1 passed, 1 failed/);
    const contract = await evalReadOnly("flights.yaml", "good_run.json", "--json");
    assert.equal(contract.code, 0, contract.err);
    assert.equal(JSON.parse(contract.out).grade, "A");
    for (const flags of [["--receipt"], ["--receipt-out", "r.json"], ["--receipt-dir", "."]]) {
      const denied = await evalReadOnly("gold.json", "good.json", ...flags);
      assert.equal(denied.code, 2, denied.err);
      assert.equal(denied.out, "");
      assert.match(
        denied.err,
        // Issue 32: the receipt flags are checked before scoring, naming the flag.
        /^toolscore: \S+: (--receipt(-out|-dir)?: )?no permission to (write|create)[^\n]*; run deno with [^\n]*--allow-write[^\n]*\n$/,
      );
      assert.deepEqual(await listing(dir), before, "nothing was written");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval's module graph holds no code that spawns a process", async () => {
  // eval loads its parsers and validators lazily; their modules are in the graph too.
  const info = await runDeno(["info", "--json", `${root}lib/cli/eval.ts`], { cwd: root });
  assert.equal(info.code, 0, info.err);
  const graph = JSON.parse(info.out) as {
    modules: { specifier: string; local?: string }[];
    npmPackages: Record<string, { name: string }>;
  };
  const local = graph.modules.filter((m) => m.specifier.startsWith("file:"));
  assert.ok(local.some((m) => m.specifier.endsWith("/lib/evaluate/evaluate.ts")));
  for (const module of local) {
    assert.doesNotMatch(module.specifier, /\/lib\/(mcp|doctor|agent)\//);
    const text = await Deno.readTextFile(fromFileUrl(module.specifier));
    assert.doesNotMatch(text, /\bDeno\.Command\b|node:child_process/, module.specifier);
  }
  // Packages come in only through the graph's npm: modules; none of them spawns.
  const packages = graph.modules
    .filter((m) => m.specifier.startsWith("npm:"))
    .map((m) => m.specifier);
  for (const name of packages) {
    assert.doesNotMatch(name, /cross-spawn|@modelcontextprotocol|execa/, name);
  }
  assert.ok(packages.some((name) => name.includes("js-yaml")), "the lazily loaded packages count");
});
