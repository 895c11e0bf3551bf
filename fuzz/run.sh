#!/bin/sh
# Run one fuzz target the way docs/fuzzing.md records it:
#
#   sh fuzz/run.sh TARGET [RUNS] [SECONDS]
#
# RUNS executions (default 1,000,000) or SECONDS of wall time (default 3600), whichever comes
# first; one job, at the lowest CPU priority. The corpus (fuzz/corpus/TARGET, not committed)
# starts from fuzz/seeds/TARGET and grows across runs; a crash or failed property is written to
# fuzz/artifacts/TARGET/. The last lines of the output give the executions (`#N DONE` or
# `stat::number_of_executed_units`), the corpus size (`corp: FILES/BYTES`) and the time.
set -eu
cd "$(dirname "$0")"
t=$1
runs=${2:-1000000}
secs=${3:-3600}
case $t in
    protocol_entries) len=256 ;;          # an edit program: a few dozen edits at most
    entry_parse) len=16384 ;;             # a protocol-2 genesis of the vectors is 1.5 KB
    log_split) len=8192 ;;                # the vector log is 5 KB
    *) len=4096 ;;                        # orders, messages; scenarios cut to 4 KB (see docs)
esac
mkdir -p "corpus/$t" "artifacts/$t"
cp -n "seeds/$t"/* "corpus/$t/" 2>/dev/null || true
cargo +nightly fuzz build -O -s none "$t"
bin=target/x86_64-unknown-linux-gnu/release/$t
echo "start $(date -u +%FT%TZ)"
nice -n 19 "$bin" "corpus/$t" -runs="$runs" -max_total_time="$secs" -max_len="$len" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="artifacts/$t/"
echo "end $(date -u +%FT%TZ)"
