# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the agent area: cmocka unit tests of the pure modules
# (PRNG and digest, sizes and options, block signatures, renderers against
# tests/golden/agent/), and integration tests running the static agent on
# real filesystems and loop devices (root).  Whole area: ~1-2 minutes.
if WITH_CMOCKA
agent_unit_tests = tests/unit/test_agent_prng tests/unit/test_agent_options \
	tests/unit/test_agent_format tests/unit/test_agent_aging
check_PROGRAMS += $(agent_unit_tests)
TESTS += $(agent_unit_tests)
agent_unit_cflags = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -I$(top_srcdir)/guest-agent
tests_unit_test_agent_prng_SOURCES = tests/unit/test_agent_prng.c
tests_unit_test_agent_prng_CFLAGS = $(agent_unit_cflags)
tests_unit_test_agent_prng_LDADD = guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS)
tests_unit_test_agent_options_SOURCES = tests/unit/test_agent_options.c
tests_unit_test_agent_options_CFLAGS = $(agent_unit_cflags)
tests_unit_test_agent_options_LDADD = guest-agent/libvdc-agentjob.a \
	guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS) -lm
tests_unit_test_agent_aging_SOURCES = tests/unit/test_agent_aging.c
tests_unit_test_agent_aging_CFLAGS = $(agent_unit_cflags)
tests_unit_test_agent_aging_LDADD = guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS) -lm
tests_unit_test_agent_format_SOURCES = tests/unit/test_agent_format.c
tests_unit_test_agent_format_CFLAGS = $(agent_unit_cflags)
tests_unit_test_agent_format_LDADD = guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS)
# the job engine: histogram, job-file parser goldens, steady state (pure);
# the op sequences against fio 3.33's (tests/golden/agent/fio-seq); the
# engines on a tmpfs file (~1 s)
agent_job_unit_tests = tests/unit/test_agent_job tests/unit/test_agent_job_engine \
	tests/unit/test_agent_jobgen
check_PROGRAMS += $(agent_job_unit_tests)
TESTS += $(agent_job_unit_tests)
tests_unit_test_agent_job_SOURCES = tests/unit/test_agent_job.c
tests_unit_test_agent_job_CFLAGS = $(agent_unit_cflags)
tests_unit_test_agent_job_LDADD = guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS) -lm
tests_unit_test_agent_job_engine_SOURCES = tests/unit/test_agent_job_engine.c
tests_unit_test_agent_job_engine_CFLAGS = $(agent_unit_cflags) -pthread
tests_unit_test_agent_job_engine_LDADD = guest-agent/libvdc-agentjob.a \
	guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS) -lm
tests_unit_test_agent_job_engine_LDFLAGS = -pthread
tests_unit_test_agent_jobgen_SOURCES = tests/unit/test_agent_jobgen.c
tests_unit_test_agent_jobgen_CFLAGS = $(agent_unit_cflags)
tests_unit_test_agent_jobgen_LDADD = guest-agent/libvdc-agentjob.a \
	guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS) -lm
endif
EXTRA_DIST += tests/golden/agent
agent_integration_tests = tests/integration/agent-ext4.sh \
	tests/integration/agent-digest.sh tests/integration/agent-badinput.sh \
	tests/integration/agent-blockdev.sh tests/integration/agent-job.sh \
	tests/integration/agent-bonnie-syscalls.sh tests/integration/bench-wl-badinput.sh \
	tests/integration/agent-fill.sh
TESTS += $(agent_integration_tests)
EXTRA_DIST += $(agent_integration_tests) tests/integration/agent-lib.sh
# the integration tests run the static agent
$(agent_integration_tests:.sh=.log): guest-agent/vmdiskcmp-agent

# Benchmark, not a test (doc/performance.md): the agent against bonnie++
# 2.00a and fio on a loop-mounted ext4, root, ~5 minutes.
#   make bench-agent [BENCH_RUNS=5] [BENCH_SIZE=2048] [BENCH_CHUNK=8192]
# Every bonnie++ test (per-char, block, seeks, file tests, latencies),
# agent against bonnie++ only, in two passes with a summary each:
#   make bench-agent-all [BENCH_RUNS=5] ...   both passes below, one after the other
#   make bench-agent-io [BENCH_PER_CHAR=4] [BENCH_SEEKS=65536]
#       per-char (BENCH_PER_CHAR MiB), block and seeks (-s SIZE:CHUNK:SEEKS,
#       -n 0) in a memory cgroup of SIZE/8: the file is twice the RAM the
#       tools are told of, as bonnie++ wants it
#   make bench-agent-files [BENCH_FILES=512] [BENCH_FILES_MEM_MIB=1024]
#       the file tests alone (-s 0, -n BENCH_FILES) in a memory cgroup that
#       holds their inodes and dentries (512 x 1024 files: ~600 MB): in one
#       of SIZE/8 the cgroup reclaimed metadata during the stat tests and
#       the results measured the reclaim (doc/performance.md)
# BENCH_OUT=DIR keeps the raw outputs in DIR/io and DIR/files;
# BENCH_IMG_DIR=/dev/shm puts the loop device's image in RAM;
# BENCH_PASS_TOOLS='bonnie agent agentprev' VDC_AGENT_PREV=OLD_AGENT runs
# another agent build in the same interleaved rounds of either pass.
BENCH_RUNS = 5
BENCH_SIZE = 2048
BENCH_CHUNK = 8192
BENCH_PER_CHAR = 4
BENCH_SEEKS = 65536
BENCH_FILES = 512
BENCH_FILES_MEM_MIB = 1024
BENCH_PASS_TOOLS = bonnie agent
bench-agent: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' \
	BONNIE='$(BONNIE)' FIO='$(FIO)' $(SHELL) \
	  $(top_srcdir)/tests/bench/agent-vs-bonnie-fio.sh \
	  $(BENCH_RUNS) $(BENCH_SIZE) $(BENCH_CHUNK)
