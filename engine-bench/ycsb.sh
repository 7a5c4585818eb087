#!/usr/bin/env bash
# Runs YCSB workloads A-F on Talus and RocksDB (dev.talus.bench.ycsb.RunYcsb) and prints the table.
# Builds engine-bench/target/benchmarks.jar first if it is missing or older than the sources.
#
#   engine-bench/ycsb.sh                          # 100k records, 100k operations, workloads A-F
#   engine-bench/ycsb.sh --scale 10 --dir /nvme   # 1M / 1M on an NVMe mount
#   engine-bench/ycsb.sh --workloads a,c --threads 4 --sync group
#
# Options: --scale X, --records N, --ops N, --threads N (default 2), --workloads a,b,c,d,e,f,
# --engines talus,rocksdb, --sync periodic|group|batch, --compaction lcs|stcs, --dir DIR,
# --reps N (default 3: median [min-max]), --no-warmup (skip the discarded pass at 1/5 of the counts),
# --warmup-divisor N (the warm-up pass at 1/N of the counts; 1 = full size). -Dtalus.ycsb.timeline=DIR
# in JAVA_OPTS records a per-read latency timeline of each run phase (see ReadTimeline).
# JAVA_OPTS overrides the JVM options (default -Xmx4g: Talus keeps its 128 MiB of memtables and
# its 256 MiB chunk cache on the heap).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/engine-bench/target/benchmarks.jar"
if [[ ! -f "$jar" ]] || [[ -n "$(find "$root"/engine-*/src "$root"/engine-bench/pom.xml "$root"/pom.xml \
    -newer "$jar" -type f -print -quit)" ]]; then
  echo "building $jar ..." >&2
  (cd "$root" && mvn -q -B -pl engine-bench -am package -DskipTests)
fi
exec java ${JAVA_OPTS:--Xmx4g -XX:+UseParallelGC} -cp "$jar" dev.talus.bench.ycsb.RunYcsb "$@"
