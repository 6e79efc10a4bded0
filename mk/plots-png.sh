#!/bin/sh
# mk/plots-png.sh - draw sample plots and render every SVG to PNG in
# BUILD/plots/ for a person to look at: a run of three locks
# (run.svg), a comparison of ww against tp (compare.svg), and the study
# charts of docs/studies/img/.  Needs chromium; not part of make check.
#
# usage: mk/plots-png.sh [BUILD]   (default: build)
set -eu
cd "$(dirname "$0")/.."
b=${1:-build}
out=$b/plots
mkdir -p "$out"
"$b/futexsim" run --lock=ww,tp,pi --threads=8 --duration=2ms \
	--plot="$out/run.svg" >/dev/null
"$b/futexsim" compare --seeds=4 --threads=4 --ops=5000 --b-set=lock=tp \
	--plot="$out/compare.svg" >/dev/null
for f in "$out"/*.svg docs/studies/img/*.svg; do
	png=$out/$(basename "$f" .svg).png
	chromium --headless=new --no-sandbox --disable-gpu \
		--screenshot="$png" --window-size=800,500 \
		"file://$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" \
		>/dev/null 2>&1
	echo "$png"
done