bench-agent-io: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' \
	BONNIE='$(BONNIE)' FIO='$(FIO)' BENCH_TOOLS='$(BENCH_PASS_TOOLS)' \
	BENCH_PER_CHAR='$(BENCH_PER_CHAR)' BENCH_SEEKS='$(BENCH_SEEKS)' BENCH_FILES=0 BENCH_SEQ=yes \
	env $${BENCH_OUT:+BENCH_OUT="$$BENCH_OUT/io"} $(SHELL) \
	  $(top_srcdir)/tests/bench/agent-vs-bonnie-fio.sh \
	  $(BENCH_RUNS) $(BENCH_SIZE) $(BENCH_CHUNK)
bench-agent-files: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' \
	BONNIE='$(BONNIE)' FIO='$(FIO)' BENCH_TOOLS='$(BENCH_PASS_TOOLS)' \
	BENCH_SEQ=no BENCH_FILES='$(BENCH_FILES)' BENCH_MEM_MIB='$(BENCH_FILES_MEM_MIB)' \
	BENCH_PER_CHAR=0 BENCH_SEEKS= \
	env $${BENCH_OUT:+BENCH_OUT="$$BENCH_OUT/files"} $(SHELL) \
	  $(top_srcdir)/tests/bench/agent-vs-bonnie-fio.sh \
	  $(BENCH_RUNS) $(BENCH_SIZE) $(BENCH_CHUNK)
# one pass after the other, also under make -j (two at once would skew both)
bench-agent-all: guest-agent/vmdiskcmp-agent
	$(MAKE) $(AM_MAKEFLAGS) bench-agent-io
	$(MAKE) $(AM_MAKEFLAGS) bench-agent-files
callgrind-agent: guest-agent/vmdiskcmp-agent
	BONNIE='$(BONNIE)' $(SHELL) $(top_srcdir)/tests/bench/agent-callgrind.sh \
	  '$(abs_top_builddir)/guest-agent/vmdiskcmp-agent'
.PHONY: bench-agent bench-agent-all bench-agent-io bench-agent-files callgrind-agent
EXTRA_DIST += tests/bench/agent-vs-bonnie-fio.sh \
	tests/bench/agent-vs-bonnie-stats.awk tests/bench/agent-callgrind.sh \
	tests/bench/pool-rounds.sh

# Benchmark, not a test (doc/performance.md): the agent's job engine
# against fio 3.33 with the shipped workload profiles on loop devices with
# direct I/O (disk- and RAM-backed), root, ~20 minutes for 3 rounds.
#   make bench-workloads [BENCH_ROUNDS=3]
# (doc/performance.md's figures: BENCH_CPU=1 BENCH_WQ_CPUS=0 ... BENCH_ROUNDS=8;
# fio's buffers in huge pages unless BENCH_FIO_MEM=malloc)
BENCH_ROUNDS = 3
bench-workloads: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' FIO='$(FIO)' \
	VDC_WORKLOAD_DIR='$(abs_top_srcdir)/templates/workloads' $(SHELL) \
	  $(top_srcdir)/tests/bench/workloads-vs-fio.sh $(BENCH_ROUNDS)
.PHONY: bench-workloads
EXTRA_DIST += tests/bench/workloads-vs-fio.sh tests/bench/clone-model.sh tests/bench/fio-vs-fio.sh \
	tests/bench/null-callgrind.sh tests/bench/block-requests.sh \
	tests/bench/modern-summary.sh

