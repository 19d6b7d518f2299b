/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result model's member tables (result_fields.h): every JSON member of
 * doc/result-format.md mapped onto its C struct member once, and the init,
 * dispose and copy they drive. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "model/result.h"
#include "model/result_fields.h"

const vdc_field vdc_sample_fields[] = {
    F(VDC_F_STR, vdc_sample, test, "test", VDC_FF_REQUIRED),
    F(VDC_F_NUM, vdc_sample, value, "value", VDC_FF_REQUIRED | NUL | NN),
    F(VDC_F_STR, vdc_sample, unit, "unit", 0),
    F(VDC_F_NUM, vdc_sample, cpu_percent, "cpu_percent", NUL | NN),
    F(VDC_F_NUM, vdc_sample, latency_us, "latency_us", NUL | NN),
    F(VDC_F_NUM, vdc_sample, elapsed_s, "elapsed_s", NUL | NN),
    F(VDC_F_FLAG, vdc_sample, too_fast, "too_fast", 0),
    F(VDC_F_FLAG, vdc_sample, failed, "failed", 0),
    F(VDC_F_STR, vdc_sample, error, "error", NUL),
    F(VDC_F_STR, vdc_sample, pass, "pass", 0),
    F(VDC_F_INT, vdc_sample, block_size, "block_size", NN),
    F(VDC_F_NUM, vdc_sample, user_s, "user_s", NN),
    F(VDC_F_NUM, vdc_sample, system_s, "system_s", NN),
    F(VDC_F_NUM, vdc_sample, system_us_per_op, "system_us_per_op", NN),
    F(VDC_F_INT, vdc_sample, bytes, "bytes", NN),
    F(VDC_F_INT, vdc_sample, ops, "ops", NN),
    F(VDC_F_NUM, vdc_sample, real_s, "real_s", NN),
    END
};

static const vdc_field files_fields[] = {
    F(VDC_F_INT, vdc_files_info, number, "number", NN),
    F(VDC_F_INT, vdc_files_info, max_size, "max_size", NN),
    F(VDC_F_INT, vdc_files_info, min_size, "min_size", NN),
    F(VDC_F_INT, vdc_files_info, dirs, "dirs", NN),
    F(VDC_F_INT, vdc_files_info, chunk_size, "chunk_size", NN),
    END
};

static const vdc_field source_fields[] = {
    F(VDC_F_STR, vdc_source_info, file, "file", 0),
    F(VDC_F_INT, vdc_source_info, line, "line", NN),
    F(VDC_F_STR, vdc_source_info, format, "format", 0),
    F(VDC_F_STR, vdc_source_info, section, "section", 0),
    END
};

static const vdc_field meta_fields[] = {
    F(VDC_F_STR, vdc_run_meta, tool, "tool", 0),
    F(VDC_F_STR, vdc_run_meta, hostname, "hostname", 0),
    F(VDC_F_STR, vdc_run_meta, kernel, "kernel", 0),
    F(VDC_F_STR, vdc_run_meta, cpu_model, "cpu_model", 0),
    F(VDC_F_INT, vdc_run_meta, ram_mib, "ram_mib", NN),
    F(VDC_F_STR, vdc_run_meta, date, "date", 0),
    F(VDC_F_STR, vdc_run_meta, command_line, "command_line", VDC_FF_LONG),
    F(VDC_F_STR, vdc_run_meta, seed, "seed", 0),
    F(VDC_F_INT, vdc_run_meta, file_size_mib, "file_size_mib", NN),
    F(VDC_F_INT, vdc_run_meta, chunk_size, "chunk_size", NN),
    F(VDC_F_INT, vdc_run_meta, seeks, "seeks", NN),
    F(VDC_F_INT, vdc_run_meta, seek_processes, "seek_processes", NN),
    F(VDC_F_INT, vdc_run_meta, concurrency, "concurrency", NN),
    O(vdc_run_meta, files, "files", files_fields),
    F(VDC_F_STR, vdc_run_meta, path, "path", 0),
    F(VDC_F_STR, vdc_run_meta, fs_type, "fs_type", 0),
    F(VDC_F_STR, vdc_run_meta, device, "device", VDC_FF_NULLABLE),   /* agent: null = not known (tmpfs) */
    F(VDC_F_BOOL, vdc_run_meta, direct_io, "direct_io", 0),
    F(VDC_F_BOOL, vdc_run_meta, fsync_every_write, "fsync_every_write", 0),
    F(VDC_F_STR, vdc_run_meta, per_char, "per_char", 0),
    F(VDC_F_STR, vdc_run_meta, trace_digest, "trace_digest", 0),
    F(VDC_F_INT, vdc_run_meta, file_size_bytes, "file_size_bytes", NN),
    F(VDC_F_INT, vdc_run_meta, per_char_size, "per_char_size", NN),
    F(VDC_F_BOOL, vdc_run_meta, sweep_direct_io, "sweep_direct_io", 0),
    F(VDC_F_BOOL, vdc_run_meta, drop_caches, "drop_caches", 0),
    F(VDC_F_STR, vdc_run_meta, dd_conv, "dd_conv", 0),
    F(VDC_F_STR, vdc_run_meta, dd_iflag, "dd_iflag", 0),
    F(VDC_F_STR, vdc_run_meta, dd_oflag, "dd_oflag", 0),
    O(vdc_run_meta, source, "source", source_fields),
    END
};

