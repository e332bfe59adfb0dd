#!/usr/bin/env python3
"""Evolutionary against random search in `tessera-cli tune` (issue #15's targets).

For each workload and seed, runs both searches for the same number of trials, pinned to the given
CPUs, each with a fresh kernel cache (TMPDIR) so that neither reuses the other's compiles, and
reports per seed: each search's best GFLOP/s, oneDNN's, the wall time, and the trial at which
evolutionary search first matched random search's final best. Medians over the seeds at the end.

  tests/bench/tune_search.py --cli build/bin/tessera-cli --out /tmp/tune-bench \
      --workloads matmul:512x512x512 conv2d:1x64x56x56,64x64x3x3,s1,p1 --seeds 1 2 3 --trials 200
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_one(args, workload, search, seed):
    slug = workload.replace(":", "_").replace(",", "_")
    stem = os.path.join(args.out, f"{slug}.{search}.seed{seed}")
    report = stem + ".json"
    if os.path.exists(report) and not args.rerun:
        with open(report) as f:
            return json.load(f)
    with tempfile.TemporaryDirectory(prefix="tune-bench-") as cache:
        env = dict(os.environ, TMPDIR=cache)
        command = ["taskset", "-c", args.cpus, args.cli, "tune", workload, "--trials", str(args.trials), "--search", search,
                   "--seed", str(seed), "--threads", str(args.threads), "--json", report, "--records", stem + ".jsonl",
                   "--db", ":memory:"]  # the benchmark's kernels stay out of the default tuning database
        if search == "evolutionary" and args.population:
            command += ["--population", str(args.population)]
        if args.codegen:
            command += ["--codegen", args.codegen]
        if args.batch:
            command += ["--batch", str(args.batch)]
        start = time.monotonic()
        with open(stem + ".log", "w") as log:
            subprocess.run(command, env=env, stdout=log, stderr=subprocess.STDOUT, check=True)
        wall = time.monotonic() - start
    with open(report) as f:
        result = json.load(f)
    result["wall_seconds"] = wall
    result["best_gflops_by_trial"] = best_by_trial(result, stem + ".jsonl")
    with open(report, "w") as f:
        json.dump(result, f, indent=1)
    return result


def best_by_trial(result, records):
    """The best GFLOP/s after each trial: from the report, or from the records of a CLI that predates it."""
    if "best_gflops_by_trial" in result:
        return result["best_gflops_by_trial"]
    with open(records) as f:
        rows = sorted((json.loads(line) for line in f), key=lambda r: r["trial"])
    curve, best = [], 0.0
    for r in rows:
        best = max(best, r["gflops"])
        curve.append(best)
    return curve


def median_spearman(report):
    """The median over the rounds of the cost model's rank correlation (None before a CLI that reports it)."""
    values = [r["spearman"] for r in report.get("search_rounds", []) if r.get("spearman") is not None]
    return statistics.median(values) if values else None


def first_trial_reaching(curve, target):
    for trial, best in enumerate(curve, start=1):
        if best >= target:
            return trial
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/bin/tessera-cli")
    parser.add_argument("--searches", nargs="*", default=["random", "evolutionary"], help="run these; the summary needs both searches' reports")
    parser.add_argument("--out", required=True)
    parser.add_argument("--workloads", nargs="+", default=["matmul:512x512x512", "conv2d:1x64x56x56,64x64x3x3,s1,p1"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cpus", default="0,1", help="taskset CPU list")
    parser.add_argument("--rerun", action="store_true", help="run again even where a report exists")
    parser.add_argument("--population", type=int, help="the evolutionary search's population (tune --population)")
    parser.add_argument("--batch", type=int, help="candidates measured per round (tune --batch; default: the CLI's)")
    parser.add_argument("--codegen", choices=["llvm", "c"], help="the CPU kernels' code generation (tune --codegen; default: the CLI's)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    for workload in args.workloads:
        for seed in args.seeds:
            for search in args.searches:
                run_one(args, workload, search, seed)
    args.rerun = False  # the summary reads the reports
    summary = []
    for workload in args.workloads:
        rows = []
        for seed in args.seeds:
            random = run_one(args, workload, "random", seed)
            evolutionary = run_one(args, workload, "evolutionary", seed)
            target = random["best_gflops"]
            row = {
                "seed": seed,
                "random_best_gflops": random["best_gflops"],
                "random_reached_own_best_at": first_trial_reaching(random["best_gflops_by_trial"], target),
                "evolutionary_best_gflops": evolutionary["best_gflops"],
                "evolutionary_reached_random_best_at": first_trial_reaching(evolutionary["best_gflops_by_trial"], target),
                "baseline_gflops": evolutionary.get("baseline_gflops") or random.get("baseline_gflops"),
                "random_wall_seconds": random.get("wall_seconds", random["tune_seconds"]),
                "evolutionary_wall_seconds": evolutionary.get("wall_seconds", evolutionary["tune_seconds"]),
                # Where the evolutionary run's time went, and how well its model ranked each round.
                "evolutionary_time_breakdown": evolutionary.get("time_breakdown"),
                "evolutionary_failed_trials": evolutionary.get("failed_trials"),
                "evolutionary_median_round_spearman": median_spearman(evolutionary),
            }
            rows.append(row)
            print(f"{workload} seed {seed}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                                          for k, v in row.items() if k not in ("seed", "evolutionary_time_breakdown")), flush=True)
            if row["evolutionary_time_breakdown"]:
                print("  evolutionary seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in row["evolutionary_time_breakdown"].items()), flush=True)

        def median(key):
            values = [r[key] for r in rows if r[key] is not None]
            return statistics.median(values) if values else None

        reached = [r["evolutionary_reached_random_best_at"] for r in rows]
        baseline = median("baseline_gflops")
        line = {
            "workload": workload,
            "trials": args.trials,
            "seeds": args.seeds,
            "rows": rows,
            "median_random_best_gflops": median("random_best_gflops"),
            "median_evolutionary_best_gflops": median("evolutionary_best_gflops"),
            "median_baseline_gflops": baseline,
            "median_evolutionary_pct_of_onednn": 100 * median("evolutionary_best_gflops") / baseline if baseline else None,
            "median_random_wall_seconds": median("random_wall_seconds"),
            "median_evolutionary_wall_seconds": median("evolutionary_wall_seconds"),
            "evolutionary_reached_random_best_at": reached,
            "half_the_trials_on_every_seed": all(t is not None and t <= args.trials // 2 for t in reached),
        }
        summary.append(line)
        print(json.dumps({k: v for k, v in line.items() if k != "rows"}), flush=True)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