# Benchmark, not a test (doc/performance.md, "At modern speeds"): the
# instrument where the device is fast, all against bonnie++ 2.00a and fio
# 3.33, each pass interleaved and summarised (ratios with 95 % intervals):
#   make bench-block-fast [BENCH_RUNS=8] [BENCH_FAST_SIZE=4096]
#       block write, rewrite and block read of a 4 GiB file on ext4 over a
#       direct-I/O loop device on the machine's disk (above 1 GB/s here),
#       agent/bonnie++ and agent --drop-caches/fio (bench-agent's script)
#   make bench-jobs [BENCH_ROUNDS=6]
#       tests/bench/jobs: numjobs 2 and 4, io_uring and psync, sequential
#       and random, group_reporting, on the disk and RAM loop devices
#   make bench-null [BENCH_ROUNDS=6]
#       the null engine's jobs: CPU per I/O and I/Os per CPU second, agent
#       against fio's null engine
#   make bench-fastest [BENCH_ROUNDS=6]
#       the fastest target here, the RAM-backed loop device: 4 KiB random
#       I/O at QD1 and QD32 (the profiles), IOPS, CPU per I/O and I/Os per
#       CPU second against fio
#   make bench-modern: the four, one after the other, raw outputs in
#       BENCH_OUT/block, /jobs, /null and /fastest (BENCH_OUT required),
#       then their summaries together and the ratios to show side by side
#       (tests/bench/modern-summary.sh BENCH_OUT, also on its own)
BENCH_FAST_SIZE = 4096
bench_jobs_files = uring-randwrite-16k-qd8-nj2 uring-read-128k-qd4-nj4 \
	psync-read-128k-nj4 psync-randread-4k-nj2
bench_null_files = null-randread-4k-qd1 null-randwrite-4k-qd8
bench-block-fast: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' \
	BONNIE='$(BONNIE)' FIO='$(FIO)' \
	env $${BENCH_OUT:+BENCH_OUT="$$BENCH_OUT/block"} $(SHELL) \
	  $(top_srcdir)/tests/bench/agent-vs-bonnie-fio.sh \
	  $(BENCH_RUNS) $(BENCH_FAST_SIZE) $(BENCH_CHUNK)
bench-jobs: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' FIO='$(FIO)' \
	BENCH_WORKLOADS='$(bench_jobs_files:%=$(abs_top_srcdir)/tests/bench/jobs/%.fio)' \
	env $${BENCH_OUT:+BENCH_OUT="$$BENCH_OUT/jobs"} $(SHELL) \
	  $(top_srcdir)/tests/bench/workloads-vs-fio.sh $(BENCH_ROUNDS)
bench-null: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' FIO='$(FIO)' \
	BENCH_WORKLOADS='$(bench_null_files:%=$(abs_top_srcdir)/tests/bench/jobs/%.fio)' \
	BENCH_TARGETS=ram \
	env $${BENCH_OUT:+BENCH_OUT="$$BENCH_OUT/null"} $(SHELL) \
	  $(top_srcdir)/tests/bench/workloads-vs-fio.sh $(BENCH_ROUNDS)
bench-fastest: guest-agent/vmdiskcmp-agent
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent' FIO='$(FIO)' \
	VDC_WORKLOAD_DIR='$(abs_top_srcdir)/templates/workloads' \
	BENCH_WORKLOADS='randread-4k-qd1 randread-4k-qd32 randwrite-4k-qd32' BENCH_TARGETS=ram \
	env $${BENCH_OUT:+BENCH_OUT="$$BENCH_OUT/fastest"} $(SHELL) \
	  $(top_srcdir)/tests/bench/workloads-vs-fio.sh $(BENCH_ROUNDS)
# one pass after the other, also under make -j
bench-modern: guest-agent/vmdiskcmp-agent
	@test -n "$$BENCH_OUT" || { echo "bench-modern: BENCH_OUT=DIR: expected a directory for the raw outputs" >&2; exit 2; }
	$(MAKE) $(AM_MAKEFLAGS) bench-block-fast
	$(MAKE) $(AM_MAKEFLAGS) bench-jobs
	$(MAKE) $(AM_MAKEFLAGS) bench-null
	$(MAKE) $(AM_MAKEFLAGS) bench-fastest
	@for p in block jobs null fastest; do echo "== $$p: $$BENCH_OUT/$$p/summary.txt"; cat "$$BENCH_OUT/$$p/summary.txt"; done
	@echo "== the ratios to show, side by side (tests/bench/modern-summary.sh)"
	@$(SHELL) $(top_srcdir)/tests/bench/modern-summary.sh "$$BENCH_OUT"
# the null engine's instructions per I/O against fio's (callgrind: not a
# timing, the same on a loaded machine; ~3 minutes)
callgrind-null: guest-agent/vmdiskcmp-agent
	FIO='$(FIO)' $(SHELL) $(top_srcdir)/tests/bench/null-callgrind.sh \
	  '$(abs_top_builddir)/guest-agent/vmdiskcmp-agent'
.PHONY: bench-block-fast bench-jobs bench-null bench-fastest bench-modern callgrind-null
EXTRA_DIST += $(bench_jobs_files:%=tests/bench/jobs/%.fio) \
	$(bench_null_files:%=tests/bench/jobs/%.fio)