/* runs[].release: monotonic seconds on the controller's clock */
static const vdc_field release_fields[] = {
    F(VDC_F_NUM, vdc_run_release, ready_s, "ready_s", NN),
    F(VDC_F_NUM, vdc_run_release, released_s, "released_s", NN),
    F(VDC_F_NUM, vdc_run_release, started_s, "started_s", NN),
    END
};

/* "samples" is handled by hand (an array of objects) */
const vdc_field vdc_run_fields[] = {
    F(VDC_F_STR, vdc_run, target, "target", VDC_FF_REQUIRED),
    F(VDC_F_INT, vdc_run, repetition, "repetition", NN),
    F(VDC_F_INT, vdc_run, level, "level", NN),
    F(VDC_F_INT, vdc_run, guest, "guest", NN),
    O(vdc_run, release, "release", release_fields),
    F(VDC_F_STR, vdc_run, status, "status", 0),
    F(VDC_F_STR, vdc_run, error, "error", NUL),
    O(vdc_run, meta, "metadata", meta_fields),
    END
};

static const vdc_field requested_fields[] = {
    F(VDC_F_STR, vdc_target_requested, disk_spec, "disk_spec", 0),
    F(VDC_F_STR, vdc_target_requested, domain_xml_disk, "domain_xml_disk", VDC_FF_LONG),
    F(VDC_F_STR, vdc_target_requested, image_backend, "image_backend", 0),
    F(VDC_F_STR, vdc_target_requested, image_cache, "image_cache", 0),
    F(VDC_F_STR, vdc_target_requested, disk_cache, "disk_cache", 0),
    F(VDC_F_STR, vdc_target_requested, disk_io, "disk_io", 0),
    F(VDC_F_INT, vdc_target_requested, iothreads, "iothreads", NN),
    F(VDC_F_INT, vdc_target_requested, queues, "queues", NN),
    F(VDC_F_STR, vdc_target_requested, disk_bus, "disk_bus", 0),
    END
};

static const vdc_field backend_qemu_fields[] = {
    F(VDC_F_BOOL, vdc_target_backend_qemu, cache_direct, "cache_direct", 0),
    F(VDC_F_BOOL, vdc_target_backend_qemu, cache_no_flush, "cache_no_flush", 0),
    F(VDC_F_BOOL, vdc_target_backend_qemu, cache_writeback, "cache_writeback", 0),
    F(VDC_F_STR, vdc_target_backend_qemu, aio, "aio", 0),
    /* null: no I/O thread */
    F(VDC_F_STR, vdc_target_backend_qemu, iothread, "iothread", VDC_FF_NULLABLE),
    F(VDC_F_INT, vdc_target_backend_qemu, queues, "queues", NN),
    F(VDC_F_STR, vdc_target_backend_qemu, source, "source", 0),
    END
};

