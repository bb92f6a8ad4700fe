/**
 * The end-to-end floor of `toolscore eval DIR`: read every file of a
 * directory and `JSON.parse` it, nothing else. `scripts/bench_evaluate.ts`
 * runs it as its own `deno run`, beside `toolscore eval` on the same files.
 *
 * With `--inner` it also parses every string in the document that holds JSON
 * (a string starting with `{` or `[`: an OpenAI call's `arguments`, a tool
 * message's content, an OTLP attribute's `stringValue`), which any reader of
 * such transcripts must do before it scores anything: the floor of reading
 * them, not only of reading the files.
 *
 *     deno run --allow-read scripts/_bench_floor.ts DIR [--inner]
 *
 * @module
 */

import { parseJsonStrings } from "./_bench_traces.ts";

const dir = Deno.args[0]!;
const inner = Deno.args.includes("--inner");
const names: string[] = [];
for (const entry of Deno.readDirSync(dir)) if (entry.isFile) names.push(entry.name);
names.sort();

let keys = 0;
let strings = 0;
for (const name of names) {
  const value = JSON.parse(Deno.readTextFileSync(`${dir}/${name}`)) as Record<string, unknown>;
  keys += Object.keys(value).length;
  if (inner) strings += parseJsonStrings(value);
}
console.log(
  `${names.length} files, ${keys} top-level keys${inner ? `, ${strings} JSON strings` : ""}`,
);
