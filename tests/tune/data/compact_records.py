#!/usr/bin/env python3
"""Compacts `tessera-cli tune --records` JSON lines into the cost-model test's data: per record the
sampling decisions of its trace (the design space's instructions are the same for every record),
the outcome and the median latency.

  tests/tune/data/compact_records.py RECORDS.jsonl > tests/tune/data/NAME.jsonl
"""
import json
import sys

for line in open(sys.argv[1]):
    record = json.loads(line)
    decisions = [i["decision"] for i in record["trace"]["instructions"] if "decision" in i]
    print(json.dumps({"workload": record["workload"], "decisions": decisions, "status": record["status"],
                      "latency_ms": record["latency_ms"]}, separators=(",", ":")))