const vdc_field vdc_backend_fields[] = {
    F(VDC_F_STR, vdc_target_backend, type, "type", 0),
    F(VDC_F_STR, vdc_target_backend, source, "source", 0),
    F(VDC_F_STR, vdc_target_backend, xenstore_path, "xenstore_path", 0),
    F(VDC_F_STR, vdc_target_backend, physical_device, "physical_device", 0),
    F(VDC_F_STR, vdc_target_backend, params, "params", 0),
    F(VDC_F_BOOL, vdc_target_backend, direct_io_safe, "direct_io_safe", 0),
    F(VDC_F_STR, vdc_target_backend, mode, "mode", 0),
    F(VDC_F_STR, vdc_target_backend, vdev, "vdev", 0),
    F(VDC_F_STR, vdc_target_backend, driver_name, "driver_name", 0),
    F(VDC_F_STR, vdc_target_backend, cache, "cache", 0),
    F(VDC_F_STR, vdc_target_backend, io, "io", 0),
    F(VDC_F_STR, vdc_target_backend, bus, "bus", 0),
    /* null: no I/O thread */
    F(VDC_F_INT, vdc_target_backend, iothread, "iothread", NN | VDC_FF_NULLABLE),
    F(VDC_F_INT, vdc_target_backend, queues, "queues", NN),
    O(vdc_target_backend, qemu, "qemu", backend_qemu_fields),
    F(VDC_F_INT, vdc_target_backend, max_ring_page_order, "max_ring_page_order", NN),
    F(VDC_F_INT, vdc_target_backend, max_queues, "max_queues", NN),
    F(VDC_F_INT, vdc_target_backend, ring_page_order, "ring_page_order", NN),
    F(VDC_F_INT, vdc_target_backend, frontend_state, "frontend_state", NN),
    END
};

static const vdc_field thin_fields[] = {
    F(VDC_F_STR, vdc_target_thin, pool, "pool", 0),
    /* null: lvm2's report could not be read */
    F(VDC_F_INT, vdc_target_thin, chunk_size, "chunk_size", NN | VDC_FF_NULLABLE),
    F(VDC_F_BOOL, vdc_target_thin, zeroing, "zeroing", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_thin, discards, "discards", 0),
    FMAX(VDC_F_INT, vdc_target_thin, pool_size, "pool_size", NN, VDC_BYTES_MAX),
    FMAX(VDC_F_INT, vdc_target_thin, metadata_size, "metadata_size", NN, VDC_BYTES_MAX),
    F(VDC_F_STR, vdc_target_thin, source, "source", 0),
    END     /* "data_percent" and "metadata_percent" by hand */
};

static const vdc_field qcow2_fields[] = {
    F(VDC_F_INT, vdc_target_qcow2, cluster_size, "cluster_size", NN | VDC_FF_NULLABLE),
    /* null: QEMU's default */
    F(VDC_F_INT, vdc_target_qcow2, l2_cache_size, "l2_cache_size", NN | VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_qcow2, preallocation, "preallocation", 0),
    F(VDC_F_INT, vdc_target_qcow2, virtual_size, "virtual_size", NN),
    F(VDC_F_INT, vdc_target_qcow2, actual_size, "actual_size", NN),
    F(VDC_F_STR, vdc_target_qcow2, compat, "compat", 0),
    F(VDC_F_BOOL, vdc_target_qcow2, lazy_refcounts, "lazy_refcounts", 0),
    F(VDC_F_BOOL, vdc_target_qcow2, extended_l2, "extended_l2", 0),
    F(VDC_F_INT, vdc_target_qcow2, mapped_bytes, "mapped_bytes", NN),
    F(VDC_F_INT, vdc_target_qcow2, mapped_zero_bytes, "mapped_zero_bytes", NN),
    F(VDC_F_STR, vdc_target_qcow2, source, "source", 0),
    END
};

const vdc_field vdc_storage_fields[] = {
    F(VDC_F_STR, vdc_target_storage, path, "path", 0),
    FMAX(VDC_F_INT, vdc_target_storage, size_bytes, "size_bytes", NN, VDC_BYTES_MAX),
    F(VDC_F_STR, vdc_target_storage, format, "format", 0),
    F(VDC_F_STR, vdc_target_storage, alloc, "alloc", 0),
    F(VDC_F_STR, vdc_target_storage, vg, "vg", 0),
    F(VDC_F_STR, vdc_target_storage, lv, "lv", 0),
    F(VDC_F_INT, vdc_target_storage, stripes, "stripes", NN),
    F(VDC_F_INT, vdc_target_storage, stripe_size, "stripe_size", NN),
    /* null: not known (an LV whose VG did not report it) */
    F(VDC_F_INT, vdc_target_storage, pe_start, "pe_start", NN | VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_storage, device, "device", 0),
    F(VDC_F_STR, vdc_target_storage, lv_type, "lv_type", 0),
    O(vdc_target_storage, thin, "thin", thin_fields),
    O(vdc_target_storage, qcow2, "qcow2", qcow2_fields),
    END
};

