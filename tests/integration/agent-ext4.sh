#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The agent on a small loop-mounted ext4 (loop with --direct-io=on): every
# bonnie++ test runs, the CSV is bonnie++ 2.00a format 1.98 (50 fields)
# and Debian's bon_csv2txt renders it with our values; the JSON agrees
# with the CSV; no scratch file is left behind.  ~15 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
[ -n "$BON_CSV2TXT" ] || skip "bon_csv2txt not found by configure"
. "$top_srcdir/tests/integration/agent-lib.sh"

make_ext4 256M
run_agent 0 -d "$MNT" -s 64 -r 32 -n 1:4k:1k:2 -m itest --seed 42 \
    --csv --csv-file "$SCRATCH/r.csv" --json "$SCRATCH/r.json" --target ext4
csv=$SCRATCH/out
cmp -s "$csv" "$SCRATCH/r.csv" || fail "--csv output and --csv-file differ"
[ "$(wc -l < "$csv")" = 1 ] || fail "expected one CSV line: $(cat "$csv")"
fields=$(awk -F, '{print NF}' "$csv")
[ "$fields" = 50 ] || fail "CSV has $fields fields, expected 50: $(cat "$csv")"
IFS=, read -r f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 rest < "$csv"
[ "$f1" = 1.98 ] || fail "CSV field 1 is '$f1', expected 1.98"
[ "$f3,$f4,$f5,$f6,$f7,$f8,$f9" = "itest,1,42,64M,,8192,5" ] \
    || fail "CSV fields 3-9 are '$f3,$f4,$f5,$f6,$f7,$f8,$f9'"
# per-char write is a number (3 MiB in one-byte write(2) calls takes > 0.5 s)
case $f10 in ''|*[!0-9]*) fail "putc field is '$f10', expected K/sec" ;; esac
# files: 1 (x1024), max 4096, min 1024, 2 directories
[ "$(cut -d, -f22-26 "$csv")" = "1,4096,1024,2," ] \
    || fail "CSV fields 22-26 are '$(cut -d, -f22-26 "$csv")'"
# every test has a value or +++++ and a latency
for i in 12 14 16 18 20 27 29 31 33 35 37; do
    v=$(cut -d, -f$i "$csv")
    case $v in ''|*[!0-9.+]*) fail "CSV field $i is '$v'" ;; esac
done
for i in $(seq 39 50); do
    v=$(cut -d, -f$i "$csv")
    case $v in *us|*ms|*s) ;; *) fail "CSV latency field $i is '$v'" ;; esac
done

"$BON_CSV2TXT" < "$csv" > "$SCRATCH/txt" 2>"$SCRATCH/txt.err" \
    || fail "bon_csv2txt failed: $(cat "$SCRATCH/txt.err")"
[ ! -s "$SCRATCH/txt.err" ] || fail "bon_csv2txt complained: $(cat "$SCRATCH/txt.err")"
grep -q "^itest .*64M::8192:5 *${f10}k " "$SCRATCH/txt" \
    || { cat "$SCRATCH/txt"; fail "bon_csv2txt table lacks 'itest 64M::8192:5 ${f10}k'"; }
grep -q "1:4096:1024/2" "$SCRATCH/txt" \
    || { cat "$SCRATCH/txt"; fail "bon_csv2txt file line lacks 1:4096:1024/2"; }

# bon_csv2html (same package) reads it too
html=$(dirname "$BON_CSV2TXT")/bon_csv2html
if [ -x "$html" ]; then
    "$html" < "$csv" > "$SCRATCH/html" 2>"$SCRATCH/html.err" \
        || fail "bon_csv2html failed: $(cat "$SCRATCH/html.err")"
    grep -q ">itest<" "$SCRATCH/html" || fail "bon_csv2html output lacks the machine name"
fi

# the JSON carries the same numbers
j=$SCRATCH/r.json
grep -q '"format": "vmdiskcmp-result"' "$j" || fail "JSON format member"
grep -q '"target": "ext4", "repetition": 0, "status": "ok"' "$j" || fail "JSON run header"
grep -q '"seed": "42"' "$j" || fail "JSON seed"
grep -q '"fs_type": "ext4"' "$j" || fail "JSON fs_type"
grep -q "\"device\": \"$LOOPDEV\"" "$j" || fail "JSON device is not $LOOPDEV"
n=$(grep -c '"test": ' "$j")
[ "$n" = 12 ] || fail "JSON has $n samples, expected 12"
jv=$(json_value "$j" putc value)
[ "${jv%.*}" = "$f10" ] || fail "JSON putc value $jv, CSV $f10"
[ "$(json_value "$j" putc too_fast)" = false ] || fail "putc flagged too fast"

# nothing left behind
left=$(find "$MNT" -mindepth 1 -not -name lost+found | head -n1)
[ -z "$left" ] || fail "scratch left behind: $left"
echo "PASS: ext4 run, CSV (50 fields) read by bon_csv2txt, JSON agrees"
