#!/usr/bin/env bash
# Issue 13's ONNX Runtime target, as a user deploying Tessera's exports would check it: each model is
# optimised by each strategy with --cost measured:ort and written with --out; `tessera-cli verify`
# checks the file against the original; both files are then run in ONNX Runtime (all graph
# optimisations, one thread): their outputs on the same dummy input compared, and their runs timed
# alternately (ABBA) with a 95 % bootstrap interval of the speedup. One JSON line per run goes to
# OUT_DIR/results.jsonl, a table and the means to stdout.
#
# The files are timed as they are. A light model (weights as ConstantOfShape splats) is then not
# what it stands for: ORT folds equal constants and merges the ops they feed (nasrnn's 80 MatMuls
# run as 9), and a rewrite that stops the merging looks many times slower than it is with real
# weights. For light models time through the executor instead, which gives splat weights seeded
# random values by name: `tessera-cli bench --models M --cost measured:ort --e2e`.
#
#   plugins/ort/ort_target.sh OUT_DIR MODEL.onnx...
#   env: STRATEGIES (eqsat,mcts), ROUNDS (40), TIME_LIMIT (60), COST (measured:ort),
#        TESSERA_ORT_CLOCK=cpu to time by CPU time on a loaded machine, CLI (build/bin/tessera-cli)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${1:?usage: ort_target.sh OUT_DIR MODEL.onnx...}
shift
cli=${CLI:-$root/build/bin/tessera-cli}
prefix=${TESSERA_ORT_PREFIX:-$root/third_party/ort}
strategies=${STRATEGIES:-eqsat,mcts}
mkdir -p "$out"
results="$out/results.jsonl"
: > "$results"

for model in "$@"; do
  name=$(basename "$model" .onnx)
  for strategy in ${strategies//,/ }; do
    opt="$out/$name.$strategy.onnx"
    "$cli" optimize "$model" --strategy "$strategy" --cost "${COST:-measured:ort}" --time-limit "${TIME_LIMIT:-60}" \
      --out "$opt" --json "$out/$name.$strategy.json" > "$out/$name.$strategy.log" 2>&1 || { echo "$name $strategy: optimize failed, see $out/$name.$strategy.log" >&2; continue; }
    verified=true
    "$cli" verify "$model" "$opt" > "$out/$name.$strategy.verify.log" 2>&1 || verified=false
    if ! ORT_CLOCK=${TESSERA_ORT_CLOCK:-wall} node "$root/plugins/ort/ort_worker.js" "$prefix" compare "$model" "$opt" "${ROUNDS:-40}" \
        > "$out/$name.$strategy.ort.json" 2> "$out/$name.$strategy.ort.log"; then
      echo "$name $strategy: ONNX Runtime failed: $(cat "$out/$name.$strategy.ort.log")" >&2
      continue
    fi
    node -e "
      const r = JSON.parse(require('fs').readFileSync('$out/$name.$strategy.ort.json', 'utf8'));
      delete r.ms;
      console.log(JSON.stringify({ model: '$name', strategy: '$strategy', verified: $verified, ...r }));" >> "$results"
  done
done

node -e "
  const rows = require('fs').readFileSync('$results', 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);
  const f = (x) => (x >= 0 ? '+' : '') + x.toFixed(1);
  console.log('model            strategy  ORT ms orig    opt   speedup %  95 % interval    max|diff|  verify');
  for (const r of rows)
    console.log(r.model.padEnd(16), r.strategy.padEnd(8), r.original_ms.toFixed(3).padStart(9), r.optimized_ms.toFixed(3).padStart(8),
      f(r.speedup_pct).padStart(8), ('[' + f(r.speedup_ci_pct[0]) + ', ' + f(r.speedup_ci_pct[1]) + ']').padStart(17),
      r.max_abs_diff.toExponential(1).padStart(10), r.verified ? '  ok' : '  FAILED');
  for (const s of [...new Set(rows.map((r) => r.strategy))]) {
    const mine = rows.filter((r) => r.strategy === s);
    const mean = mine.reduce((a, r) => a + r.speedup_pct, 0) / mine.length;
    const worst = Math.min(...mine.map((r) => r.speedup_pct));
    console.log(s + ': mean ' + f(mean) + ' % over ' + mine.length + ' models, worst ' + f(worst) + ' %');
  }
  console.log('ONNX Runtime ' + rows[0].version + ', ' + rows[0].threads + ' thread, ' + rows[0].clock + ' clock, ' + rows[0].rounds + ' interleaved rounds');"
