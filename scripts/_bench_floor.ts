/**
 * The end-to-end floor of `toolscore eval DIR`: read every file of a
 * directory and `JSON.parse` it, nothing else. `scripts/bench_evaluate.ts`
 * runs it as its own `deno run`, beside `toolscore eval` on the same files.
 *
 *     deno run --allow-read scripts/_bench_floor.ts DIR
 *
 * @module
 */

const dir = Deno.args[0]!;
const names: string[] = [];
for (const entry of Deno.readDirSync(dir)) if (entry.isFile) names.push(entry.name);
names.sort();
let keys = 0;
for (const name of names) {
  const value = JSON.parse(Deno.readTextFileSync(`${dir}/${name}`)) as Record<string, unknown>;
  keys += Object.keys(value).length;
}
console.log(`${names.length} files, ${keys} top-level keys`);
