"""Time the Python Toolscore's evaluate() on the traces scripts/bench_vs_python.ts wrote.

Usage: python3 scripts/bench_vs_python.py CHECKOUT TRACES.json ROUNDS

CHECKOUT is a checkout of the public yotambraun/Toolscore repository (the driver names the
commit); its dependencies (click, rich, jinja2, Levenshtein, PyYAML) come from the machine's
package index. Prints one line of JSON: {"rates": [traces per second of each round], "score": mean}.
"""

import json
import os
import sys
import tempfile
import time

checkout, traces_path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])

# The package reads its own version from installed metadata; a checkout has none, so give it some.
shim = tempfile.mkdtemp()
os.makedirs(os.path.join(shim, "tool_scorer-0.0.0.dist-info"))
with open(os.path.join(shim, "tool_scorer-0.0.0.dist-info", "METADATA"), "w") as f:
    f.write("Metadata-Version: 2.1\nName: tool-scorer\nVersion: 0.0.0\n")
sys.path[:0] = [shim, checkout]

from toolscore import evaluate  # noqa: E402

with open(traces_path) as f:
    data = json.load(f)
gold, docs = data["gold"], data["traces"]

for doc in docs[:200]:  # warm up, as the Deno side does
    evaluate(gold, doc)
rates = []
total = 0.0
for _ in range(rounds):
    begin = time.perf_counter()
    total = 0.0
    for doc in docs:
        total += evaluate(gold, doc).score
    rates.append(len(docs) / (time.perf_counter() - begin))
print(json.dumps({"rates": rates, "score": total / len(docs)}))
