# The internal libraries; each area's fragment adds its sources to one.
noinst_LIBRARIES += src/libvdc-results.a src/libvdc-controller.a
src_libvdc_results_a_SOURCES =
src_libvdc_controller_a_SOURCES =
