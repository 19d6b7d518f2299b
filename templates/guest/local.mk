# templates/guest: the default guest template (doc/guest-template.md):
# `make guest-template` builds it into $(builddir)/guest-template (cached; a
# rebuild with the same kernel, busybox-static and e2fsprogs does nothing).
GUEST_TEMPLATE_DIR = $(abs_top_builddir)/guest-template
guest-template:
	sh $(abs_top_srcdir)/templates/guest/build-template.sh $(GUEST_TEMPLATE_DIR)
.PHONY: guest-template
clean-local-guest-template:
	rm -rf $(GUEST_TEMPLATE_DIR)
# the recipe, installed: $(pkgdatadir)/guest-template/build-template.sh OUT
guesttemplatedir = $(pkgdatadir)/guest-template
dist_guesttemplate_SCRIPTS = templates/guest/build-template.sh
dist_guesttemplate_DATA = templates/guest/initramfs-init templates/guest/inittab templates/guest/rcS
