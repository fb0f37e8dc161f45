#!/bin/bash
# bench/report.sh DIR -- DIR/rows.tsv (written by test/qemu/suites/bench.sh)
# into DIR/table.txt, DIR/table.csv and DIR/chart.png (gnuplot).
#
# A line of rows.tsv is "round id label unit autofsng autofs-tools raw", a
# cell "median min max n", one number, or "-".  Over the rounds of a row: a
# side's median is the median of its rounds' medians, min and max the
# extremes, n the samples; a ratio is taken in each round (of that round's
# medians) and the table gives the median ratio with its spread [min-max].
# "worse" marks the rows where autofsng does worse than autofs-tools (a
# larger time or lookup count, or fewer operations done: neg-ops); the
# targets of bench/targets.tsv are marked met or short.
set -euo pipefail
dir=${1:?usage: bench/report.sh DIR}
rows=$dir/rows.tsv
targets=$(dirname "$0")/targets.tsv
[ -s "$rows" ] || { echo "bench/report.sh: no $rows" >&2; exit 1; }

awk -F'\t' -v csv="$dir/table.csv" -v dat="$dir/chart.dat" -v sdat="$dir/stages.dat" '
function num(c) { return c != "" && c != "-" }
function med(c,  a) { split(c, a, " "); return a[1] + 0 }
function lo(c,  a) { split(c, a, " "); return a[2] == "" ? a[1] + 0 : a[2] + 0 }
function hi(c,  a) { split(c, a, " "); return a[3] == "" ? a[1] + 0 : a[3] + 0 }
function cnt(c,  a) { split(c, a, " "); return a[4] == "" ? 1 : a[4] + 0 }
# median of v[1..n] (sorted in place)
function median(v, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
# the rounds of side k of row id into the globals A_MED A_MIN A_MAX A_N (A_N 0: no figure)
function agg(id, k,   r, c, n, v) {
	n = 0; A_MIN = ""; A_MAX = ""; A_N = 0
	for (r = 1; r <= rounds[id]; r++) {
		c = cell[id, r, k]
		if (!num(c)) continue
		v[++n] = med(c); A_N += cnt(c)
		if (A_MIN == "" || lo(c) < A_MIN) A_MIN = lo(c)
		if (A_MAX == "" || hi(c) > A_MAX) A_MAX = hi(c)
	}
	if (!n) { A_N = 0; return }
	A_MED = median(v, n)
}
# the ratio side a / side b of each round into R_MED R_MIN R_MAX (R_N 0: none)
function ratios(id, ida, ka, idb, kb,   r, ca, cb, n, v) {
	n = 0; R_MIN = ""; R_MAX = ""
	for (r = 1; r <= rounds[id]; r++) {
		ca = cell[ida, r, ka]; cb = cell[idb, r, kb]
		if (!num(ca) || !num(cb) || med(cb) == 0) continue
		v[++n] = med(ca) / med(cb)
		if (R_MIN == "" || v[n] < R_MIN) R_MIN = v[n]
		if (R_MAX == "" || v[n] > R_MAX) R_MAX = v[n]
	}
	R_N = n
	if (n) R_MED = median(v, n)
}
function fmt(x) { return x >= 100 ? sprintf("%.0f", x) : sprintf("%.2f", x) }
function show(k) { return A_N ? A_MED (A_N > 1 ? " [" A_MIN "-" A_MAX "]" : "") : "-" }
function spread() { return R_N ? fmt(R_MED) (R_N > 1 ? " [" fmt(R_MIN) "-" fmt(R_MAX) "]" : "") : "-" }
function goal(name, x) { return (name in target) ? ((x <= target[name]) ? "met (<=" target[name] ")" : "short (<=" target[name] ")") : "" }
FNR == NR { if ($0 !~ /^#/ && NF >= 2) target[$1] = $2 + 0; next }
{
	id = $2
	if (!(id in rounds)) { order[++nid] = id; label[id] = $3; unit[id] = $4 }
	r = ++rounds[id]
	for (k = 1; k <= 3; k++) cell[id, r, k] = $(4 + k)
}
END {
	printf "%-20s %-4s %-26s %-26s %-22s %-18s %7s %s\n", "row", "unit", "autofsng [min-max]", "autofs-tools [min-max]", "raw [min-max]", "ng/at [spread]", "ng/raw", "target"
	print "id,label,unit,ng_median,ng_min,ng_max,ng_n,at_median,at_min,at_max,at_n,raw_median,raw_min,raw_max,raw_n,ng_over_at,ng_over_raw,ng_worse,ng_over_at_min,ng_over_at_max,rounds,target,target_met" > csv
	for (i = 1; i <= nid; i++) {
		id = order[i]
		line = sprintf("\"%s\",\"%s\",%s", id, label[id], unit[id])
		for (k = 1; k <= 3; k++) {
			agg(id, k); s[k] = show(k)
			line = line (A_N ? sprintf(",%s,%s,%s,%s", A_MED, A_MIN, A_MAX, A_N) : ",,,,")
			if (k == 1) ngmed = A_N ? A_MED : ""
		}
		ratios(id, id, 1, id, 3); rr = R_N ? fmt(R_MED) : "-"
		ratios(id, id, 1, id, 2)
		worse = ""
		if (R_N) worse = (id == "neg-ops") ? (R_MED < 1 ? "worse" : "") : (R_MED > 1 ? "worse" : "")
		g = R_N ? goal(id, R_MED) : ""
		printf "%-20s %-4s %-26s %-26s %-22s %-18s %7s %s\n", id, unit[id], s[1], s[2], s[3], spread(), rr, (g != "" ? g : worse)
		line = line sprintf(",%s,%s,%s", R_N ? fmt(R_MED) : "", rr == "-" ? "" : rr, worse)
		line = line sprintf(",%s,%s,%s,%s,%s", R_N ? fmt(R_MIN) : "", R_N ? fmt(R_MAX) : "", rounds[id], (id in target) ? target[id] : "", g ~ /^met/ ? "yes" : (g != "" ? "no" : ""))
		print line >> csv
		# the chart: how many times better autofsng does, taller is better
		if (R_N && id !~ /^stage-/) {
			b = (id == "neg-ops") ? R_MED : (R_MED > 0 ? 1 / R_MED : 1000)
			if (b > 1000) b = 1000
			printf "\"%s\" %g %s\n", id, b, (id in target) ? 1 / target[id] : "NaN" >> dat
		}
		if (id ~ /^stage-/) { split(id, p, "-"); stage[p[2], p[3]] = ngmed; if (!(p[2] in seen)) { seen[p[2]] = 1; whats[++nw] = p[2] } }
		if (id ~ /^first-/ || id == "floor-bind" || id == "ldap") whole[id] = ngmed
	}
	ratios("first-bind", "first-bind", 1, "floor-bind", 1)
	if (R_N) printf "\n%-20s %-4s %-76s %-18s %7s %s\n", "first-bind/floor", "", "first-bind over floor-bind, autofsng columns", spread(), "", goal("first-bind/floor", R_MED)
	# stacked bars: each stage of a first access, from the access to the agent
	# main ("before") to the first byte read ("after"); the floor as one piece
	n = split("before init map module names parse mount attach expire end after", st, " ")
	if (nw) {
		printf "what" > sdat; for (j = 1; j <= n; j++) printf " %s", st[j] >> sdat; print "" >> sdat
		printf "floor-bind %s", whole["floor-bind"] + 0 >> sdat; for (j = 2; j <= n; j++) printf " 0" >> sdat; print "" >> sdat
		for (w = 1; w <= nw; w++) {
			printf "%s", whats[w] >> sdat
			for (j = 1; j <= n; j++) printf " %s", stage[whats[w], st[j]] + 0 >> sdat
			print "" >> sdat
		}
	}
	print ""; for (i = 1; i <= nid; i++) print order[i] ": " label[order[i]]
}
' "$targets" "$rows" > "$dir/table.txt"
cat "$dir/machine.txt" "$dir/table.txt" 2>/dev/null > "$dir/table.tmp" && mv "$dir/table.tmp" "$dir/table.txt"

if command -v gnuplot >/dev/null && [ -s "$dir/chart.dat" ]; then
	gnuplot <<GP
set terminal png size 1400,1300
set output "$dir/chart.png"
set multiplot layout 2,1
set title "How many times better autofsng does than autofs-tools 5.1.8 (median over the rounds; time and lookup rows inverted; above 1 = better, below 1 = a loss; - target)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 10
set yrange [0.01:1000]
set ytics ("0.01" 0.01, "0.1" 0.1, "1" 1, "10" 10, "100" 100, "1000" 1000)
set ylabel "times better (log scale)"
set xtics rotate by -40 font ",9"
set grid ytics
set key top left
plot "$dir/chart.dat" using 2:xtic(1) title "autofs-tools / autofsng (neg-ops: autofsng / autofs-tools)", \
     "" using 0:3 with points pt 5 ps 1.5 lc rgb "red" title "target", \
     1 notitle lt -1
unset logscale y
set autoscale y
set ytics auto
set title "Where a first access's time goes (autofsng, median per stage, us; before = access to the agent's main, after = its last stage to the first byte; the floor whole)"
set style histogram rowstacked
set style data histograms
set key outside right
set ylabel "us"
set xtics norotate
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #666666 #1f78b4 #b2df8a #cccccc"
plot for [c=2:12] "$dir/stages.dat" using c:xtic(1) title columnheader(c) lc rgb word(colors, c - 1)
unset multiplot
GP
fi
rm -f "$dir/chart.dat"
cat "$dir/table.txt"
