#!/usr/bin/env python3
"""Generate BFCL agreement vectors: BFCL's own checker's verdicts on generated outputs.

Usage:
    python3 scripts/bfcl_agreement.py GORILLA_CHECKOUT [--out testdata/bfcl] [--sample N] [--seed S]

GORILLA_CHECKOUT is a checkout of ShishirPatil/gorilla (Apache-2.0), e.g. made with
`git --git-dir=<clone> worktree add /tmp/gorilla <commit>` or `git archive`. Nothing of it is
copied into this repository but the question and possible-answer lines the vectors need
(testdata/bfcl/data/, with attribution in testdata/bfcl/SOURCES.md).

For every sampled entry of the single-turn AST categories (simple_python, simple_java,
simple_javascript, multiple, parallel, parallel_multiple, live_simple, live_multiple,
live_parallel, live_parallel_multiple) and the relevance categories (irrelevance,
live_irrelevance, live_relevance) the script builds several decoded outputs (the first
acceptable values; one wrong value; an omittable parameter dropped; an int for a float and a
float for an int; strings standardization does and does not equate; an extra parameter; a
wrong function name; reordered, missing and extra parallel calls; a wrong type; Java/JS
values that are not source text; no call, `[{}]`, text and one call for relevance), runs
BFCL's checker on each exactly as `eval_runner.py` does after decoding
(`is_function_calling_format_output`, then `ast_checker`; for relevance `is_empty_output`),
and writes one vector per output to testdata/bfcl/vectors/<category>.jsonl:

    {"id", "kind", "model", "underscore_to_dot", "output", "valid", "error_type"}

Floats are written as Python writes them (`5.0`), so int versus float survives. An output
on which BFCL's checker raises is written with "valid": null and "error_type":
"raises:<Exception>" (BFCL's run would stop there). Out of CI: run by hand when the gorilla
commit changes, then run tests/bfcl_agreement_test.ts.

BFCL's ast_checker imports its model-config module, which pulls packages only on PyPI; a
stub with a MODEL_CONFIG_MAPPING (two settings: underscore_to_dot off and on) is put into
sys.modules first, and `filelock` (imported by bfcl_eval.utils) is stubbed too.
"""

import argparse
import copy
import itertools
import json
import random
import subprocess
import sys
import types
from pathlib import Path

AST_CATEGORIES = [
    "simple_python", "simple_java", "simple_javascript", "multiple", "parallel",
    "parallel_multiple", "live_simple", "live_multiple", "live_parallel",
    "live_parallel_multiple",
]
RELEVANCE_CATEGORIES = ["irrelevance", "live_irrelevance", "live_relevance"]
# Entries every sample keeps: the known gold defects of data/bfcl-waivers.json and parallel_178.
ALWAYS = {
    "live_simple_106-63-0", "live_simple_112-68-0", "live_multiple_862-181-3",
    "live_multiple_964-207-0", "parallel_multiple_12", "parallel_multiple_26",
    "live_multiple_507-149-4", "parallel_178",
}
MODELS = {"toolscore-dot": False, "toolscore-underscore": True}


class _Config:
    def __init__(self, underscore_to_dot):
        self.underscore_to_dot = underscore_to_dot


def load_bfcl(checkout: Path):
    root = checkout / "berkeley-function-call-leaderboard"
    sys.path.insert(0, str(root))
    model_config = types.ModuleType("bfcl_eval.constants.model_config")
    model_config.MODEL_CONFIG_MAPPING = {name: _Config(flag) for name, flag in MODELS.items()}
    sys.modules["bfcl_eval.constants.model_config"] = model_config
    filelock = types.ModuleType("filelock")

    class FileLock:  # noqa: D401 - a stub
        def __init__(self, *args, **kwargs):
            pass

    filelock.FileLock = FileLock
    sys.modules["filelock"] = filelock
    from bfcl_eval.constants.enums import Language
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    from bfcl_eval.utils import is_empty_output, is_function_calling_format_output, is_java, is_js

    return types.SimpleNamespace(
        root=root, Language=Language, ast_checker=ast_checker, is_empty_output=is_empty_output,
        is_format=is_function_calling_format_output, is_java=is_java, is_js=is_js,
    )


