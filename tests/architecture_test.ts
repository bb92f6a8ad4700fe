/**
 * The layout of `ARCHITECTURE.md` holds in the import graph: every import
 * between parts is allowed by its table, the table's parts are exactly the
 * folders of `lib/`, no two files import each other in a circle, and no file
 * in `lib/` is over 500 lines.
 *
 * @module
 */

import { deepEqual, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const LIB = `${ROOT}lib/`;
const MAX_LINES = 500;

/** The table of ARCHITECTURE.md: part → the parts it may import. */
function rules(): Map<string, Set<string>> {
  const text = Deno.readTextFileSync(`${ROOT}ARCHITECTURE.md`);
  const table = new Map<string, Set<string>>();
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 4 || !/^[a-z]+$/.test(cells[1] ?? "") || cells[1] === "part") continue;
    const allowed = (cells[2] ?? "").split(",").map((name) => name.trim()).filter(Boolean);
    table.set(cells[1]!, new Set(allowed));
  }
  return table;
}

function libFiles(dir = LIB): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) files.push(...libFiles(`${path}/`));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files.sort();
}

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

/** Every import between files of lib/, code and type-only, reached from every lib file. */
async function importGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  const pending = new Set(libFiles());
  for (const entry of [`${ROOT}mod.ts`, `${ROOT}cli.ts`, ...libFiles()]) {
    if (entry.startsWith(LIB) && !pending.has(entry)) continue;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
    }).output();
    ok(code === 0, new TextDecoder().decode(stderr));
    const info = JSON.parse(new TextDecoder().decode(stdout)) as { modules: InfoModule[] };
    for (const module of info.modules) {
      if (!module.specifier.startsWith("file://")) continue;
      const from = fileURLToPath(module.specifier);
      pending.delete(from);
      if (!from.startsWith(LIB)) continue;
      const targets = graph.get(from) ?? new Set<string>();
      graph.set(from, targets);
      for (const dependency of module.dependencies ?? []) {
        for (const target of [dependency.code?.specifier, dependency.type?.specifier]) {
          if (target?.startsWith("file://") && fileURLToPath(target).startsWith(LIB)) {
            targets.add(fileURLToPath(target));
          }
        }
      }
    }
  }
  return graph;
}

const partOf = (path: string) => path.slice(LIB.length).split("/")[0]!;
const short = (path: string) => path.slice(ROOT.length);
const graph = await importGraph();

Deno.test("ARCHITECTURE.md names exactly the folders of lib/", () => {
  const folders = [...Deno.readDirSync(LIB)].filter((entry) => entry.isDirectory)
    .map((entry) => entry.name).sort();
  deepEqual([...rules().keys()].sort(), folders);
  const loose = [...Deno.readDirSync(LIB)].filter((entry) => entry.isFile).map((e) => e.name);
  deepEqual(loose, [], "every file of lib/ belongs to a part");
});

Deno.test("imports between parts follow the table of ARCHITECTURE.md", () => {
  const table = rules();
  const broken: string[] = [];
  for (const [from, targets] of graph) {
    for (const target of targets) {
      const [a, b] = [partOf(from), partOf(target)];
      if (a !== b && !table.get(a)?.has(b)) broken.push(`${short(from)} → ${short(target)}`);
    }
  }
  deepEqual(broken, []);
});

Deno.test("no file in lib/ imports itself through a circle", () => {
  const state = new Map<string, "open" | "done">();
  const circles: string[] = [];
  const visit = (file: string, path: string[]) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        circles.push(path.slice(path.indexOf(next)).concat(next).map(short).join(" → "));
      } else if (!state.has(next)) visit(next, path);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file, []);
  deepEqual(circles, []);
});

Deno.test(`no file in lib/ is over ${MAX_LINES} lines`, () => {
  const long = libFiles().map((file) => ({ file, lines: Deno.readTextFileSync(file).split("\n") }))
    .filter(({ lines }) => lines.length - 1 > MAX_LINES)
    .map(({ file, lines }) => `${short(file)}: ${lines.length - 1}`);
  deepEqual(long, []);
});

Deno.test("every lib/ file is reached by the import graph", () => {
  const missing = libFiles().filter((file) => !graph.has(file)).map(short);
  deepEqual(missing, []);
});
