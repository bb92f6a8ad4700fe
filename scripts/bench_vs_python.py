"""Time the Python Toolscore's evaluate() on the traces scripts/bench_vs_python.ts wrote.

Usage: python3 scripts/bench_vs_python.py CHECKOUT TRACES.json

CHECKOUT is a checkout of the public yotambraun/Toolscore repository (the driver names the
commit); its dependencies (click, rich, jinja2, Levenshtein, PyYAML) come from the machine's
package index. The process stays up for the whole comparison so that the driver can alternate
short slices between the two sides: each line "START END" on stdin evaluates traces
[START, END) and answers one line of JSON on stdout:
{"wall": seconds, "cpu": seconds of this process, "score": sum of the scores}.
"""

import json
import os
import sys
import tempfile
import time

checkout, traces_path = sys.argv[1], sys.argv[2]

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
print(json.dumps({"ready": len(docs)}), flush=True)

for line in sys.stdin:
    start, end = (int(x) for x in line.split())
    cpu = time.process_time()
    begin = time.perf_counter()
    total = 0.0
    for doc in docs[start:end]:
        total += evaluate(gold, doc).score
    wall = time.perf_counter() - begin
    print(
        json.dumps({"wall": wall, "cpu": time.process_time() - cpu, "score": total}),
        flush=True,
    )
