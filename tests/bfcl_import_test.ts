/**
 * `contractsFromBfcl()`: the contract of each category family, and the
 * errors on entries it cannot import.
 *
 * @module
 */

import { deepEqual, equal, throws } from "node:assert/strict";
import { bfclCategory, contractsFromBfcl } from "../lib/benchmarks/bfcl_import.ts";

const doc = (name: string, properties: Record<string, unknown>, required: string[]) => ({
  name,
  description: "",
  parameters: { type: "dict", properties, required },
});

Deno.test("bfclCategory() strips the trailing number of v3 and v4 ids", () => {
  equal(bfclCategory("simple_0"), "simple");
  equal(bfclCategory("live_irrelevance_12-3-4"), "live_irrelevance");
  equal(bfclCategory("parallel_multiple_12"), "parallel_multiple");
  equal(bfclCategory("nonumber"), undefined);
});

Deno.test("contractsFromBfcl() writes relevance contracts with no required call", () => {
  const questions = [
    { id: "irrelevance_0", function: [doc("f", {}, [])] },
    { id: "live_relevance_0-0-0", function: [doc("f", {}, [])] },
  ].map((q) => JSON.stringify(q)).join("\n");
  const [irrelevance, relevance] = contractsFromBfcl(questions);
  deepEqual(irrelevance!.contract, {
    contract_version: 2,
    source: {
      benchmark: "bfcl",
      id: "irrelevance_0",
      category: "irrelevance",
      gorilla_commit: null,
    },
    pass: "exact",
    matching: "bfcl-greedy",
    required: [],
  });
  equal(relevance!.contract.pass, "any-call");
});

Deno.test("contractsFromBfcl() keeps the doc's types, required list and language on each parameter", () => {
  const questions = JSON.stringify({
    id: "simple_java_0",
    function: [doc("Geo.make", {
      controller: { type: "any" },
      ids: { type: "ArrayList", items: { type: "long" } },
      mode: { type: "String" },
    }, ["controller", "mode"])],
  });
  const answers = JSON.stringify({
    id: "simple_java_0",
    ground_truth: [{ "Geo.make": { controller: ["ctl"], ids: [[1, 2], ""], extra: [""] } }],
  });
  const [entry] = contractsFromBfcl(questions, answers, { gorillaCommit: "abc1234" });
  deepEqual(entry!.contract.required, [{
    tool: "Geo.make",
    args: {
      controller: {
        $one_of: ["ctl"],
        $normalize: "bfcl",
        $doc: { type: "any", required: true },
        $language: "java",
      },
      ids: {
        $one_of: [[1, 2], ""],
        $normalize: "bfcl",
        $doc: { type: "ArrayList", items: "long" },
        $language: "java",
      },
      // In the answer, not in the doc: sending it is unexpected, leaving it out passes ("").
      extra: { $one_of: [""], $normalize: "bfcl", $language: "java" },
      // Required by the doc, absent from the answer: sending it is unexpected, omitting it fails.
      mode: {
        $one_of: [],
        $normalize: "bfcl",
        $doc: { type: "String", required: true },
        $unexpected: true,
        $language: "java",
      },
    },
  }]);
  equal((entry!.contract.source as { gorilla_commit: string }).gorilla_commit, "abc1234");
});

Deno.test("contractsFromBfcl() finds parallel and multiple docs by the answer's name, simple ones first", () => {
  const questions = JSON.stringify({
    id: "multiple_0",
    function: [
      doc("a.b", { x: { type: "integer" } }, ["x"]),
      doc("c", { y: { type: "float" } }, []),
    ],
  });
  const answers = '{"id": "multiple_0", "ground_truth": [{"c": {"y": [2.0, 3]}}]}';
  const [entry] = contractsFromBfcl(questions, answers);
  const call = (entry!.contract.required as { tool: string; args: Record<string, unknown> }[])[0]!;
  equal(call.tool, "c");
  equal(
    JSON.stringify(call.args.y),
    '{"$one_of":[2.0,3],"$normalize":"bfcl","$doc":{"type":"float"},"$floats":["0"]}',
  );
});

Deno.test("contractsFromBfcl() names the file and line of what it cannot import", () => {
  const q = (id: string) => JSON.stringify({ id, function: [doc("f", {}, [])] });
  throws(() =>
    contractsFromBfcl(`${q("irrelevance_0")}\n${q("irrelevance_0")}`, "", {
      questionsName: "q.json",
    }), { message: "q.json:2: id irrelevance_0 appears twice" });
  throws(
    () =>
      contractsFromBfcl(
        q("simple_python_0"),
        '{"id": "simple_python_0", "ground_truth": {"f": {}}}',
      ),
    { message: "answers:1: ground_truth must be a list of {function_name: {param: [values]}}" },
  );
  throws(
    () =>
      contractsFromBfcl(
        q("simple_python_0"),
        '{"id": "simple_python_0", "ground_truth": [{"f": {"x": 1}}]}',
      ),
    { message: 'answers:1: the acceptable values of "x" must be a list' },
  );
  throws(
    () => contractsFromBfcl(q("simple_python_0"), '{"id": "simple_python_1", "ground_truth": []}'),
    {
      message: "questions:1: no possible answer with id simple_python_0 in answers",
    },
  );
  throws(
    () => contractsFromBfcl(q("memory_kv_0")),
    /questions:1: category memory_kv is out of scope/,
  );
  throws(
    () => contractsFromBfcl(q("exec_simple_0")),
    /questions:1: category exec_simple is out of scope/,
  );
  throws(
    () => contractsFromBfcl(`{"id": "${"x".repeat(201)}_0"}`),
    /questions:1: id is 203 characters long/,
  );
});