static const vdc_field align_guest_fields[] = {
    F(VDC_F_STR, vdc_target_align_guest, disk, "disk", 0),
    F(VDC_F_INT, vdc_target_align_guest, physical_block_size, "physical_block_size", NN),
    F(VDC_F_INT, vdc_target_align_guest, minimum_io_size, "minimum_io_size", NN),
    F(VDC_F_INT, vdc_target_align_guest, optimal_io_size, "optimal_io_size", NN),
    F(VDC_F_INT, vdc_target_align_guest, alignment_offset, "alignment_offset", NN),
    F(VDC_F_STR, vdc_target_align_guest, source, "source", 0),
    END
};

/* "layers" and "misaligned" are handled by hand */
static const vdc_field alignment_fields[] = {
    F(VDC_F_STR, vdc_target_alignment, disk, "disk", 0),
    F(VDC_F_INT, vdc_target_alignment, physical_block_size, "physical_block_size", NN),
    F(VDC_F_INT, vdc_target_alignment, minimum_io_size, "minimum_io_size", NN),
    F(VDC_F_INT, vdc_target_alignment, optimal_io_size, "optimal_io_size", NN),
    F(VDC_F_INT, vdc_target_alignment, alignment_offset, "alignment_offset", NN),
    F(VDC_F_STR, vdc_target_alignment, source, "source", 0),
    O(vdc_target_alignment, guest, "guest", align_guest_fields),
    END
};

static const vdc_field filesystem_fields[] = {
    F(VDC_F_STR, vdc_target_filesystem, type, "type", 0),
    F(VDC_F_STR, vdc_target_filesystem, mkfs_options, "mkfs_options", 0),
    END
};

const vdc_field vdc_cache_fields[] = {
    F(VDC_F_STR, vdc_target_cache, requested, "requested", 0),
    F(VDC_F_BOOL, vdc_target_cache, bypasses_dom0_page_cache, "bypasses_dom0_page_cache", 0),
    F(VDC_F_STR, vdc_target_cache, loop_device, "loop_device", 0),
    F(VDC_F_STR, vdc_target_cache, loop_backing_file, "loop_backing_file", 0),
    F(VDC_F_BOOL, vdc_target_cache, loop_dio, "loop_dio", 0),
    F(VDC_F_INT, vdc_target_cache, loop_offset, "loop_offset", NN),
    /* null: the key is absent in xenstore */
    F(VDC_F_BOOL, vdc_target_cache, direct_io_safe, "direct_io_safe", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_cache, libvirt_cache, "libvirt_cache", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_target_cache, libvirt_io, "libvirt_io", VDC_FF_NULLABLE),
    F(VDC_F_INT, vdc_target_cache, qemu_pid, "qemu_pid", NN),
    F(VDC_F_BOOL, vdc_target_cache, qemu_o_direct, "qemu_o_direct", 0),
    F(VDC_F_STR, vdc_target_cache, source, "source", 0),
    F(VDC_F_STR, vdc_target_cache, error, "error", 0),
    END
};

/* "ranges" is handled by hand (an array of [start, length]) */
static const vdc_field placement_fields[] = {
    F(VDC_F_STR, vdc_target_placement, disk, "disk", 0),
    F(VDC_F_BOOL, vdc_target_placement, rotational, "rotational", 0),
    F(VDC_F_INT, vdc_target_placement, disk_bytes, "disk_bytes", NN),
    F(VDC_F_INT, vdc_target_placement, extents, "extents", NN),
    F(VDC_F_INT, vdc_target_placement, mapped_bytes, "mapped_bytes", NN),
    F(VDC_F_INT, vdc_target_placement, unmapped_bytes, "unmapped_bytes", NN),
    FMAX(VDC_F_NUM, vdc_target_placement, center_bytes, "center_bytes", NN, VDC_BYTES_MAX),
    F(VDC_F_INT, vdc_target_placement, ranges_omitted, "ranges_omitted", NN),
    F(VDC_F_STR, vdc_target_placement, source, "source", 0),
    F(VDC_F_STR, vdc_target_placement, reason, "reason", 0),
    END
};