def read_lines(path: Path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def first_value(values):
    for value in values:
        if value != "":
            return True, value
    return False, None


# Source text of a value, as a Java or JavaScript model writes it (Java/JS values are strings).
def java_text(value, doc):
    kind = doc.get("type")
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "long" and isinstance(value, int):
        return f"{value}L"
    if kind == "float" and isinstance(value, (int, float)):
        return f"{value}f"
    if kind in ("Array", "ArrayList") and isinstance(value, list):
        inner = (doc.get("items") or {}).get("type")
        parts = [f'"{v}"' if inner in ("String", "char") else java_text(v, {"type": inner}) for v in value]
        if kind == "Array":
            return "new " + ("String" if inner == "String" else "int") + "[]{" + ", ".join(parts) + "}"
        return "new ArrayList<>(Arrays.asList(" + ", ".join(parts) + "))"
    if kind == "HashMap" and isinstance(value, dict):
        puts = []
        for key, allowed in value.items():
            ok, item = first_value(allowed if isinstance(allowed, list) else [allowed])
            if ok:
                puts.append(f'put("{key}", ' + (f'"{item}"' if isinstance(item, str) else json.dumps(item)) + ");")
        return "new HashMap<String, String>() {{ " + " ".join(puts) + " }}"
    return value if isinstance(value, str) else json.dumps(value)


def js_text(value, doc):
    kind = doc.get("type")
    if kind == "Boolean" or isinstance(value, bool):
        return "true" if value else "false"
    if kind == "array" and isinstance(value, list):
        return "[" + ", ".join(f'"{v}"' if isinstance(v, str) else json.dumps(v) for v in value) + "]"
    if kind == "dict" and isinstance(value, dict):
        parts = []
        for key, allowed in value.items():
            ok, item = first_value(allowed if isinstance(allowed, list) else [allowed])
            if ok:
                parts.append(f'"{key}": ' + (f'"{item}"' if isinstance(item, str) else json.dumps(item)))
        return "{" + ", ".join(parts) + "}"
    return value if isinstance(value, str) else json.dumps(value)


def wrong_of(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 12345
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + " zzwrong"
    if isinstance(value, list):
        return value + ["zzwrong"]
    if isinstance(value, dict):
        return {"zzwrong": 1}
    return "zzwrong"


def outputs_for_ast(entry, answer, language, underscore):
    """The decoded outputs to check: (kind, output) pairs."""
    functions = {f["name"]: f for f in entry["function"]}
    truth = answer["ground_truth"]

    def doc_of(name, index):
        if "parallel" not in entry["id"] and "multiple" not in entry["id"]:
            return entry["function"][0]
        return functions.get(name)

    def name_of(name):
        return name.replace(".", "_") if underscore else name

    def encode(value, doc):
        if language == "java":
            return java_text(value, doc)
        if language == "javascript":
            return js_text(value, doc)
        return value

    base = []
    for index, item in enumerate(truth):
        name = next(iter(item))
        doc = doc_of(name, index)
        props = (doc or {}).get("parameters", {}).get("properties", {})
        args = {}
        for param, values in item[name].items():
            ok, value = first_value(values)
            if ok:
                args[param] = encode(value, props.get(param, {}))
        base.append({name_of(name): args})
    out = [("first", base)]

    def variant(kind, change):
        calls = copy.deepcopy(base)
        if change(calls) is not False:
            out.append((kind, calls))

    first_call = lambda calls: calls[0][next(iter(calls[0]))]  # noqa: E731
    name0 = next(iter(truth[0]))
    doc0 = doc_of(name0, 0) or {}
    props0 = doc0.get("parameters", {}).get("properties", {})
    answer0 = truth[0][name0]

    def wrong_value(calls):
        args = first_call(calls)
        for param in answer0:
            if param in args:
                raw = first_value(answer0[param])[1]
                args[param] = encode(wrong_of(raw), props0.get(param, {}))
                return None
        return False

    def drop_optional(calls):
        args = first_call(calls)
        for param, values in answer0.items():
            if "" in values and param in args:
                del args[param]
                return None
        return False

    def int_for_float(calls):
        args = first_call(calls)
        for param in args:
            if props0.get(param, {}).get("type") == "float" and language == "python":
                value = args[param]
                if isinstance(value, float):
                    args[param] = int(value)
                    return None
        return False

    def float_for_int(calls):
        args = first_call(calls)
        for param in args:
            if props0.get(param, {}).get("type") == "integer" and language == "python":
                if isinstance(args[param], int) and not isinstance(args[param], bool):
                    args[param] = float(args[param])
                    return None
        return False

    def string_param(calls):
        args = first_call(calls)
        for param in args:
            if isinstance(args[param], str) and props0.get(param, {}).get("type") in ("string", "String", "any"):
                return param
        return None

    def std_equal(calls):
        param = string_param(calls)
        if param is None:
            return False
        args = first_call(calls)
        args[param] = "-" + args[param].upper().replace(" ", "_") + " ."

    def std_unequal(calls):
        param = string_param(calls)
        if param is None:
            return False
        args = first_call(calls)
        args[param] = args[param] + "\t"

    def extra_param(calls):
        first_call(calls)["toolscore_extra"] = encode(1, {"type": "integer"})

    def wrong_function(calls):
        name = next(iter(calls[0]))
        calls[0] = {name.swapcase(): calls[0][name]}

    def wrong_type(calls):
        args = first_call(calls)
        for param, value in args.items():
            if language != "python":
                args[param] = 7  # not source text
                return None
            if isinstance(value, str):
                args[param] = 7
                return None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                args[param] = str(value)
                return None
        return False

    def null_value(calls):
        args = first_call(calls)
        for param in args:
            args[param] = None
            return None
        return False

    def drop_param(calls):
        args = first_call(calls)
        for param, values in answer0.items():
            if "" not in values and param in args:
                del args[param]
                return None
        return False

    def second_value(calls):
        args = first_call(calls)
        for param, values in answer0.items():
            others = [v for v in values if v != ""]
            if len(others) > 1 and param in args:
                args[param] = encode(others[1], props0.get(param, {}))
                return None
        return False

    def empty_string(calls):
        args = first_call(calls)
        for param, values in answer0.items():
            if "" in values:
                args[param] = ""
                return None
        return False

    def list_int_for_float(calls):
        args = first_call(calls)
        for param, value in args.items():
            if isinstance(value, list) and value and isinstance(value[0], float) and value[0].is_integer():
                value[0] = int(value[0])
                return None
        return False

    variant("wrong_value", wrong_value)
    variant("drop_param", drop_param)
    variant("second_value", second_value)
    variant("empty_string", empty_string)
    variant("list_int_for_float", list_int_for_float)
    variant("drop_optional", drop_optional)
    variant("int_for_float", int_for_float)
    variant("float_for_int", float_for_int)
    variant("standardization_equal", std_equal)
    variant("standardization_unequal", std_unequal)
    variant("extra_param", extra_param)
    variant("wrong_function", wrong_function)
    variant("wrong_type", wrong_type)
    variant("null_value", null_value)
    out.append(("no_call", []))
    if entry["id"] == "parallel_178":
        # BFCL's greedy pairing fails some orders of correct calls (issue 43).
        for order in itertools.permutations(range(len(base))):
            out.append(("order_" + "".join(map(str, order)), [copy.deepcopy(base[i]) for i in order]))
    if len(base) > 1:
        out.append(("reversed", list(reversed(copy.deepcopy(base)))))
        out.append(("rotated", copy.deepcopy(base[1:] + base[:1])))
        out.append(("missing_call", copy.deepcopy(base[:-1])))
    out.append(("extra_call", copy.deepcopy(base + base[:1])))
    return out


def outputs_for_relevance(entry):
    function = entry["function"][0] if entry["function"] else {"name": "f"}
    props = function.get("parameters", {}).get("properties", {})
    args = {param: "x" for param in list(props)[:1]}
    return [
        ("no_call", []),
        ("empty_call", [{}]),
        ("text", "I cannot help with that."),
        ("one_call", [{function["name"]: args}]),
        ("two_calls", [{function["name"]: args}, {function["name"]: {}}]),
    ]


def verdict_ast(bfcl, entry, answer, output, category, model):
    language = (
        bfcl.Language.JAVA if bfcl.is_java(category)
        else bfcl.Language.JAVASCRIPT if bfcl.is_js(category) else bfcl.Language.PYTHON
    )
    if not bfcl.is_format(output):
        return False, "ast_decoder:decoder_wrong_output_format"
    try:
        result = bfcl.ast_checker(
            copy.deepcopy(entry["function"]), copy.deepcopy(output),
            copy.deepcopy(answer["ground_truth"]), language, category, model,
        )
    except Exception as error:  # BFCL's run would stop here
        return None, f"raises:{type(error).__name__}"
    return result["valid"], None if result["valid"] else result["error_type"]


def verdict_relevance(bfcl, output, category):
    contain_call = not bfcl.is_empty_output(output)
    if "irrelevance" in category:
        return (True, None) if not contain_call else (False, "irrelevance_error:decoder_success")
    return (True, None) if contain_call else (False, "relevance_error:decoder_failed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("gorilla", type=Path)
    parser.add_argument("--out", type=Path, default=Path("testdata/bfcl"))
    parser.add_argument("--sample", type=int, default=120, help="entries per large category")
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    bfcl = load_bfcl(args.gorilla)
    data = bfcl.root / "bfcl_eval" / "data"
    try:
        commit = subprocess.run(
            ["git", "-C", str(args.gorilla), "rev-parse", "HEAD"], capture_output=True, text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = (args.gorilla / "COMMIT").read_text().strip() if (args.gorilla / "COMMIT").exists() else "unknown"
    rng = random.Random(args.seed)
    (args.out / "vectors").mkdir(parents=True, exist_ok=True)
    (args.out / "data" / "possible_answer").mkdir(parents=True, exist_ok=True)
    summary = {}
    for category in AST_CATEGORIES + RELEVANCE_CATEGORIES:
        name = f"BFCL_v4_{category}.json"
        entries = read_lines(data / name)
        answers = read_lines(data / "possible_answer" / name) if category in AST_CATEGORIES else None
        pairs = list(zip(entries, answers)) if answers is not None else [(e, None) for e in entries]
        for entry, answer in pairs:
            if answer is not None and answer["id"] != entry["id"]:
                raise SystemExit(f"{name}: question {entry['id']} beside answer {answer['id']}")
        if len(pairs) > args.sample:
            keep = [p for p in pairs if p[0]["id"] in ALWAYS]
            rest = [p for p in pairs if p[0]["id"] not in ALWAYS]
            chosen = set(id(p) for p in rng.sample(rest, args.sample - len(keep)))
            pairs = [p for p in pairs if p[0]["id"] in ALWAYS or id(p) in chosen]
        vectors = []
        for entry, answer in pairs:
            for model, underscore in MODELS.items():
                if underscore and not any("." in f["name"] for f in entry["function"]):
                    continue
                if answer is None:
                    for kind, output in outputs_for_relevance(entry):
                        valid, error_type = verdict_relevance(bfcl, output, category)
                        vectors.append({"id": entry["id"], "kind": kind, "model": model,
                                        "underscore_to_dot": underscore, "output": output,
                                        "valid": valid, "error_type": error_type})
                    continue
                language = "java" if bfcl.is_java(category) else "javascript" if bfcl.is_js(category) else "python"
                for kind, output in outputs_for_ast(entry, answer, language, underscore):
                    valid, error_type = verdict_ast(bfcl, entry, answer, output, category, model)
                    vectors.append({"id": entry["id"], "kind": kind, "model": model,
                                    "underscore_to_dot": underscore, "output": output,
                                    "valid": valid, "error_type": error_type})
        with open(args.out / "vectors" / f"{category}.jsonl", "w", encoding="utf-8") as f:
            for vector in vectors:
                f.write(json.dumps(vector, ensure_ascii=False) + "\n")
        with open(args.out / "data" / name, "w", encoding="utf-8") as f:
            for entry, _ in pairs:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        if answers is not None:
            # The possible-answer lines as BFCL wrote them (their float literals kept).
            wanted = {entry["id"] for entry, _ in pairs}
            lines = [line for line in (data / "possible_answer" / name).read_text(encoding="utf-8").splitlines()
                     if line.strip() and json.loads(line)["id"] in wanted]
            (args.out / "data" / "possible_answer" / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        summary[category] = {
            "entries": len(pairs), "of": len(entries), "vectors": len(vectors),
            "valid": sum(1 for v in vectors if v["valid"] is True),
            "raises": sum(1 for v in vectors if v["valid"] is None),
        }
        print(category, summary[category])
    (args.out / "vectors" / "manifest.json").write_text(json.dumps({
        "gorilla_commit": commit, "seed": args.seed, "sample": args.sample,
        "models": MODELS, "categories": summary,
    }, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
