#!/usr/bin/env bash
# shellcheck disable=SC2016 # the jq filters in single quotes are jq's
# guest/bench's summary (guest/bench -n) on a tiny saved run
# (tests/bench/fixture: bench.tsv, bench.params and bpftool snapshots of
# the stat modes; made-up numbers): bench.json parses, has the schema's
# fields with the right types, a row per kernel x mode, the stat rows'
# BPF programs, per kernel the derived costs (cost = 1 - ratio), and
# bench.txt the per-kernel and first-interval lines. No guest, no timing.
set -euo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

bdir=$BUILD/test/bench-n
rm -rf "$bdir"
mkdir -p "$bdir"
cp -r "$GFPTOP_ROOT/tests/bench/fixture/." "$bdir/"
j=$bdir/bench.json

check "bench -n: summarizes a saved bench.tsv" guest/bench -n -o "$bdir"
# jqt NAME FILTER: PASS if FILTER (jq -e) holds on bench.json
jqt() { check "bench.json: $1" jq -e "$2" "$j"; }
jqt "schema gfptop-bench/4 with the run's parameters" \
	'.schema == "gfptop-bench/4" and (.rounds | type) == "number" and (.seconds | type) == "number"
	 and (.icount | type) == "string" and (.stressor | type) == "string" and .cpus == 1'
jqt "a row per set x kernel x mode of bench.tsv (19)" '.rows | length == 19'
jqt "every row has every field, numbers or null" '
	[.rows[] | (.set | type) == "string" and (.kernel | type) == "string" and (.mode | type) == "string" and
	 ([.n, .median_ops_s, .min_ops_s, .max_ops_s, .spread_pct, .ratio_to_off] | all(type == "number")) and
	 ([.welch_p_vs_off, .tool_cpu_s_median, .other_cpu_s_median, .tool_maxrss_kb, .events_per_run,
	   .lost_total, .ns_per_event] | all(type == "number" or type == "null")) and has("bpf_programs")] | all'
jqt "ratio_to_off is the median over the same kernel's off median" '
	[.rows[] | select(.set == "observe")] as $r |
	[$r[] | . as $x | ($r | map(select(.kernel == $x.kernel and .mode == "off")) | first) as $o |
	 ((.median_ops_s / $o.median_ops_s) - .ratio_to_off | fabs) < 0.0001] | all'
jqt "the kernel set is stock vs after, relative to stock" \
	'[.rows[] | select(.set == "kernel") | .kernel] == ["stock", "after"]'
jqt "the stat rows carry their BPF programs, with ns per run" '
	[.rows[] | select(.mode | endswith("stat")) | .bpf_programs | length > 0 and
	 all(.[]; (.program | type) == "string" and (.ns_per_run | type) == "number" and (.runs_per_s | type) == "number")] |
	length == 3 and all'
jqt "the other rows have none" '[.rows[] | select(.mode | endswith("stat") | not) | .bpf_programs == null] | all'
jqt "a kernels[] entry per observed kernel, tracepoint modes only on ours" '
	(.kernels | map(.kernel)) == ["after", "debian-6.1"] and
	(.kernels | map(.tracepoint)) == [true, false] and
	(.kernels[1].modes | index("gfptop") == null)'
jqt "probe and pfloor cost are 100 x (1 - ratio), their ratio the quotient" '
	.rows as $rows | [.kernels[] | . as $k |
	 ($rows | map(select(.set == "observe" and .kernel == $k.kernel)) | map({(.mode): .ratio_to_off}) | add) as $m |
	 ((100 * (1 - $m.probe) - $k.probe_cost_pct) | fabs) < 0.001 and
	 ((100 * (1 - $m.pfloor) - $k.pfloor_cost_pct) | fabs) < 0.001 and
	 (($k.probe_cost_pct / $k.pfloor_cost_pct - $k.probe_pfloor_cost_ratio) | fabs) < 0.001] | all'
jqt "first-interval cost per kernel (gfptop1 only where the tracepoint is)" '
	(.kernels[0].first_interval_cost_pct | (.probe1 | type) == "number" and (.gfptop1 | type) == "number" and (.probe1boot | type) == "number") and
	(.kernels[1].first_interval_cost_pct | (.probe1 | type) == "number" and .gfptop1 == null)'
jqt "goals are booleans derived from the costs" '
	[.kernels[] | (.goals.probe_cost_le_2pct == (.probe_cost_pct <= 2)) and
	 (.goals.probe_le_1_5x_pfloor == (.probe_cost_pct <= 1.5 * .pfloor_cost_pct))] | all'
jqt "probe ns per run from the probestat programs" \
	'[.kernels[] | .probe_ns_per_run.gpff_entry_fentry > 0 and .probe_ns_per_run.gpff_return_fexit > 0] | all'
txt() { grep -q -- "$1" "$bdir/bench.txt"; }
check "bench.txt: a probe cost line per kernel" \
	eval 'txt "^after (.*): probe cost .*probe / pfloor cost ratio" && txt "^debian-6.1 (.*): probe cost "'
check "bench.txt: a first interval cost line per kernel" \
	eval 'txt "^after first interval cost: probe1 " && txt "^debian-6.1 first interval cost: probe1 "'
# a bench.tsv line with a field missing is refused, not summarized
short_refused() {
	head -n 3 "$GFPTOP_ROOT/tests/bench/fixture/bench.tsv" | cut -f 1-10 >"$bdir/bench.tsv"
	if guest/bench -n -o "$bdir" >/dev/null 2>&1; then
		echo "accepted a 10-field bench.tsv"
		return 1
	fi
}
check "bench -n: refuses a bench.tsv with fields missing" short_refused
