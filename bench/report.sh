#!/bin/bash
# bench/report.sh DIR -- DIR/rows.tsv (written by test/qemu/suites/bench.sh)
# into DIR/table.txt, DIR/table.csv and DIR/chart.png (gnuplot).
# A cell of rows.tsv is "median min max n", one number, or "-".
# Ratios are of medians: autofsng / autofs-tools and autofsng / raw.
# "worse" marks the rows where autofsng does worse than autofs-tools: a
# larger time or lookup count, or fewer operations done (neg-ops).
set -euo pipefail
dir=${1:?usage: bench/report.sh DIR}
rows=$dir/rows.tsv
[ -s "$rows" ] || { echo "bench/report.sh: no $rows" >&2; exit 1; }

awk -F'\t' -v csv="$dir/table.csv" -v dat="$dir/chart.dat" '
function med(c,  a) { split(c, a, " "); return a[1] }
function rng(c,  a) { split(c, a, " "); return (a[2] == "") ? "" : a[2] "-" a[3] }
function cell(c,  r) { if (c == "-" || c == "") return "-"; r = rng(c); return med(c) (r == "" ? "" : " [" r "]") }
function ratio(x, y) { if (x == "-" || y == "-" || x == "" || y == "" || med(y) + 0 == 0) return "-"; return sprintf("%.2f", med(x) / med(y)) }
function part(c, i,  a) { if (c == "-" || c == "") return ""; split(c, a, " "); return a[i] }
BEGIN {
	printf "%-16s %-4s %-28s %-28s %-24s %7s %7s %s\n", "row", "unit", "autofsng [min-max]", "autofs-tools [min-max]", "raw [min-max]", "ng/at", "ng/raw", "" 
	print "id,label,unit,ng_median,ng_min,ng_max,ng_n,at_median,at_min,at_max,at_n,raw_median,raw_min,raw_max,raw_n,ng_over_at,ng_over_raw,ng_worse" > csv
}
{
	ra = ratio($4, $5); rr = ratio($4, $6); worse = ""
	if (ra != "-") worse = ($1 == "neg-ops") ? (ra + 0 < 1 ? "worse" : "") : (ra + 0 > 1 ? "worse" : "")
	printf "%-16s %-4s %-28s %-28s %-24s %7s %7s %s\n", $1, $3, cell($4), cell($5), cell($6), ra, rr, worse
	labels[NR] = $1 ": " $2
	printf "\"%s\",\"%s\",%s", $1, $2, $3 >> csv
	for (k = 4; k <= 6; k++) printf ",%s,%s,%s,%s", part($k, 1), part($k, 2), part($k, 3), part($k, 4) >> csv
	printf ",%s,%s,%s\n", (ra == "-" ? "" : ra), (rr == "-" ? "" : rr), worse >> csv
	if (ra != "-" || rr != "-")
		printf "\"%s\" %s %s\n", $1, (ra == "-" ? "NaN" : ra), (rr == "-" ? "NaN" : rr) >> dat
}
END { print ""; for (i = 1; i <= NR; i++) print labels[i] }
' "$rows" > "$dir/table.txt"
cat "$dir/machine.txt" "$dir/table.txt" 2>/dev/null > "$dir/table.tmp" && mv "$dir/table.tmp" "$dir/table.txt"

if command -v gnuplot >/dev/null && [ -s "$dir/chart.dat" ]; then
	gnuplot <<GP
set terminal png size 1400,700
set output "$dir/chart.png"
set title "autofsng relative to autofs-tools 5.1.8 and to the raw mount (medians; 1 = equal; QEMU TCG: ratios only)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 2
set yrange [0.001:1000]
set ylabel "ratio (log scale)"
set xtics rotate by -40 font ",9"
set grid ytics
set key top left
plot "$dir/chart.dat" using 2:xtic(1) title "autofsng / autofs-tools", \
     "" using 3 title "autofsng / raw (or plain directory)", \
     1 notitle lt -1
GP
fi
rm -f "$dir/chart.dat"
cat "$dir/table.txt"
