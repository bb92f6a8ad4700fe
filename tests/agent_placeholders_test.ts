// Issue 31: `agent run --dry-run` and `doctor --spec` start the server once, outside any run:
// ${TOOLSCORE_RUN_DIR} and ${TOOLSCORE_RUN_ID} in its env get placeholders instead of failing,
// under narrowed permissions too.
import assert from "node:assert/strict";
import { runCollect } from "./_cli.ts";
import { npmBin } from "./_deps.ts";
import { tempDir } from "./_mcp.ts";
import { CONTRACTS, writeSpec } from "./_agent.ts";

const CLI = new URL("../cli.ts", import.meta.url).pathname;

async function memorySpec(dir: string, bin: string): Promise<string> {
  return await writeSpec(dir, {
    server: {
      command: [bin],
      env: {
        MEMORY_FILE_PATH: "${TOOLSCORE_RUN_DIR}/memory.jsonl",
        RUN_LABEL: "run-${TOOLSCORE_RUN_ID}",
      },
      timeout_s: 30,
    },
    arms: [{ id: "local", provider: "openai", model: "m", base_url: "http://127.0.0.1:9/v1" }],
    tasks: [{ id: "remember", prompt: "Remember", contract: `${CONTRACTS}contract_memory.json` }],
    prices: { m: { input_per_mtok: 0, output_per_mtok: 0 } },
  });
}

Deno.test("agent run --dry-run and doctor --spec start a server whose env uses ${TOOLSCORE_RUN_DIR}", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_placeholders");
  try {
    const spec = await memorySpec(dir, bin);
    const dry = await runCollect(["agent", "run", spec, "-o", `${dir}/runs.jsonl`, "--dry-run"]);
    assert.equal(dry.code, 0, dry.out + dry.err);
    assert.doesNotMatch(dry.out, /TOOLSCORE_RUN_DIR is not set/);
    const doctor = await runCollect(["doctor", "--spec", spec]);
    assert.equal(doctor.code, 0, doctor.out + doctor.err);
    // Nothing is left behind in the output's folder.
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["agent.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agent run --dry-run under narrowed permissions: no write access, no env access to the run variables", async () => {
  const bin = npmBin("mcp-server-memory");
  if (bin === undefined) return;
  const dir = await tempDir("agent_placeholders_narrow");
  try {
    const spec = await memorySpec(dir, bin);
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        "--allow-run",
        "--allow-env=PATH,HOME,OPENAI_API_KEY",
        CLI,
        "agent",
        "run",
        spec,
        "-o",
        `${dir}/runs.jsonl`,
        "--dry-run",
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(child.stdout) + new TextDecoder().decode(child.stderr);
    assert.equal(child.code, 0, text);
    assert.doesNotMatch(text, /--allow-env=TOOLSCORE_RUN_DIR/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