const vdc_field vdc_variant_fields[] = {
    F(VDC_F_STR, vdc_target_variant, image_format, "image_format", 0),
    F(VDC_F_STR, vdc_target_variant, image_alloc, "image_alloc", 0),
    F(VDC_F_STR, vdc_target_variant, image_backend, "image_backend", 0),
    F(VDC_F_STR, vdc_target_variant, image_cache, "image_cache", 0),
    F(VDC_F_STR, vdc_target_variant, disk_cache, "disk_cache", 0),
    F(VDC_F_STR, vdc_target_variant, disk_io, "disk_io", 0),
    F(VDC_F_INT, vdc_target_variant, iothreads, "iothreads", NN),
    F(VDC_F_STR, vdc_target_variant, disk_bus, "disk_bus", 0),
    F(VDC_F_STR, vdc_target_variant, lv_type, "lv_type", 0),
    F(VDC_F_INT, vdc_target_variant, fill_percent, "fill_percent", NN),
    F(VDC_F_BOOL, vdc_target_variant, precondition, "precondition", 0),
    END
};

static const vdc_field provenance_fields[] = {
    F(VDC_F_STR, vdc_target_provenance, kind, "kind", 0),
    F(VDC_F_STR, vdc_target_provenance, memory_mib, "memory_mib", 0),
    F(VDC_F_STR, vdc_target_provenance, dom0_memory_mib, "dom0_memory_mib", 0),
    END
};

const vdc_field vdc_target_fields[] = {
    F(VDC_F_STR, vdc_target, name, "name", VDC_FF_REQUIRED),
    F(VDC_F_STR, vdc_target, kind, "kind", 0),
    F(VDC_F_STR, vdc_target, where, "where", 0),
    O(vdc_target, variant, "variant", vdc_variant_fields),
    F(VDC_F_INT, vdc_target, memory_mib, "memory_mib", NN),
    F(VDC_F_INT, vdc_target, dom0_memory_mib, "dom0_memory_mib", NN),
    O(vdc_target, provenance, "provenance", provenance_fields),
    O(vdc_target, requested, "requested", requested_fields),
    O(vdc_target, backend, "backend", vdc_backend_fields),
    O(vdc_target, storage, "storage", vdc_storage_fields),
    O(vdc_target, filesystem, "filesystem", filesystem_fields),
    O(vdc_target, cache, "cache", vdc_cache_fields),
    O(vdc_target, placement, "placement", placement_fields),
    O(vdc_target, alignment, "alignment", alignment_fields),
    END
};

static const vdc_field image_dir_fields[] = {
    F(VDC_F_STR, vdc_image_dir_info, path, "path", 0),
    F(VDC_F_STR, vdc_image_dir_info, fs_type, "fs_type", 0),
    F(VDC_F_STR, vdc_image_dir_info, device, "device", 0),
    F(VDC_F_BOOL, vdc_image_dir_info, rotational, "rotational", 0),
    F(VDC_F_STR, vdc_image_dir_info, scheduler, "scheduler", 0),
    F(VDC_F_STR, vdc_image_dir_info, model, "model", 0),
    F(VDC_F_INT, vdc_image_dir_info, logical_block_size, "logical_block_size", NN),
    F(VDC_F_INT, vdc_image_dir_info, physical_block_size, "physical_block_size", NN),
    END
};

static const vdc_field blkback_param_fields[] = {
    F(VDC_F_INT, vdc_blkback_param_info, was, "was", NN),
    F(VDC_F_INT, vdc_blkback_param_info, set, "set", NN),
    F(VDC_F_INT, vdc_blkback_param_info, read_back, "read_back", NN),
    F(VDC_F_INT, vdc_blkback_param_info, restored, "restored", NN),
    END
};

static const vdc_field blkback_fields[] = {
    F(VDC_F_STR, vdc_blkback_info, source, "source", 0),
    O(vdc_blkback_info, max_ring_page_order, "max_ring_page_order", blkback_param_fields),
    O(vdc_blkback_info, max_queues, "max_queues", blkback_param_fields),
    END
};

