// The GitHub Action (action.yml) and the repository's workflows. Workflows cannot run here, so:
// GitHub's own parser (@actions/workflow-parser, bundled with `deno bundle`: the package
// imports its JSON schemas without import attributes, so it loads neither in Node nor in Deno
// as it is) must accept action.yml and every workflow file; and the action's `run:` steps run
// locally, in order, as bash scripts on the bundled demo data, with the inputs, outputs and
// step files GitHub would give them. `uses:` steps (setup-deno, upload-artifact) are the
// runner's and are skipped; deno is on PATH already.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { load as loadYaml } from "js-yaml";
import { npmPackage, systemBin } from "./_deps.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

async function run(cmd: string, args: string[], options: Deno.CommandOptions = {}) {
  const output = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", ...options })
    .output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, out: text(output.stdout), err: text(output.stderr) };
}

function workflowFiles(): string[] {
  const dir = `${ROOT}/.github/workflows`;
  return [...Deno.readDirSync(dir)].filter((e) => /\.ya?ml$/.test(e.name)).map((e) =>
    `${dir}/${e.name}`
  )
    .sort();
}

const PARSE = `
import { NoOperationTraceWriter, parseAction, parseWorkflow } from "./parser.js";
const out = [];
for (const [kind, path] of JSON.parse(Deno.args[0])) {
  const parse = kind === "action" ? parseAction : parseWorkflow;
  const result = parse({ name: path, content: Deno.readTextFileSync(path) }, new NoOperationTraceWriter());
  out.push({ path, ok: result.value !== undefined, errors: result.context.errors.getErrors().map((e) => e.message) });
}
console.log(JSON.stringify(out));
`;

