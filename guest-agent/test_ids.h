/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp test ids: the one list of the tests the agent measures and the
 * controller loads, imports, analyses and renders (doc/result-format.md,
 * "Test ids").  libc only and code-free, so that the static agent
 * (guest-agent/, its own build) and the controller (src/) include the same
 * file: each side expands the list into its own table --
 * guest-agent/format.c the bonnie++, sweep and workload lists into
 * agent_test_id[], agent_test_unit[] and their sweep and workload
 * counterparts, src/model/result.c the bonnie++, sweep, dd and workload
 * lists into vdc_tests[] -- and tests/unit/test_model.c checks that the two tables
 * agree.
 *
 * VDC_BONNIE_TESTS(X): the twelve bonnie++ tests in bonnie++ 2.00a's order
 * (enum tests_t in bonnie.h; the order of its CSV and of bon_csv2txt's two
 * table blocks).  VDC_SWEEP_TESTS(X): the block-size sweep (seed 004's dd
 * experiment), keyed ID@BLOCK_SIZE.  VDC_DD_TESTS(X): imported dd
 * transcripts; VDC_WORKLOAD_TESTS(X): the job engine's samples (see
 * there).  Each entry is
 *
 *   X(ID, name, unit, csv_field, csv_cpu_field, csv_latency_field, group,
 *     label, short_label, chart_label)
 *
 *   ID           enum suffix (VDC_TEST_PUTC, AGENT_PUTC)
 *   name         the JSON "test" member ("putc")
 *   unit         of the value: "K/sec" (KiB/s as bonnie++ prints it),
 *                "/sec" (seeks, files), "MiB/s" (sweep)
 *   csv_*        1-based field numbers of the value, %CP and latency in
 *                bonnie++ 2.00a CSV (format 1.98, 50 fields), checked against
 *                a real /usr/sbin/bonnie++ 2.00a line and bon_csv2txt's
 *                parser; 0: no such field (sweep)
 *   group        which block of the report the test belongs to
 *                (enum vdc_test_group): renderers take their column groups
 *                from it
 *   label        "Sequential output, per-char" (tables, Markdown, HTML)
 *   short_label  column header under its group: "Per Chr"
 *   chart_label  x-axis label of the HTML charts: "Write per-char" */
#ifndef VDC_TEST_IDS_H
#define VDC_TEST_IDS_H

/* The block of the report a test is shown in. */
enum vdc_test_group {
    VDC_TEST_GROUP_IO = 0,   /* Sequential Output / Input / Random (K/sec, seeks) */
    VDC_TEST_GROUP_FILES,    /* Sequential / Random Create (files /sec) */
    VDC_TEST_GROUP_SWEEP,    /* sequential I/O by block size (MiB/s) */
    VDC_TEST_GROUP_WORKLOAD, /* fio-style jobs (IO/sec) */
};

#define VDC_BONNIE_TESTS(X) \
    X(PUTC, "putc", "K/sec", 10, 11, 39, VDC_TEST_GROUP_IO, \
      "Sequential output, per-char", "Per Chr", "Write per-char") \
    X(PUT_BLOCK, "put_block", "K/sec", 12, 13, 40, VDC_TEST_GROUP_IO, \
      "Sequential output, block", "Block", "Write block") \
    X(REWRITE, "rewrite", "K/sec", 14, 15, 41, VDC_TEST_GROUP_IO, \
      "Sequential output, rewrite", "Rewrite", "Rewrite") \
    X(GETC, "getc", "K/sec", 16, 17, 42, VDC_TEST_GROUP_IO, \
      "Sequential input, per-char", "Per Chr", "Read per-char") \
    X(GET_BLOCK, "get_block", "K/sec", 18, 19, 43, VDC_TEST_GROUP_IO, \
      "Sequential input, block", "Block", "Read block") \
    X(SEEKS, "seeks", "/sec", 20, 21, 44, VDC_TEST_GROUP_IO, \
      "Random seeks", "Seeks", "Random seeks") \
    X(SEQ_CREATE, "seq_create", "/sec", 27, 28, 45, VDC_TEST_GROUP_FILES, \
      "Sequential create", "Create", "Seq create") \
    X(SEQ_STAT, "seq_stat", "/sec", 29, 30, 46, VDC_TEST_GROUP_FILES, \
      "Sequential stat/read", "Read", "Seq read") \
    X(SEQ_DEL, "seq_del", "/sec", 31, 32, 47, VDC_TEST_GROUP_FILES, \
      "Sequential delete", "Delete", "Seq delete") \
    X(RAN_CREATE, "ran_create", "/sec", 33, 34, 48, VDC_TEST_GROUP_FILES, \
      "Random create", "Create", "Rand create") \
    X(RAN_STAT, "ran_stat", "/sec", 35, 36, 49, VDC_TEST_GROUP_FILES, \
      "Random stat/read", "Read", "Rand read") \
    X(RAN_DEL, "ran_del", "/sec", 37, 38, 50, VDC_TEST_GROUP_FILES, \
      "Random delete", "Delete", "Rand delete")

/* chart_label of a sweep test is made from its short_label and the block
 * size ("Read 4 KiB") */
#define VDC_SWEEP_TESTS(X) \
    X(SWEEP_READ, "sweep_read", "MiB/s", 0, 0, 0, VDC_TEST_GROUP_SWEEP, \
      "Sequential read at block size", "Read", "Read") \
    X(SWEEP_WRITE, "sweep_write", "MiB/s", 0, 0, 0, VDC_TEST_GROUP_SWEEP, \
      "Sequential write at block size", "Write", "Write")

/* dd transcripts (src/import/dd.c): their own tests, never mixed with the
 * bonnie++ ones or the agent's sweep; keyed by dd's block size like the
 * sweep (group sweep: the same chart).  Only the controller imports them:
 * the agent never runs dd and does not expand this list. */
#define VDC_DD_TESTS(X) \
    X(DD_READ, "dd_read", "MiB/s", 0, 0, 0, VDC_TEST_GROUP_SWEEP, \
      "dd read (of=/dev/null) at block size", "dd read", "dd read") \
    X(DD_WRITE, "dd_write", "MiB/s", 0, 0, 0, VDC_TEST_GROUP_SWEEP, \
      "dd write (if=/dev/zero) at block size", "dd write", "dd write") \
    X(DD_COPY, "dd_copy", "MiB/s", 0, 0, 0, VDC_TEST_GROUP_SWEEP, \
      "dd copy (file to file) at block size", "dd copy", "dd copy")

/* The job engine's samples (vmdiskcmp-agent --job/--workload): one per job
 * and direction, keyed ID@NAME (NAME: the job's name), in the order of the
 * agent's directions (read, write); format_version 2, doc/result-format.md
 * "Workload samples".  The agent writes them; the controller expands the
 * list at the end of vdc_tests[] (group workload, keyed ID@JOB_NAME). */
#define VDC_WORKLOAD_TESTS(X) \
    X(WORKLOAD_READ, "workload_read", "IO/sec", 0, 0, 0, VDC_TEST_GROUP_WORKLOAD, \
      "Read IOPS of a job", "Read", "Read") \
    X(WORKLOAD_WRITE, "workload_write", "IO/sec", 0, 0, 0, VDC_TEST_GROUP_WORKLOAD, \
      "Write IOPS of a job", "Write", "Write")

#endif