static const vdc_field host_fields[] = {
    F(VDC_F_STR, vdc_host_info, hostname, "hostname", 0),
    F(VDC_F_STR, vdc_host_info, kernel, "kernel", 0),
    F(VDC_F_STR, vdc_host_info, cpu_model, "cpu_model", 0),
    F(VDC_F_INT, vdc_host_info, cpu_count, "cpu_count", NN),
    F(VDC_F_INT, vdc_host_info, ram_mib, "ram_mib", NN),
    F(VDC_F_STR, vdc_host_info, cpu_governor, "cpu_governor", 0),
    F(VDC_F_STR, vdc_host_info, cmdline, "cmdline", VDC_FF_LONG),
    F(VDC_F_STR, vdc_host_info, mkfs_version, "mkfs_version", 0),
    O(vdc_host_info, image_dir, "image_dir", image_dir_fields),
    O(vdc_host_info, blkback, "blkback", blkback_fields),
    END
};

const vdc_field vdc_hypervisor_fields[] = {
    F(VDC_F_STR, vdc_hypervisor_info, driver, "driver", 0),
    F(VDC_F_STR, vdc_hypervisor_info, uri, "uri", 0),
    F(VDC_F_STR, vdc_hypervisor_info, xen_version, "xen_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, libvirt_version, "libvirt_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, qemu_version, "qemu_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, libxl_version, "libxl_version", 0),
    F(VDC_F_STR, vdc_hypervisor_info, xen_commandline, "xen_commandline", 0),
    END
};

static const vdc_field guest_fields[] = {
    F(VDC_F_STR, vdc_guest_info, template_path, "template", 0),
    F(VDC_F_STR, vdc_guest_info, template_sha256, "template_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, agent_sha256, "agent_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, prepared_image, "prepared_image", 0),
    F(VDC_F_INT, vdc_guest_info, memory_mib, "memory_mib", NN),
    F(VDC_F_INT, vdc_guest_info, vcpus, "vcpus", NN),
    F(VDC_F_STR, vdc_guest_info, kernel, "kernel", 0),
    F(VDC_F_STR, vdc_guest_info, kernel_sha256, "kernel_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, initrd, "initrd", 0),
    F(VDC_F_STR, vdc_guest_info, initrd_sha256, "initrd_sha256", 0),
    F(VDC_F_STR, vdc_guest_info, cmdline, "cmdline", VDC_FF_LONG),
    END
};

/* experiment.runs_policy; its "stop" array is loaded and written by
 * load_stop and runs_policy_stop_json with vdc_stop_record_fields */
static const vdc_field runs_policy_fields[] = {
    F(VDC_F_STR, vdc_runs_policy, mode, "mode", 0),
    F(VDC_F_INT, vdc_runs_policy, min_runs, "min_runs", NN),
    F(VDC_F_INT, vdc_runs_policy, max_runs, "max_runs", NN),
    F(VDC_F_NUM, vdc_runs_policy, precision_percent, "precision_percent", NN),
    END
};

/* experiment.time: seconds */
static const vdc_field time_fields[] = {
    F(VDC_F_NUM, vdc_time_info, total_s, "total_s", NN),
    F(VDC_F_NUM, vdc_time_info, prepare_s, "prepare_s", NN),
    F(VDC_F_NUM, vdc_time_info, provision_s, "provision_s", NN),
    F(VDC_F_NUM, vdc_time_info, domu_s, "domu_s", NN),
    F(VDC_F_NUM, vdc_time_info, domu_agent_s, "domu_agent_s", NN),
    F(VDC_F_NUM, vdc_time_info, dom0_s, "dom0_s", NN),
    F(VDC_F_NUM, vdc_time_info, teardown_s, "teardown_s", NN),
    END
};

const vdc_field vdc_stop_record_fields[] = {
    F(VDC_F_STR, vdc_stop_record, test, "test", VDC_FF_REQUIRED),
    F(VDC_F_STR, vdc_stop_record, target, "target", 0),
    F(VDC_F_STR, vdc_stop_record, reference, "reference", 0),
    F(VDC_F_STR, vdc_stop_record, reason, "reason", VDC_FF_REQUIRED),
    F(VDC_F_INT, vdc_stop_record, runs, "runs", NN),
    F(VDC_F_NUM, vdc_stop_record, half_width_percent, "half_width_percent", NN),
    END
};

/* experiment.levels[i]; its "host" object is loaded and written by hand */
const vdc_field vdc_level_record_fields[] = {
    F(VDC_F_INT, vdc_level_record, guests, "guests", VDC_FF_REQUIRED | NN),
    F(VDC_F_INT, vdc_level_record, repetition, "repetition", NN),
    F(VDC_F_STR, vdc_level_record, target, "target", 0),
    F(VDC_F_NUM, vdc_level_record, start_skew_s, "start_skew_s", NN),
    F(VDC_F_STR, vdc_level_record, status, "status", 0),
    F(VDC_F_STR, vdc_level_record, error, "error", NUL),
    END
};

const vdc_field vdc_experiment_fields[] = {
    F(VDC_F_STR, vdc_experiment, id, "id", 0),
    F(VDC_F_STR, vdc_experiment, build, "build", 0),
    F(VDC_F_STR, vdc_experiment, date, "date", 0),
    F(VDC_F_STR, vdc_experiment, command_line, "command_line", VDC_FF_LONG),
    F(VDC_F_STR, vdc_experiment, seed, "seed", 0),
    F(VDC_F_INT, vdc_experiment, runs_per_target, "runs_per_target", NN),
    F(VDC_F_STR, vdc_experiment, order, "order", 0),
    O(vdc_experiment, runs_policy, "runs_policy", runs_policy_fields),
    O(vdc_experiment, time, "time", time_fields),
    F(VDC_F_BOOL, vdc_experiment, emulated, "emulated", 0),
    O(vdc_experiment, host, "host", host_fields),
    O(vdc_experiment, hypervisor, "hypervisor", vdc_hypervisor_fields),
    O(vdc_experiment, guest, "guest", guest_fields),
    END
};

/* ---- Generic init/dispose/copy over the member tables ------------------- */

void
vdc_fields_init(const vdc_field *fields, void *obj)
{
    const vdc_field *f;
    char *base = obj;

    for (f = fields; f->name; f++) {
        switch (f->type) {
        case VDC_F_STR: *(char **)(base + f->off) = NULL; break;
        case VDC_F_INT: *(int64_t *)(base + f->off) = VDC_INT_ABSENT; break;
        case VDC_F_NUM: *(double *)(base + f->off) = NAN; break;
        case VDC_F_BOOL: *(int *)(base + f->off) = VDC_BOOL_ABSENT; break;
        case VDC_F_FLAG: *(int *)(base + f->off) = 0; break;
        case VDC_F_OBJ: vdc_fields_init(f->sub, base + f->off); break;
        }
    }
}

void
vdc_fields_dispose(const vdc_field *fields, void *obj)
{
    const vdc_field *f;
    char *base = obj;

    for (f = fields; f->name; f++) {
        if (f->type == VDC_F_STR)
            g_clear_pointer((char **)(base + f->off), g_free);
        else if (f->type == VDC_F_OBJ)
            vdc_fields_dispose(f->sub, base + f->off);
    }
    vdc_fields_init(fields, obj);
}

void
vdc_fields_copy(const vdc_field *fields, void *dst, const void *src)
{
    const vdc_field *f;
    char *d = dst;
    const char *s = src;

    for (f = fields; f->name; f++) {
        switch (f->type) {
        case VDC_F_STR:
            vdc_set_str((char **)(d + f->off), *(char *const *)(s + f->off));
            break;
        case VDC_F_INT: *(int64_t *)(d + f->off) = *(const int64_t *)(s + f->off); break;
        case VDC_F_NUM: *(double *)(d + f->off) = *(const double *)(s + f->off); break;
        case VDC_F_BOOL:
        case VDC_F_FLAG: *(int *)(d + f->off) = *(const int *)(s + f->off); break;
        case VDC_F_OBJ: vdc_fields_copy(f->sub, d + f->off, s + f->off); break;
        }
    }
}

void vdc_target_cache_init(vdc_target_cache *c) { vdc_fields_init(vdc_cache_fields, c); }
void vdc_target_cache_dispose(vdc_target_cache *c) { vdc_fields_dispose(vdc_cache_fields, c); }

void
vdc_target_cache_copy(vdc_target_cache *dst, const vdc_target_cache *src)
{
    vdc_fields_dispose(vdc_cache_fields, dst);
    vdc_fields_copy(vdc_cache_fields, dst, src);
}
