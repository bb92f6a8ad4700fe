#!/usr/bin/python3
"""Reference values for tests/stats_paired_test.ts, computed with SciPy and statsmodels.

Not run in CI (it needs SciPy and statsmodels): run it by hand and paste its
output into the REFERENCE constant of tests/stats_paired_test.ts (mcnemar, sign_flip,
clustered, planner) and of tests/stats_adjust_test.ts (holm, bh, newcombe, paired_newcombe, task_t).

    apt-get install -y python3-scipy python3-statsmodels
    /usr/bin/python3 scripts/stats_reference.py

Values were made with SciPy 1.10.1 and statsmodels 0.13.5 (Debian bookworm).
"""

import json
import math

import numpy as np
import scipy
import scipy.stats
import statsmodels
import statsmodels.api as sm
from scipy.optimize import brentq
from scipy.stats import norm, permutation_test
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import (confint_proportions_2indep, proportion_confint,
                                          proportion_effectsize)

# McNemar: (b, c) discordant counts; the concordant cells do not matter to the exact test.
MCNEMAR = [(0, 0), (0, 1), (1, 9), (3, 3), (5, 12), (0, 7), (12, 2), (20, 35), (100, 130),
           (250, 300), (1000, 1100), (7, 0)]

# Sign-flip: per-task differences (pass rate of B minus pass rate of A).
SIGN_FLIP = [
    [0.2, 0.4, 0.2, 0.6, 0.2, 0.4],
    [0.2, -0.2, 0.4, 0.0, 0.2, 0.6, -0.4, 0.2],
    [0.0, 0.0, 0.0, 0.0],
    [0.2] * 12 + [0.0] * 8,
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0],
    [0.1, -0.3, 0.25, 0.5, -0.05, 0.3, 0.15, -0.2, 0.45, 0.05, 0.35],
    [1 / 3, -2 / 3, 1 / 3, 1.0, 0.0, 2 / 3, -1 / 3, 1 / 3, 2 / 3, 0.0, 1 / 3, 1 / 3, -1 / 3],
    [0.2, -0.2, 0.2, -0.2, 0.4, -0.4, 0.6, 0.0, 0.2, 0.4, -0.2, 0.2, 0.2, 0.0, 0.4, 0.2],
]

# Clustered intervals: per task [passes, n].
CLUSTERED = [
    [[5, 5], [0, 5], [5, 5], [0, 5], [5, 5], [0, 5], [5, 5], [0, 5], [5, 5], [0, 5]],
    [[3, 5], [2, 5], [4, 5], [3, 5], [2, 5], [3, 5]],
    [[1, 1], [0, 1], [1, 1], [1, 1], [0, 1], [1, 1], [0, 1], [1, 1]],
    [[9, 10], [1, 3], [7, 7], [0, 4], [5, 8]],
    [[2, 2], [3, 4]],
    [[10, 20], [15, 20], [18, 20], [2, 20], [9, 20], [11, 20], [20, 20], [0, 20]],
    [[1, 5], [0, 5], [0, 5], [2, 5], [0, 5], [1, 5], [0, 5]],
    [[4, 5], [5, 5], [3, 5], [5, 5], [4, 5], [2, 5], [5, 5], [1, 5], [4, 5], [3, 5],
     [5, 5], [0, 5]],
]

# Planner: (p1, p2, alpha, power).
PLANNER = [(0.7, 0.8, 0.05, 0.8), (0.5, 0.6, 0.05, 0.8), (0.9, 0.95, 0.05, 0.9),
           (0.2, 0.5, 0.01, 0.8), (0.6, 0.55, 0.1, 0.7), (0.05, 0.01, 0.05, 0.95),
           (0.3, 0.9, 0.05, 0.8)]
DESIGN_EFFECTS = [1.0, 1.7, 1000.0, 1e6]


# Multiple comparisons: families of p-values (ties, ones, zeros, unsorted, one-element).
ADJUST = [
    [0.01, 0.04, 0.03],
    [0.039, 0.041, 7.6e-6],
    [0.05, 0.05, 0.05, 0.05],
    [0.2, 0.001, 0.7, 0.04, 0.012, 0.5],
    [0.0, 1.0, 0.5],
    [0.3],
    [0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01],
    [0.9, 0.8, 0.7, 0.6, 0.5],
    [0.021, 0.0004, 0.33, 0.047, 0.0099, 0.18, 0.6, 0.012, 0.8, 0.052],
    [0.015, 0.015, 0.2, 0.001, 0.049],
    [1e-12, 3e-8, 0.04, 0.9, 0.0125, 0.0126, 0.33],
    [0.0386, 0.0414, 7.6e-6, 0.5, 0.25, 0.125],
]

# Newcombe's hybrid score interval: (x1, n1, x2, n2, alpha).
NEWCOMBE = [(38, 40, 30, 40, 0.05), (30, 40, 20, 40, 0.05), (56, 70, 48, 80, 0.05),
            (9, 10, 3, 10, 0.05), (0, 10, 0, 10, 0.05), (10, 10, 0, 10, 0.05),
            (5, 56, 0, 29, 0.05), (1, 29, 2, 30, 0.10), (27, 30, 9, 20, 0.01),
            (100, 200, 110, 200, 0.05), (4, 5, 5, 5, 0.05), (750, 1000, 700, 1000, 0.05)]

