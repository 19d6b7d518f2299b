# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for shell tests (sourced).  Exit 77 = skipped (automake).
skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1"; }
# golden_check WHAT EXPECTED_DIR ACTUAL_DIR FILE...: each FILE of ACTUAL_DIR
# is byte for byte the one in EXPECTED_DIR (a diff and fail otherwise);
# with VDC_REGENERATE=1 it is copied there instead (review the diff).
golden_check() {
    _gc_what=$1 _gc_exp=$2 _gc_act=$3
    shift 3
    for _gc_f in "$@"; do
        [ -f "$_gc_act/$_gc_f" ] || fail "$_gc_what: $_gc_f not written"
        if [ "${VDC_REGENERATE:-0}" = 1 ]; then
            mkdir -p "$_gc_exp"
            cp "$_gc_act/$_gc_f" "$_gc_exp/$_gc_f"
            echo "regenerated $_gc_exp/$_gc_f"
        else
            [ -f "$_gc_exp/$_gc_f" ] ||
                fail "$_gc_what: missing expected file $_gc_exp/$_gc_f (VDC_REGENERATE=1 to create)"
            cmp -s "$_gc_exp/$_gc_f" "$_gc_act/$_gc_f" || {
                diff -u "$_gc_exp/$_gc_f" "$_gc_act/$_gc_f" | head -40 >&2
                fail "$_gc_what: $_gc_f differs from $_gc_exp/$_gc_f"
            }
        fi
    done
}

# unfold FILE: report.txt with the lines vdc_layout_fold folded joined again
# (a continuation is indented two blanks past its line, after a line of 60
# or more characters): for a grep of a whole warning or read-back line
unfold() {
    awk 'function lead(s) { match(s, /^ */); return RLENGTH }
         NR > 1 && plen >= 60 && lead($0) == glead + 2 { row = row " " substr($0, lead($0) + 1); plen = length($0); next }
         NR > 1 { print row }
         { row = $0; glead = lead($0); plen = length($0) }
         END { if (NR) print row }' "$1"
}

# vouch_journal DIR: write the run record (src/run/runrec.h) that the run
# named in DIR/journal's run line would have left in $VDC_STATE_DIR, as
# root can: for tests whose journals are written by hand as a crashed run
# leaves them (cleanup acts only on a journal its record vouches for)
vouch_journal() {
    _vj_dir=$(realpath "$1")
    _vj_id=$(sed -n '2s/^run id=\([^ ]*\).*/\1/p' "$_vj_dir/journal")
    [ -n "$_vj_id" ] || fail "vouch_journal: $_vj_dir/journal has no run line"
    [ -n "${VDC_STATE_DIR:-}" ] || fail "vouch_journal: VDC_STATE_DIR is not set"
    mkdir -p -m 0700 "$VDC_STATE_DIR"
    rm -f "$VDC_STATE_DIR/$_vj_id"
    ( umask 077
      printf 'vmdiskcmp-run 1\nid=%s\njournal=%s\ndir=%s\nfile=%s\npid=1\nstart=0\nboot=%s\n' \
          "$_vj_id" "$_vj_dir/journal" "$(stat -c %d:%i "$_vj_dir")" "$(stat -c %d:%i "$_vj_dir/journal")" \
          "$(cat /proc/sys/kernel/random/boot_id)" > "$VDC_STATE_DIR/$_vj_id" )
}
