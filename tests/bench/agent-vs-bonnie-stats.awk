# SPDX-License-Identifier: GPL-2.0-or-later
# Statistics of tests/bench/agent-vs-bonnie-fio.sh over its values.txt:
# one line per (tool, test, run), "TOOL TEST VALUE [ROUND]", VALUE a number or
# "+++++" (too fast: counted, not used).  Units as bonnie++ 2.00a's CSV
# (format 1.98) gives them: K/sec for putc, put_block, rewrite, getc,
# get_block; seeks/sec; files/sec for the six file tests; microseconds for
# the latencies lat_TEST (the worst single operation of TEST).
#
# Prints, per test present: each tool's mean, median and run-to-run CV;
# the ratios agent/bonnie++ and agentprev/bonnie++ (every test; agentprev:
# another agent build, run in the same rounds) and agentcold/fio
# (put_block, get_block) of means and of medians; and 95 % percentile-bootstrap
# intervals (2000 resamples of each tool's runs, seeded: the same raw
# outputs give the same intervals) for the ratio of means and the ratio of
# CVs.  Targets: block tests 0.95-1.05 of bonnie++, per-char, seeks and
# file tests 0.90-1.10, agentcold >= 0.97 of fio; the latencies have none.
# "CV no worse" is judged on the interval: the agent is noisier only when
# the whole interval of CV(agent)/CV(other) lies above 1.
#
# Paired: the tools of one round run one after the other, so the ratio of
# each round's pair cancels what drifts between rounds (the shared disk,
# the other tenants); the geometric mean of those ratios over the rounds
# where both tools gave a number, with a bootstrap interval over rounds,
# is printed beside the ratio of means (raw outputs with a ROUND column).
#
# Half-width of the ratio's interval when both tools have run-to-run CV c
# over n runs each: about 1.96 c sqrt(2/n) - the noise floor this machine
# sets (the summary prints it per test).

BEGIN {
    ntests = split("put_block rewrite get_block putc getc seeks " \
                   "seq_create seq_stat seq_del ran_create ran_stat ran_del " \
                   "lat_putc lat_put_block lat_rewrite lat_getc lat_get_block " \
                   "lat_seeks lat_seq_create lat_seq_stat lat_seq_del " \
                   "lat_ran_create lat_ran_stat lat_ran_del", tests, " ")
    ntools = split("bonnie agent agentprev agentcold fio", tools, " ")
    # pairs[1]/pairs[2], pairs[3]/pairs[4], pairs[5]/pairs[6]
    npairs = split("agent bonnie agentcold fio agentprev bonnie", pairs, " ") / 2
    reps = 2000
}

$3 ~ /^[0-9]+(\.[0-9]+)?$/ {
    k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $3 + 0; seen[$2] = 1
    if (NF >= 4 && $3 + 0 > 0) { rv[$1, $2, $4] = $3 + 0; rnd[$4] = 1 }
    next
}
{ tf[$1 SUBSEP $2]++; seen[$2] = 1 }

function is_block(t) { return t == "put_block" || t == "rewrite" || t == "get_block" }

function unit(t) {
    if (t ~ /^lat_/) return "us"
    if (is_block(t)) return "MiB/s"
    if (t == "putc" || t == "getc") return "K/s"
    return "/s"
}

# shown value: block rates in MiB/s (bonnie++ K/sec / 1024), others as read
function shown(t, x) { return is_block(t) ? x / 1024 : x }

# mean, median, CV (%) of key k into M, MED, CV (CV = -1 when n < 2)
function stats(k,   i, j, s, ss, x, t) {
    s = 0; for (i = 1; i <= n[k]; i++) s += v[k, i]
    M = s / n[k]
    ss = 0; for (i = 1; i <= n[k]; i++) ss += (v[k, i] - M) ^ 2
    CV = n[k] > 1 && M > 0 ? 100 * sqrt(ss / (n[k] - 1)) / M : -1
    for (i = 1; i <= n[k]; i++) x[i] = v[k, i]
    for (i = 2; i <= n[k]; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
        t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
    }
    MED = n[k] % 2 ? x[(n[k] + 1) / 2] : (x[n[k] / 2] + x[n[k] / 2 + 1]) / 2
}

# mean and CV (fraction) of key k, resampled when draw, into BM, BC
function mcv(k, draw,   i, x, s, ss, m) {
    s = 0; ss = 0
    for (i = 1; i <= n[k]; i++) {
        x = draw ? v[k, 1 + int(rand() * n[k])] : v[k, i]
        s += x; ss += x * x
    }
    m = s / n[k]
    BM = m; BC = (n[k] > 1 && m > 0) ? sqrt((ss - n[k] * m * m) / (n[k] - 1)) / m : 0
}