Deno.test("action.yml and every workflow parse with GitHub's workflow parser", async () => {
  if (npmPackage("@actions/workflow-parser") === undefined) return;
  const dir = await Deno.makeTempDir({ prefix: "toolscore-action-" });
  try {
    // The bundle resolves the package from tools/test-deps/node_modules.
    await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ nodeModulesDir: "manual" }));
    const bundle = await run(Deno.execPath(), [
      "bundle",
      "--config",
      `${dir}/deno.json`,
      "--platform=deno",
      "-o",
      `${dir}/parser.js`,
      `${ROOT}/tools/test-deps/workflow_parser.js`,
    ]);
    assert.equal(bundle.code, 0, bundle.err);
    await Deno.writeTextFile(`${dir}/parse.js`, PARSE);
    // Two broken files show the parser does reject: a run step without a shell, a job
    // without runs-on.
    await Deno.writeTextFile(
      `${dir}/bad_action.yml`,
      "name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo\n",
    );
    await Deno.writeTextFile(
      `${dir}/bad_workflow.yml`,
      "on: push\njobs:\n  a:\n    steps:\n      - run: echo\n",
    );
    const files = [
      ["action", `${ROOT}/action.yml`],
      ...workflowFiles().map((path) => ["workflow", path]),
      ["action", `${dir}/bad_action.yml`],
      ["workflow", `${dir}/bad_workflow.yml`],
    ];
    assert.ok(files.length >= 4);
    const parsed = await run(Deno.execPath(), [
      "run",
      "--no-config",
      `--allow-read=${ROOT},${dir}`,
      "--allow-env=LOG_TOKENS,LOG_STREAM", // the yaml package reads its debug switches
      `${dir}/parse.js`,
      JSON.stringify(files),
    ]);
    assert.equal(parsed.code, 0, parsed.err);
    const results = JSON.parse(parsed.out) as { path: string; ok: boolean; errors: string[] }[];
    const [badAction, badWorkflow] = results.splice(-2);
    for (const result of results) {
      assert.deepEqual(result.errors, [], result.path);
      assert.ok(result.ok, result.path);
    }
    assert.match(badAction!.errors.join("\n"), /Required property is missing: shell/);
    assert.match(badWorkflow!.errors.join("\n"), /runs-on/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

/** Run the action's `run:` steps as GitHub would, with these inputs. */
async function runAction(
  inputs: Record<string, string>,
  work: string,
  context: { job?: string; jobIndex?: string } = {},
) {
  const action = loadYaml(await Deno.readTextFile(`${ROOT}/action.yml`)) as Action;
  assert.equal(action.runs.using, "composite");
  for (const [name, spec] of Object.entries(action.inputs)) {
    if (spec.required) assert.ok(name in inputs, `input ${name} is required`);
    else inputs[name] ??= spec.default ?? "";
  }
  const outputs: Record<string, Record<string, string>> = {};
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
      if (expr === "github.action_path") return ROOT;
      if (expr === "github.job") return context.job ?? "eval";
      if (expr === "strategy.job-index") return context.jobIndex ?? "0";
      let m = /^inputs\.([\w-]+)$/.exec(expr);
      if (m) return inputs[m[1]!] ?? "";
      m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      if (m) return outputs[m[1]!]?.[m[2]!] ?? "";
      throw new Error(`expression the local runner does not know: ${expr}`);
    });
  const summary = `${work}/step_summary.md`;
  await Deno.writeTextFile(summary, "");
  const steps: { name: string; code: number | "skipped"; out: string; output?: string }[] = [];
  let i = 0;
  for (const step of action.runs.steps) {
    if (step.uses !== undefined) {
      steps.push({ name: step.name ?? step.uses, code: "skipped", out: "" });
      continue;
    }
    assert.equal(step.shell, "bash");
    const script = `${work}/step_${i++}.sh`;
    const output = `${work}/output_${i}`;
    await Deno.writeTextFile(script, expand(step.run!));
    await Deno.writeTextFile(output, "");
    const env: Record<string, string> = {
      PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:/usr/bin:/bin`,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      NO_COLOR: "1",
    };
    for (const name of ["HOME", "DENO_DIR", "DENO_TLS_CA_STORE", "DENO_NO_UPDATE_CHECK"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value);
    // GitHub's bash: `bash --noprofile --norc -eo pipefail {0}`.
    const result = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: ROOT,
      env,
      clearEnv: true,
    });
    steps.push({
      name: step.name ?? "",
      code: result.code,
      out: result.out + result.err,
      output: (await Deno.readTextFile(output)).trim(),
    });
    if (step.id !== undefined) {
      outputs[step.id] = Object.fromEntries(
        (await Deno.readTextFile(output)).split("\n").filter((l) => l.includes("=")).map((l) => [
          l.slice(0, l.indexOf("=")),
          l.slice(l.indexOf("=") + 1),
        ]),
      );
    }
    if (result.code !== 0) break; // a failing step ends the job
  }
  const actionOutputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, spec]) => [name, expand(spec.value)]),
  );
  return { steps, outputs: actionOutputs, summary: await Deno.readTextFile(summary) };
}

Deno.test("the action's run steps, run locally on the demo data, report, output and gate", async (t) => {
  const work = await Deno.makeTempDir({ prefix: "toolscore-action-" });
  try {
    await t.step(
      "a passing trace: outputs score 1.000 and passed true; the gate passes",
      async () => {
        const reports = `${work}/good`;
        const { steps, outputs, summary } = await runAction({
          gold: "data/demo/gold.json",
          traces: "data/demo/good.json",
          bar: "0.9",
          reports: "summary,html,junit",
          "report-dir": reports,
        }, work);
        assert.deepEqual(
          steps.map((s) => s.code),
          ["skipped", 0, 0, "skipped", 0],
          JSON.stringify(steps),
        );
        assert.deepEqual(outputs, { score: "1.000", passed: "true", "exit-code": "0" });
        assert.match(summary, /^### toolscore eval: PASS\n/);
        assert.deepEqual([...Deno.readDirSync(reports)].map((e) => e.name).sort(), [
          "junit.xml",
          "report.html",
          "result.json",
        ]);
      },
    );
    await t.step(
      "every demo trace at bar B: passed false, and the gate step fails the job",
      async () => {
        const reports = `${work}/all`;
        const { steps, outputs, summary } = await runAction({
          gold: "data/demo/gold.json",
          traces:
            "data/demo/good.json\ndata/demo/missing_call.json data/demo/wrong_argument.json\n",
          bar: "B",
          reports: "summary,markdown,html,junit",
          "report-dir": reports,
        }, work);
        assert.deepEqual(
          steps.map((s) => s.code),
          ["skipped", 0, 0, "skipped", 1],
          JSON.stringify(steps),
        );
        assert.match(steps[4]!.out, /::error title=toolscore::a trace failed its bar/);
        assert.equal(outputs.passed, "false");
        assert.equal(outputs["exit-code"], "1");
        assert.match(outputs.score!, /^0\.\d{3}$/);
        assert.match(summary, /^### toolscore eval: FAIL\n\n3 traces: 2 passed, 1 failed/);
        const junit = await Deno.readTextFile(`${reports}/junit.xml`);
        assert.equal((junit.match(/<testcase /g) ?? []).length, 3);
        assert.ok((await Deno.stat(`${reports}/report.md`)).size > 0);
        const xmllint = systemBin("/usr/bin/xmllint");
        if (xmllint !== undefined) {
          const lint = await run(xmllint, [
            "--noout",
            "--schema",
            `${ROOT}/testdata/junit/junit-10.xsd`,
            `${reports}/junit.xml`,
          ]);
          assert.equal(lint.code, 0, lint.err);
        }
      },
    );
    await t.step(
      "globs in traces are expanded; one that matches nothing is a clear exit 2",
      async () => {
        const reports = `${work}/glob`;
        const { steps, outputs } = await runAction({
          gold: "data/demo/gold.json",
          traces: "data/demo/[gm]*_*.json\ndata/**/good.json",
          reports: "junit",
          "report-dir": reports,
        }, work);
        assert.equal(steps[1]!.code, 0, steps[1]!.out);
        const junit = await Deno.readTextFile(`${reports}/junit.xml`);
        // missing_call.json from the first pattern (not gold.json: no underscore), good.json from
        // the second, through the folders ** crosses.
        assert.deepEqual(
          [...junit.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]).sort(),
          ["data/demo/good.json", "data/demo/missing_call.json"],
        );
        assert.equal(outputs["exit-code"], "0"); // no bar: report only
        const none = await runAction({
          gold: "data/demo/gold.json",
          traces: "data/demo/good.json nothing/*.jsonl",
          "report-dir": `${work}/none`,
        }, work);
        assert.equal(none.steps[1]!.code, 2);
        assert.match(
          none.steps[1]!.out,
          /^::error title=toolscore::no file matches 'nothing\/\*\.jsonl' in traces \(patterns are relative to /m,
        );
      },
    );
    await t.step("the artifact is named per job and matrix index unless named", async () => {
      const named = async (
        inputs: Record<string, string>,
        context: { job: string; jobIndex: string },
      ) => {
        const { steps } = await runAction(
          {
            gold: "data/demo/gold.json",
            traces: "data/demo/good.json",
            reports: "html",
            "report-dir": `${work}/art`,
            ...inputs,
          },
          work,
          context,
        );
        assert.equal(steps[2]!.name, "Name the artifact");
        assert.equal(steps[2]!.code, 0, steps[2]!.out);
        return steps[2]!.output;
      };
      assert.deepEqual([
        await named({}, { job: "eval", jobIndex: "0" }),
        await named({}, { job: "eval", jobIndex: "1" }),
        await named({ "artifact-name": "mine" }, { job: "eval", jobIndex: "1" }),
      ], [
        "name=toolscore-report-eval-0",
        "name=toolscore-report-eval-1",
        "name=mine",
      ]);
      const action = loadYaml(await Deno.readTextFile(`${ROOT}/action.yml`)) as {
        runs: { steps: { uses?: string; with?: Record<string, string> }[] };
      };
      const upload = action.runs.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
      assert.equal(upload?.with?.name, "${{ steps.artifact.outputs.name }}");
    });
    await t.step("an unknown report name stops the step with exit 2", async () => {
      const { steps } = await runAction({
        gold: "data/demo/gold.json",
        traces: "data/demo/good.json",
        reports: "pdf",
        "report-dir": `${work}/bad`,
      }, work);
      assert.equal(steps[1]!.code, 2);
      assert.match(steps[1]!.out, /unknown report 'pdf'/);
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("the README documents every input and output of action.yml", async () => {
  const action = loadYaml(await Deno.readTextFile(`${ROOT}/action.yml`)) as Action;
  const readme = await Deno.readTextFile(`${ROOT}/README.md`);
  const section = readme.slice(readme.indexOf("#### GitHub Action"), readme.indexOf("#### GitLab"));
  const documented = [...section.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]);
  assert.deepEqual(documented, [...Object.keys(action.inputs), ...Object.keys(action.outputs)]);
});
