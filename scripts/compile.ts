/**
 * Build the release binaries: `deno compile` of `cli.ts` for each target, with
 * the union of every command's permissions baked in (README, "Permissions"),
 * named after the version in `deno.json`, then `SHA256SUMS` beside them.
 *
 * `deno compile` downloads the `denort` runtime of each target from
 * dl.deno.land, so the build itself runs on the release runner
 * (`.github/workflows/release.yml`); `--print` shows the commands anywhere.
 *
 * ```sh
 * deno run --allow-read --allow-write=dist --allow-run scripts/compile.ts [--out dist] [--tag vX.Y.Z] [--target T]… [--print]
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };

/** The targets of a release: Linux x64 and arm64, macOS x64 and arm64, Windows x64. */
export const TARGETS: readonly string[] = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

/**
 * The permissions baked into a binary: every command's set together, unscoped,
 * since the paths, keys and hosts are the user's and a binary cannot ask later.
 * No `--allow-sys`, `--allow-ffi` or `--allow-import`: no command needs them.
 */
export const BINARY_PERMISSIONS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
];

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The binary's file name for a version and target.
 *
 * @param version The toolscore version.
 * @param target A `deno compile --target` value.
 * @returns `toolscore-VERSION-TARGET`, with `.exe` for Windows.
 *
 * @example Usage
 * ```ts
 * import { binaryName } from "./compile.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(binaryName("0.1.0", "x86_64-pc-windows-msvc"), "toolscore-0.1.0-x86_64-pc-windows-msvc.exe");
 * ```
 */
export function binaryName(version: string, target: string): string {
  return `toolscore-${version}-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * The `deno` arguments that compile one binary.
 *
 * @param target A `deno compile --target` value.
 * @param out The output folder.
 * @param version The version stamped into the name (the binary prints `deno.json`'s).
 * @returns The arguments after `deno`.
 *
 * @example Usage
 * ```ts
 * import { compileArgs } from "./compile.ts";
 * import assert from "node:assert/strict";
 *
 * const args = compileArgs("aarch64-apple-darwin", "dist", "0.1.0");
 * assert.equal(args[0], "compile");
 * assert.ok(args.includes("dist/toolscore-0.1.0-aarch64-apple-darwin"));
 * ```
 */
export function compileArgs(target: string, out: string, version: string): string[] {
  return [
    "compile",
    "--frozen",
    "--no-prompt",
    ...BINARY_PERMISSIONS,
    // `eval -j` starts worker threads from this module; deno compile embeds workers only
    // when named.
    "--include",
    "lib/cli/eval_worker.ts",
    "--target",
    target,
    "--output",
    `${out}/${binaryName(version, target)}`,
    "cli.ts",
  ];
}

/**
 * `SHA256SUMS` for files in one folder, in the format `sha256sum --check` reads.
 *
 * @param dir The folder.
 * @param names The file names in it.
 * @returns One `HEX  NAME` line per file, sorted by name.
 *
 * @example Usage
 * ```ts ignore
 * import { checksums } from "./compile.ts";
 *
 * await Deno.writeTextFile("dist/SHA256SUMS", await checksums("dist", ["toolscore-0.1.0-x86_64-apple-darwin"]));
 * ```
 */
export async function checksums(dir: string, names: readonly string[]): Promise<string> {
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    const hash = createHash("sha256");
    using file = await Deno.open(`${dir}/${name}`);
    for await (const chunk of file.readable) hash.update(chunk);
    lines.push(`${hash.digest("hex")}  ${name}`);
  }
  return lines.map((line) => `${line}\n`).join("");
}

/**
 * Create the output folder, or say in one line why it cannot be (issue 32:
 * `deno task compile --out` outside `dist/` died with a stack trace, since the
 * task may write only `dist/`).
 *
 * @param outDir The folder, absolute.
 * @param given The folder as given, for the message.
 * @returns `undefined` when the folder is ready, else the error line.
 *
 * @example Usage
 * ```ts ignore
 * import { readyOut } from "./compile.ts";
 *
 * console.log(await readyOut("/tmp/dist", "/tmp/dist"));
 * ```
 */
export async function readyOut(outDir: string, given: string): Promise<string | undefined> {
  const { state } = await Deno.permissions.query({ name: "write", path: outDir });
  if (state !== "granted") {
    return `compile: no write permission for ${given} (deno task compile may write only dist/); ` +
      `run deno run --allow-read --allow-write=${given} --allow-run scripts/compile.ts --out ${given}`;
  }
  try {
    await Deno.mkdir(outDir, { recursive: true });
  } catch (error) {
    const why = error instanceof Deno.errors.AlreadyExists
      ? "it is a file, not a folder"
      : (error as Error).message;
    return `compile: cannot create ${given}: ${why}; choose another --out folder`;
  }
  return undefined;
}

/**
 * Build every binary and `SHA256SUMS`, or print the commands.
 *
 * @param args The command-line arguments.
 * @returns The exit code: 0 built, 1 a compile failed, 2 bad arguments or a tag that is not the version.
 *
 * @example Usage
 * ```ts ignore
 * import { main } from "./compile.ts";
 *
 * Deno.exit(await main(["--print"]));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        out: { type: "string", default: "dist" },
        tag: { type: "string" },
        target: { type: "string", multiple: true },
        print: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    console.error(`compile: ${(error as Error).message}`);
    return 2;
  }
  const version = denoJson.version;
  if (values.tag !== undefined && values.tag !== `v${version}`) {
    console.error(
      `compile: the tag ${values.tag} is not v${version}, the version in deno.json; ` +
        `tag v${version} or change deno.json`,
    );
    return 2;
  }
  const targets = values.target ?? TARGETS;
  const unknown = targets.filter((target) => !TARGETS.includes(target));
  if (unknown.length > 0) {
    console.error(`compile: unknown target ${unknown.join(", ")}; use ${TARGETS.join(", ")}`);
    return 2;
  }
  const commands = targets.map((target) => compileArgs(target, values.out, version));
  if (values.print) {
    for (const command of commands) console.log(["deno", ...command].join(" "));
    return 0;
  }
  const outDir = isAbsolute(values.out) ? values.out : join(ROOT, values.out);
  const ready = await readyOut(outDir, values.out);
  if (ready !== undefined) {
    console.error(ready);
    return 2;
  }
  for (const command of commands) {
    const { code } = await new Deno.Command(Deno.execPath(), { args: command, cwd: ROOT })
      .spawn().status;
    if (code !== 0) {
      console.error(`compile: deno ${command.join(" ")} exited with ${code}`);
      return 1;
    }
  }
  const names = targets.map((target) => binaryName(version, target));
  await Deno.writeTextFile(join(outDir, "SHA256SUMS"), await checksums(outDir, names));
  console.log(`${names.length} binaries and SHA256SUMS in ${values.out}/`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
