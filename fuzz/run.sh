#!/bin/sh
# SPDX-License-Identifier: MIT
# Run one libFuzzer target for FUZZ_SECONDS (default 60) on its corpus.
# Usage: run.sh TARGET CORPUS_DIR [libFuzzer options...]
set -eu
target=$1 corpus=$2
shift 2
mkdir -p "$corpus"
exec "$target" -max_total_time="${FUZZ_SECONDS:-60}" -print_final_stats=1 \
	-timeout=10 "$@" "$corpus"
