// Issue 37: the lifecycle doctor reports is the one that happened. Leftovers are found by
// process group and session as well as by the marker variable (a child with a bare
// environment, a double-forked one with ppid 1); a helper that exits by itself within the
// grace after the server is no leftover; a server that crashes soon after initialize fails
// server-start. Every check of "gone" reads the process table (ps).
import assert from "node:assert/strict";
import { tempDir } from "./_mcp.ts";
import { BAD_SERVER, doctorProcess, README_PERMISSIONS, readPids, running } from "./_doctor.ts";
import { findMarkedProcesses, parseProcStat } from "../lib/mcp/process_sweep.ts";

const ignore = Deno.build.os !== "linux";

async function withPidFile(fn: (pidFile: string) => Promise<void>): Promise<void> {
  const dir = await tempDir(".doctor_lifecycle_");
  const pidFile = `${dir}/pids`;
  try {
    await fn(pidFile);
  } finally {
    for (const pid of await readPids(pidFile, 0, 0)) {
      if (await running(pid)) Deno.kill(pid, "SIGKILL");
    }
    await Deno.remove(dir, { recursive: true });
  }
}

function server(pidFile: string, ...flags: string[]): string[] {
  return [
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-run=sleep,sh",
    `--allow-write=${pidFile}`,
    BAD_SERVER,
    "--pid-file",
    pidFile,
    ...flags,
  ];
}

function check(out: string, name: string): string {
  return new RegExp(`^(. ${name} +.*)$`, "m").exec(out)?.[1] ?? `(no ${name} line in)\n${out}`;
}

for (
  const [shape, flag] of [
    ["a child started with a bare environment (no marker)", "--bare-child"],
    ["a double-forked child with a bare environment (ppid 1)", "--double-fork"],
  ] as const
) {
  Deno.test({
    name: `toolscore doctor finds ${shape} by its process group, stops it and names it`,
    ignore,
    async fn() {
      await withPidFile(async (pidFile) => {
        const { code, out } = await doctorProcess([...README_PERMISSIONS], [
          "--linger",
          "0.1",
          "--shutdown-grace",
          "0.3",
          "--",
          ...server(pidFile, flag),
        ]);
        const pids = await readPids(pidFile, 1);
        assert.equal(pids.length, 1);
        assert.equal(code, 0, out);
        assert.match(
          check(out, "shutdown"),
          new RegExp(
            `^! shutdown +stopped 1 process\\(es\\) the server left running: ${
              pids[0]
            } \\((/usr/bin/)?sleep 300\\)$`,
          ),
        );
        assert.equal(await running(pids[0]!), false, `process ${pids[0]} survived`);
      });
    },
  });
}

Deno.test({
  name:
    "toolscore doctor lets a helper that exits by itself 0.3 s after the server go, without a warning",
  ignore,
  async fn() {
    await withPidFile(async (pidFile) => {
      const { code, out } = await doctorProcess([...README_PERMISSIONS], [
        "--linger",
        "0.1",
        "--fail-on-warn",
        "--",
        ...server(pidFile, "--watchdog", "0.3"),
      ]);
      assert.equal(code, 0, out);
      assert.match(
        check(out, "shutdown"),
        /^✓ shutdown +the server was stopped and nothing it started is left$/,
      );
      const pids = await readPids(pidFile, 1);
      assert.equal(pids.length, 1); // the helper did run
      assert.equal(await running(pids[0]!), false);
    });
  },
});

Deno.test({
  name:
    "toolscore doctor fails server-start for a server that crashes 400 ms after initialize, with its stderr",
  ignore,
  async fn() {
    await withPidFile(async (pidFile) => {
      const { code, out } = await doctorProcess([...README_PERMISSIONS], [
        "--",
        ...server(pidFile, "--crash-after", "400"),
      ]);
      assert.equal(code, 1, out);
      assert.match(
        check(out, "server-start"),
        /^✗ server-start +the server answered initialize, then exited with code 3 within 1 s \(.*bad_server\.ts.*\); its stderr ends: bad_server: lost the database connection, crashing on purpose$/,
      );
      assert.match(out, /^ {4}fix: run `.*` yourself to see why it stops/m);
    });
  },
});

Deno.test({
  name:
    "findMarkedProcesses() finds a bare-environment process by its session, reading /proc or through sh",
  ignore,
  async fn() {
    // A leader of its own session and group, with no marker in its environment.
    const child = new Deno.Command("sleep", {
      args: ["30"],
      clearEnv: true,
      detached: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const stat = parseProcStat(
        await Deno.readTextFile(`/proc/${child.pid}/stat`).catch(() => ""),
      );
      if (stat !== null) assert.equal(stat.session, child.pid);
      // This test may not read /proc directly (that needs --allow-all): sh reads it.
      const viaSh = await findMarkedProcesses("TOOLSCORE_MCP_RUN=none", child.pid);
      assert.deepEqual(viaSh?.map((p) => p.pid), [child.pid]);
      assert.match(viaSh![0]!.command, /^(\/usr\/bin\/)?sleep 30$/);
      assert.deepEqual(await findMarkedProcesses("TOOLSCORE_MCP_RUN=none"), []);
      // With every permission, /proc is read directly: the same answer.
      const direct = await new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `import { findMarkedProcesses } from "./lib/mcp/process_sweep.ts";
           console.log(JSON.stringify(await findMarkedProcesses("TOOLSCORE_MCP_RUN=none", ${child.pid})));`,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.deepEqual(JSON.parse(new TextDecoder().decode(direct.stdout)), viaSh);
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
  },
});
