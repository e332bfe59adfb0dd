#!/bin/sh
# Writes synth-real.rules: rules synthesised from each model of the real suite (samples/real/suite.json)
# at its documented shapes, by `tessera-cli rules synthesize --from-model` (TASO's generator with the
# models' own trees of up to 4 ops as left-hand sides), one run per model, concatenated with rules
# that two runs both found kept once. Every rule was verified by the rule checker in its run.
# Usage: resources/rules/make_synth_real_rules.sh [TESSERA_CLI] [WORK_DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=${1:-$root/build/bin/tessera-cli}
work=${2:-$(mktemp -d)}
out=resources/rules/synth-real.rules
cd "$root" # model paths in the rules' origins read relative to the checkout
synthesize() {
  name=$1
  shift
  echo "synthesising from $name" >&2
  "$cli" rules synthesize --from-model "$@" --max-ops 4 --name-prefix "synth-$name" --json "$work/$name.json" --out "$work/$name.rules" >"$work/$name.log"
}
synthesize det "samples/real/ppocr_v4_det.onnx" --input-shape x=1x3x640x640
synthesize rec "samples/real/ppocr_v4_rec.onnx" --input-shape x=1x3x48x320
synthesize cls "samples/real/ppocr_mobile_v2_cls.onnx" --input-shape x=1x3x48x192
synthesize bert "samples/transformers/bert_base_layer.onnx"
synthesize gpt2 "samples/transformers/gpt2_block.onnx"
: >"$work/seen.txt"
{
  echo "# Synthesised rules for the real-model suite (issue #32), written by resources/rules/make_synth_real_rules.sh:"
  echo "# \`tessera-cli rules synthesize --from-model MODEL --max-ops 4\` per model at its suite shapes; a rule two runs"
  echo "# found is kept once. Use with \`optimize --rules resources/rules/synth-real.rules\` (not part of the built-in pack)."
  for name in det rec cls bert gpt2; do
    echo
    echo "# --- from $name: $(grep '^written:' "$work/$name.log" | sed 's/  */ /g')"
    grep '^# Counts:' "$work/$name.rules"
    # A rule line after its origin comment; skip a body an earlier run already wrote.
    awk -v seen="$work/seen.txt" '
      BEGIN { while ((getline line < seen) > 0) have[line] = 1 }
      /^# origin:/ { origin = $0; next }
      /^synth-/ { body = substr($0, index($0, "]: ") + 3); if (!(body in have)) { print origin; print; have[body] = 1; print body >> seen } }
    ' "$work/$name.rules"
  done
} >"$out"
"$cli" rules check "$out" >/dev/null
echo "wrote $out ($(grep -c '^synth-' "$out") rules)" >&2
