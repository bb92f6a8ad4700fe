/**
 * The agreement end to end: every vector of testdata/bfcl/vectors/ written
 * as a BFCL result line (`{id, result}`, the decoded form BFCL's handlers
 * write), read by the `bfcl` trace format, and scored against the contract
 * `contractsFromBfcl` imports — the same verdict and `error_type` as BFCL's
 * own checker on every vector.
 *
 * @module
 */

import { equal } from "node:assert/strict";
import { contractsFromBfcl } from "../lib/benchmarks/bfcl_import.ts";
import { contractFromMapping } from "../lib/contract/parse.ts";
import { evaluateContract } from "../lib/evaluate/evaluate_contract.ts";
import { tracesFromText } from "../lib/formats/detect.ts";
import { parseJsonLossless } from "../lib/base/lossless_json.ts";
import type { Contract } from "../lib/contract/model.ts";

const DIR = new URL("../testdata/bfcl/", import.meta.url);
const manifest = JSON.parse(await Deno.readTextFile(new URL("vectors/manifest.json", DIR))) as {
  categories: Record<string, unknown>;
};

interface Vector {
  id: string;
  kind: string;
  underscore_to_dot: boolean;
  output: unknown;
  valid: boolean | null;
  error_type: string | null;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(new URL(path, DIR));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

for (const category of Object.keys(manifest.categories)) {
  Deno.test(`the bfcl reader and contractsFromBfcl() agree with BFCL's checker on ${category}`, async () => {
    const name = `BFCL_v4_${category}.json`;
    const questions = (await readText(`data/${name}`))!;
    const answers = await readText(`data/possible_answer/${name}`);
    const contracts = new Map<string, Contract>();
    for (const underscoreToDot of [false, true]) {
      for (const entry of contractsFromBfcl(questions, answers, { underscoreToDot })) {
        const file = JSON.parse(JSON.stringify(entry.contract));
        contracts.set(`${entry.id}\u0000${underscoreToDot}`, contractFromMapping(file));
      }
    }
    const vectors = (await readText(`vectors/${category}.jsonl`))!.split("\n").filter(Boolean)
      .map((line) => parseJsonLossless(line, { keep: "float-text" }) as Vector)
      .filter((vector) => vector.valid !== null);
    // One result line per vector; JSON.stringify writes kept literals back digit for digit (5.0).
    const text = vectors.map((v) => JSON.stringify({ id: v.id, result: v.output })).join("\n");
    const traces = tracesFromText(text, `BFCL_v4_${category}_result.json`, { format: "bfcl" });
    equal(traces.length, vectors.length);
    let agreed = 0;
    const disagreements: string[] = [];
    vectors.forEach((vector, i) => {
      const contract = contracts.get(`${vector.id}\u0000${vector.underscore_to_dot}`)!;
      const result = evaluateContract(contract, traces[i]);
      const bfcl = result.metrics.bfcl as { valid: boolean; error_type?: string };
      const errorType = bfcl.valid ? null : bfcl.error_type ?? null;
      const passed = result.passed(contract.minScore);
      if (passed === vector.valid && errorType === vector.error_type) agreed++;
      else if (disagreements.length < 10) {
        disagreements.push(
          `${vector.id} ${vector.kind}: BFCL ${vector.valid} ${vector.error_type}, toolscore ` +
            `${passed} ${errorType} ${JSON.stringify(vector.output).slice(0, 200)}`,
        );
      }
    });
    console.log(`BFCL agreement through the bfcl reader: ${category}: ${agreed}/${vectors.length}`);
    equal(disagreements.join("\n"), "");
  });
}
