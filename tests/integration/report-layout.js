// SPDX-License-Identifier: GPL-2.0-or-later
// The layout probe of report-chromium.sh: loaded by a page that holds the
// reports in iframes of the widths to check (1400 and 900 px, 900 high:
// the fold), it checks each report's layout once everything has loaded and
// writes one line per frame into <pre id="vdc-probe">:
//   NAME WIDTH ok FACTS...    or    NAME WIDTH FAIL: WHAT; WHAT...
// What a report must do (doc/report.md, "report.html"):
//   - the page does not scroll sideways, and no element is wider than its
//     column (each element's box inside the body's);
//   - every SVG figure draws its text as SVG <text> (no glyph outlines), and
//     every text lies inside its figure (no clipped title, label or legend);
//   - the figures are numbered 1, 2, 3... in page order, captions and
//     data-figure alike;
//   - the answer is the first screen: its title and first line above the fold;
//   - the long sections (how to reproduce, each run's facts, the host CPU
//     table) are collapsed;
//   - each workload test has one latency figure with every target in it;
//   - a dot plot draws at least the markers its data-points says;
//   - no two texts of a figure overlap (bar labels, x labels, panel
//     titles, legend), and what names a thing names it once: the figures'
//     and panels' titles (class title, panel) across the page, a figure's x
//     labels (class xlabel) within it.
"use strict";

// 1 when boxes @p and @q share more than a sliver (1 px each way)
function vdcOverlap(p, q) {
    return Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 &&
        Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1;
}

// the first text met twice in @texts, or null
function vdcTwice(texts) {
    const seen = new Set();
    for (const t of texts) {
        if (seen.has(t))
            return t;
        seen.add(t);
    }
    return null;
}

function vdcDesc(el) {
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "");
}

function vdcProbe(doc, name, width, height) {
    const bad = [], facts = [];
    const body = doc.body, b = body.getBoundingClientRect(), de = doc.documentElement;

    if (de.scrollWidth > de.clientWidth + 1)
        bad.push("page scrolls sideways (" + de.scrollWidth + " > " + de.clientWidth + ")");
    // no element wider than its column (an SVG's inside is its own)
    let wide = 0;
    for (const el of body.querySelectorAll("*")) {
        if (el.closest("svg") && el.tagName.toLowerCase() !== "svg")
            continue;
        const q = el.getBoundingClientRect();
        if (!q.width && !q.height)
            continue;       // not rendered: inside a closed <details>
        if (q.right > b.right + 1 || q.left < b.left - 1) {
            if (wide++ < 3)
                bad.push("wider than its column: " + vdcDesc(el) + " " + Math.round(q.left) + ".." +
                         Math.round(q.right) + " in " + Math.round(b.left) + ".." + Math.round(b.right));
        }
    }
    // SVG text, inside its figure
    let texts = 0;
    for (const svg of body.querySelectorAll("figure svg")) {
        const fig = svg.closest("figure").id, s = svg.getBoundingClientRect();
        if (svg.querySelector("symbol, use"))
            bad.push(fig + ": glyph outlines (symbol/use), not text");
        const t = svg.querySelectorAll("text");
        if (!t.length)
            bad.push(fig + ": no SVG text");
        for (const e of t) {
            const q = e.getBoundingClientRect();
            texts++;
            if (q.left < s.left - 1 || q.right > s.right + 1 || q.top < s.top - 1 || q.bottom > s.bottom + 1)
                bad.push(fig + ": text clipped: '" + e.textContent.slice(0, 40) + "'");
        }
    }
    facts.push("texts=" + texts);
    // no two texts of a figure overlap; names said once
    let overlaps = 0;
    const titles = [];
    for (const fig of body.querySelectorAll("figure")) {
        const t = Array.from(fig.querySelectorAll("svg text"));
        const q = t.map(e => e.getBoundingClientRect());
        for (let i = 0; i < t.length; i++)
            for (let j = i + 1; j < t.length; j++)
                if (q[i].width && q[j].width && vdcOverlap(q[i], q[j]) && overlaps++ < 3)
                    bad.push(fig.id + ": texts overlap: '" + t[i].textContent.slice(0, 30) + "' and '" +
                             t[j].textContent.slice(0, 30) + "'");
        const twice = vdcTwice(Array.from(fig.querySelectorAll("svg text.xlabel")).map(e => e.textContent));
        if (twice !== null)
            bad.push(fig.id + ": xlabel '" + twice + "' twice");
        titles.push(...Array.from(fig.querySelectorAll("svg text.title, svg text.panel")).map(e => e.textContent));
    }
    const twice = vdcTwice(titles);
    if (twice !== null)
        bad.push("figure or panel title '" + twice + "' twice");
    facts.push("titles=" + titles.length);
    // figures numbered in order
    let n = 0;
    for (const f of body.querySelectorAll("figure")) {
        n++;
        const cap = f.querySelector("figcaption");
        if (+f.getAttribute("data-figure") !== n || !cap || !cap.textContent.startsWith("Figure " + n + ":"))
            bad.push("figure " + f.id + " is numbered " + f.getAttribute("data-figure") + ", its place is " + n);
    }
    facts.push("figures=" + n);
    // the answer is the first screen
    const ans = doc.getElementById("answer");
    if (!ans) {
        bad.push("no answer section");
    } else {
        const h = ans.querySelector("h2").getBoundingClientRect();
        const first = ans.querySelector("p, li");
        if (h.bottom > height || !first || first.getBoundingClientRect().bottom > height)
            bad.push("the answer is not above the fold");
        facts.push("answer_top=" + Math.round(ans.getBoundingClientRect().top));
    }
    // long sections collapsed
    for (const id of ["reproduce", "runs", "host-cost-details"]) {
        const d = doc.getElementById(id);
        if (d && (d.tagName.toLowerCase() !== "details" || d.open))
            bad.push(id + " is not collapsed");
    }
    if (!doc.getElementById("reproduce"))
        bad.push("no collapsed 'How to reproduce'");
    // one latency figure per workload test, every target of it in it
    const lat = body.querySelectorAll("figure.latency");
    for (const f of lat) {
        const words = Array.from(f.querySelectorAll("text")).map(t => t.textContent);
        const targets = f.getAttribute("data-targets");
        if (!targets || targets.split(",").some(t => !words.includes(t)))
            bad.push(f.id + ": a target of " + targets + " is not in its legend");
    }
    facts.push("latency=" + lat.length);
    // dot plots: the markers they say they draw
    for (const f of body.querySelectorAll("figure.dots")) {
        const want = +f.getAttribute("data-points");
        if (!(want > 0) || f.querySelectorAll("path").length < want)
            bad.push(f.id + ": " + f.querySelectorAll("path").length + " paths for " + want + " markers");
    }
    // the results table: a row per target and test
    const t = doc.querySelector("table.results");
    if (t)
        facts.push("rows=" + t.querySelectorAll("tbody tr").length + " tests=" + t.querySelectorAll("tbody").length);
    const flagged = Array.from(body.querySelectorAll("figure[data-flagged]"))
        .reduce((s, f) => s + +f.getAttribute("data-flagged"), 0);
    facts.push("flagged=" + flagged);
    return name + " " + width + " " + (bad.length ? "FAIL: " + bad.join("; ") : "ok " + facts.join(" "));
}

addEventListener("load", function () {
    const out = [];
    for (const f of document.querySelectorAll("iframe"))
        out.push(vdcProbe(f.contentDocument, f.getAttribute("data-name"), f.width, f.height));
    const p = document.createElement("pre");
    p.id = "vdc-probe";
    p.textContent = out.join("\n");
    document.body.appendChild(p);
});
