/**
 * data/bfcl-waivers.json: each waived BFCL entry is in the bundled data,
 * has the defect its reason names (checked against the question and answer
 * lines), and BFCL's own checker fails the output made of the answer's first
 * acceptable values (its vector in testdata/bfcl/vectors/).
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { bfclCategory } from "../lib/benchmarks/bfcl_import.ts";

const ROOT = new URL("../", import.meta.url);
const waivers = JSON.parse(await Deno.readTextFile(new URL("data/bfcl-waivers.json", ROOT))) as {
  id: string;
  reason: string;
  link: string | null;
}[];

type Entry = { id: string; function: { name: string; parameters: Record<string, unknown> }[] };
type Answer = { id: string; ground_truth: Record<string, Record<string, unknown[]>>[] };

async function lineOf<T extends { id: string }>(path: string, id: string): Promise<T> {
  const text = await Deno.readTextFile(new URL(path, ROOT));
  const line = text.split("\n").find((l) => l.includes(`"id": "${id}"`));
  ok(line !== undefined, `${id} is in ${path}`);
  return JSON.parse(line) as T;
}

// Every parameter of the answer that the doc lacks, is required with [], or is required with [""].
function defects(entry: Entry, answer: Answer): string[] {
  const out: string[] = [];
  for (const item of answer.ground_truth) {
    const name = Object.keys(item)[0]!;
    const doc = entry.function.find((f) => f.name === name)!;
    const properties = doc.parameters.properties as Record<string, unknown>;
    const required = doc.parameters.required as string[];
    for (const [param, values] of Object.entries(item[name]!)) {
      if (!Object.hasOwn(properties, param)) out.push(`${name}.${param}: not in doc`);
      else if (required.includes(param) && values.length === 0) {
        out.push(`${name}.${param}: required, []`);
      } else if (required.includes(param) && values.length === 1 && values[0] === "") {
        out.push(`${name}.${param}: required, only ""`);
      }
    }
    for (const param of required) {
      if (!Object.hasOwn(item[name]!, param)) out.push(`${name}.${param}: required, not in answer`);
    }
  }
  return out;
}

Deno.test("data/bfcl-waivers.json lists each known BFCL gold defect once, with a reason", () => {
  deepEqual(waivers.map((w) => w.id), [...new Set(waivers.map((w) => w.id))]);
  for (const waiver of waivers) {
    ok(waiver.reason.length > 40, waiver.id);
    ok(waiver.link === null || waiver.link.startsWith("https://github.com/ShishirPatil/gorilla/"));
  }
});

for (const waiver of waivers) {
  Deno.test(`the ${waiver.id} waiver names a defect the data has, and BFCL fails its answer`, async () => {
    const category = bfclCategory(waiver.id)!;
    const name = `BFCL_v4_${category}.json`;
    const entry = await lineOf<Entry>(`testdata/bfcl/data/${name}`, waiver.id);
    const answer = await lineOf<Answer>(`testdata/bfcl/data/possible_answer/${name}`, waiver.id);
    const found = defects(entry, answer);
    ok(found.length > 0, `${waiver.id} has a defect`);
    for (const defect of found) {
      const param = defect.split(":")[0]!.split(".").at(-1)!;
      ok(waiver.reason.includes(param), `${waiver.id}: the reason names ${param} (${defect})`);
    }
    const vectors = await Deno.readTextFile(
      new URL(`testdata/bfcl/vectors/${category}.jsonl`, ROOT),
    );
    const first = vectors.split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((v) =>
      v.id === waiver.id && v.kind === "first" && v.model === "toolscore-dot"
    );
    equal(first?.valid, false, `BFCL fails ${waiver.id}'s first acceptable values`);
  });
}