# Newcombe's paired interval: 2x2 tables (a both, b only first, c only second, d neither), alpha.
PAIRED = [(59, 6, 16, 80, 0.05), (1, 1, 7, 12, 0.05), (14, 5, 0, 22, 0.05),
          (28, 10, 2, 0, 0.05), (20, 18, 0, 2, 0.05), (0, 0, 0, 10, 0.05),
          (10, 0, 0, 0, 0.05), (5, 3, 3, 5, 0.10), (60, 12, 2, 26, 0.01)]


# Task-level t intervals: per-task differences, confidence.
TASK_T = [([0.2, 0.4, 0.0, 0.2], 0.95), ([0.1, -0.3, 0.25, 0.5, -0.05, 0.3], 0.95),
          ([1.0, 0.0], 0.95), ([0.2] * 12 + [0.0] * 8, 0.95), ([0.5, 0.25, -0.25], 0.9),
          ([0.3, 0.1, 0.2, 0.6, -0.1, 0.4, 0.0, 0.2, 0.3, 0.1, 0.5], 0.99),
          ([i / 50 - 0.4 for i in range(51)], 0.95), ([0.0, 0.0, 0.0], 0.95)]


def newcombe_paired(a, b, c, d, alpha):
    """Newcombe (1998) paired method 10, from statsmodels' Wilson intervals of the margins."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = proportion_confint(a + b, n, alpha=alpha, method="wilson")
    l2, u2 = proportion_confint(a + c, n, alpha=alpha, method="wilson")
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = 0.0
    if margins > 0:
        num = a * d - b * c
        corrected = num - n / 2 if num > n / 2 else (num if num < 0 else 0)
        phi = corrected / math.sqrt(margins)
    low = p1 - p2 - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = p1 - p2 + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return [max(-1.0, low), min(1.0, high)]


def exact_n(h, alpha, power):
    """The same equation statsmodels solves, solved to the last bit (brentq, xtol 1e-300)."""
    z = norm.isf(alpha / 2)

    def excess(n):
        a = h * math.sqrt(n / 2)
        return norm.cdf(a - z) + norm.cdf(-a - z) - power

    return brentq(excess, 1e-9, 1e12, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=2000)


def main():
    out = {"versions": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__}}
    out["mcnemar"] = [
        {"b": b, "c": c, "p": float(mcnemar([[10, b], [c, 10]], exact=True).pvalue)}
        for b, c in MCNEMAR
    ]
    flips = []
    for d in SIGN_FLIP:
        res = permutation_test((np.array(d),), lambda x, axis: np.mean(x, axis=axis),
                               vectorized=True, permutation_type="samples",
                               alternative="two-sided", n_resamples=np.inf)
        flips.append({"differences": d, "p": float(res.pvalue)})
    out["sign_flip"] = flips
    clustered = []
    for clusters in CLUSTERED:
        y, groups = [], []
        for g, (passes, n) in enumerate(clusters):
            y += [1.0] * passes + [0.0] * (n - passes)
            groups += [g] * n
        y = np.array(y)
        fit = sm.OLS(y, np.ones(len(y))).fit(cov_type="cluster", cov_kwds={"groups": np.array(groups)})
        rate = float(fit.params[0])
        se = float(fit.bse[0])
        low, high = fit.conf_int(alpha=0.05)[0]
        deff = None if rate in (0.0, 1.0) else se ** 2 / (rate * (1 - rate) / len(y))
        clustered.append({"clusters": clusters, "pass_rate": rate, "se": se,
                          "interval": [max(0.0, float(low)), min(1.0, float(high))],
                          "design_effect": deff})
    out["clustered"] = clustered
    planner = []
    for p1, p2, alpha, power in PLANNER:
        h = abs(float(proportion_effectsize(p1, p2)))
        n = float(NormalIndPower().solve_power(effect_size=h, alpha=alpha, power=power, ratio=1,
                                               alternative="two-sided"))
        n_exact = exact_n(h, alpha, power)
        planner.append({"p1": p1, "p2": p2, "alpha": alpha, "power": power,
                        "statsmodels_n": n, "runs": math.ceil(n),
                        "scaled": {str(d): math.ceil(n_exact * d) for d in DESIGN_EFFECTS}})
    out["planner"] = planner
    out["holm"] = [{"p": p, "adjusted": [float(x) for x in multipletests(p, method="holm")[1]]}
                   for p in ADJUST]
    out["bh"] = [{"p": p, "adjusted": [float(x) for x in multipletests(p, method="fdr_bh")[1]]}
                 for p in ADJUST]
    out["newcombe"] = []
    for x1, n1, x2, n2, alpha in NEWCOMBE:
        low, high = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff",
                                               alpha=alpha)
        out["newcombe"].append({"x1": x1, "n1": n1, "x2": x2, "n2": n2,
                                "z": float(norm.isf(alpha / 2)),
                                "interval": [float(low), float(high)]})
    task_t = []
    for d, confidence in TASK_T:
        d = np.array(d)
        scale = float(d.std(ddof=1) / math.sqrt(len(d)))
        if scale == 0:
            low = high = float(d.mean())
        else:
            low, high = scipy.stats.t.interval(confidence, len(d) - 1, loc=d.mean(), scale=scale)
        task_t.append({"differences": d.tolist(), "confidence": confidence,
                       "interval": [float(low), float(high)]})
    out["task_t"] = task_t
    out["paired_newcombe"] = [{"table": [a, b, c, d], "z": float(norm.isf(alpha / 2)),
                               "interval": newcombe_paired(a, b, c, d, alpha)}
                              for a, b, c, d, alpha in PAIRED]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