# q-quantile of arr[1..m] (sorted in place)
function pct(arr, m, q,   i, j, t, gap) {
    for (gap = int(m / 2); gap > 0; gap = int(gap / 2))
        for (i = gap + 1; i <= m; i++)
            for (j = i; j > gap && arr[j - gap] > arr[j]; j -= gap) {
                t = arr[j]; arr[j] = arr[j - gap]; arr[j - gap] = t
            }
    return arr[int(q * m + 0.5) < 1 ? 1 : int(q * m + 0.5)]
}

function target(t, fio) {
    if (t ~ /^lat_/) return "-"
    if (fio) return ">= 0.97"
    return is_block(t) ? "0.95-1.05" : "0.90-1.10"
}

function met(t, fio, r) {
    if (t ~ /^lat_/) return ""
    if (fio) return r >= 0.97 ? "ok" : "MISS"
    if (is_block(t)) return r >= 0.95 && r <= 1.05 ? "ok" : "MISS"
    return r >= 0.90 && r <= 1.10 ? "ok" : "MISS"
}

END {
    printf "%-14s %-9s %10s %10s %6s %-5s\n", "test", "tool", "mean", "median", "CV", "unit"
    for (ti = 1; ti <= ntests; ti++) {
        t = tests[ti]
        if (!(t in seen)) continue
        for (to = 1; to <= ntools; to++) {
            k = tools[to] SUBSEP t
            if (n[k] == 0 && tf[k] == 0) continue
            line = ""
            if (n[k] > 0) {
                stats(k)
                mean[k] = M; med[k] = MED
                if (CV >= 0) cv[k] = CV
                line = sprintf("%10.*f %10.*f %6s", shown(t, M) < 100 ? 1 : 0, shown(t, M),
                               shown(t, MED) < 100 ? 1 : 0, shown(t, MED),
                               CV >= 0 ? sprintf("%5.1f%%", CV) : "n/a")
            } else {
                line = sprintf("%10s %10s %6s", "-", "-", "-")
            }
            printf "%-14s %-9s %s %-5s n=%d%s\n", t, tools[to], line, unit(t), n[k],
                   tf[k] ? sprintf(" (%d too fast)", tf[k]) : ""
        }
    }

    print ""
    prev = 0
    for (k in mean) { split(k, kk, SUBSEP); if (kk[1] == "agentprev") prev = 1 }
    printf "%-14s %-14s %-4s %-10s  %-14s %-4s %-8s%s\n", "test", "agent/bonnie++", "", "target",
           "agentcold/fio", "", "target", prev ? "  agentprev/bonnie++" : ""
    for (ti = 1; ti <= ntests; ti++) {
        t = tests[ti]
        if (!(t in seen)) continue
        a = "agent" SUBSEP t; b = "bonnie" SUBSEP t; c = "agentcold" SUBSEP t; f = "fio" SUBSEP t
        pv = "agentprev" SUBSEP t
        rb = (a in mean && b in mean && mean[b] > 0) ? mean[a] / mean[b] : -1
        rf = (c in mean && f in mean && mean[f] > 0) ? mean[c] / mean[f] : -1
        rp = (pv in mean && b in mean && mean[b] > 0) ? mean[pv] / mean[b] : -1
        printf "%-14s %14s %-4s %-10s  %14s %-4s %-8s%s\n", t,
               rb < 0 ? "n/a" : sprintf("%.3f", rb), rb < 0 ? "" : met(t, 0, rb), target(t, 0),
               rf < 0 ? "n/a" : sprintf("%.3f", rf), rf < 0 ? "" : met(t, 1, rf),
               rf < 0 ? "" : target(t, 1),
               prev ? sprintf("  %19s", rp < 0 ? "n/a" : sprintf("%.3f", rp)) : ""
    }

    print ""
    print "ratios of medians (robust to one disturbed run):"
    for (ti = 1; ti <= ntests; ti++) {
        t = tests[ti]
        if (!(t in seen)) continue
        a = "agent" SUBSEP t; b = "bonnie" SUBSEP t; c = "agentcold" SUBSEP t; f = "fio" SUBSEP t
        pv = "agentprev" SUBSEP t
        printf "%-14s agent/bonnie++ %s  agentcold/fio %s%s\n", t,
               (a in med && b in med && med[b] > 0) ? sprintf("%.3f", med[a] / med[b]) : "n/a",
               (c in med && f in med && med[f] > 0) ? sprintf("%.3f", med[c] / med[f]) : "n/a",
               (pv in med && b in med && med[b] > 0) ? sprintf("  agentprev/bonnie++ %.3f", med[pv] / med[b]) : ""
    }

    print ""
    for (ti = 1; ti <= ntests; ti++) {
        t = tests[ti]; a = "agent" SUBSEP t; b = "bonnie" SUBSEP t
        if ((a in cv) && (b in cv))
            printf "CV %-14s agent %5.1f%%  bonnie++ %5.1f%%  %s\n", t, cv[a], cv[b],
                   (cv[a] <= cv[b] ? "agent lower" : "agent higher (significant? see the intervals)")
    }

    # The bootstrap, in a fixed order of tests and pairs with one seeded
    # stream, so the same raw outputs always give the same intervals.
    srand(1)
    nk = 0
    for (ti = 1; ti <= ntests; ti++) for (p = 1; p <= 2 * npairs - 1; p += 2) {
        t = tests[ti]
        a = pairs[p] SUBSEP t; b = pairs[p + 1] SUBSEP t
        if (n[a] < 2 || n[b] < 2) continue
        nk++
        kt[nk] = t; kp[nk] = pairs[p] "/" pairs[p + 1]; kfio[nk] = pairs[p + 1] == "fio"
        mcv(a, 0); ma = BM; ca = BC; mcv(b, 0); mb = BM; cb = BC
        er[nk] = ma / mb; ec[nk] = cb > 0 ? ca / cb : 0
        # noise floor: 1.96 c sqrt(1/na + 1/nb), c the larger CV of the two
        fl[nk] = 1.96 * (ca > cb ? ca : cb) * sqrt(1 / n[a] + 1 / n[b])
        for (r = 1; r <= reps; r++) {
            mcv(a, 1); ma = BM; ca = BC; mcv(b, 1); mb = BM; cb = BC
            rr[r] = ma / mb; rc[r] = cb > 0 ? ca / cb : 0
        }
        lo[nk] = pct(rr, reps, 0.025); hi[nk] = pct(rr, reps, 0.975)
        clo[nk] = pct(rc, reps, 0.025); chi[nk] = pct(rc, reps, 0.975)
    }
    print ""
    print "95 % bootstrap intervals (2000 resamples, seeded): ratio of means, ratio of CVs;"
    print "floor = +-1.96 c sqrt(1/na + 1/nb), c the larger CV: the interval half-width"
    print "this noise allows at these run counts"
    printf "%-14s %-16s %-22s %-8s %-7s %-22s %s\n", "test", "ratio", "mean ratio (CI)", "target",
           "floor", "CV ratio (CI)", "CV no worse"
    for (i = 1; i <= nk; i++) {
        t = kt[i]
        tg = met(t, kfio[i], er[i])
        printf "%-14s %-16s %.3f (%.3f-%.3f)  %-8s +-%4.1f%% %.2f (%.2f-%.2f)     %s\n", t, kp[i],
               er[i], lo[i], hi[i], tg == "" ? "-" : tg, 100 * fl[i], ec[i], clo[i], chi[i],
               (clo[i] > 1 ? "MISS (agent noisier)" : "ok (not noisier)")
    }

    # paired ratios, rounds in numeric order (the same stream as above)
    nr = 0; for (x in rnd) rl[++nr] = x + 0
    for (i = 2; i <= nr; i++) for (j = i; j > 1 && rl[j - 1] > rl[j]; j--) {
        x = rl[j]; rl[j] = rl[j - 1]; rl[j - 1] = x }
    if (!nr) exit
    print ""
    print "paired: geometric mean of each round's ratio (adjacent runs), 95 % bootstrap"
    print "interval over rounds (2000 resamples, seeded)"
    printf "%-14s %-16s %-6s %-22s %s\n", "test", "ratio", "pairs", "paired ratio (CI)", "target"
    for (ti = 1; ti <= ntests; ti++) for (p = 1; p <= 2 * npairs - 1; p += 2) {
        t = tests[ti]; np = 0; sl = 0
        for (i = 1; i <= nr; i++) {
            ra = rv[pairs[p], t, rl[i]]; rb = rv[pairs[p + 1], t, rl[i]]
            if (ra > 0 && rb > 0) { lr[++np] = log(ra / rb); sl += lr[np] }
        }
        if (np < 2) continue
        for (r = 1; r <= reps; r++) {
            sb = 0; for (i = 1; i <= np; i++) sb += lr[1 + int(rand() * np)]
            rr[r] = exp(sb / np)
        }
        g = exp(sl / np)
        tg = met(t, pairs[p + 1] == "fio", g)
        printf "%-14s %-16s %-6d %.3f (%.3f-%.3f)   %s\n", t, pairs[p] "/" pairs[p + 1], np, g,
               pct(rr, reps, 0.025), pct(rr, reps, 0.975), tg == "" ? "-" : tg
    }
}
