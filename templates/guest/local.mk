# SPDX-License-Identifier: GPL-2.0-or-later
# templates/guest: the default guest template (doc/guest-template.md):
# `make guest-template` builds it into $(builddir)/guest-template (cached; a
# rebuild with the same kernel, busybox-static and e2fsprogs does nothing).
# `make install` installs a built template into $(pkgdatadir)/guest, where
# `vmdiskcmp run` takes it when no --guest-image names one (an uninstalled
# vmdiskcmp takes $(builddir)/guest-template: src/common/helper.h).
GUEST_TEMPLATE_DIR = $(abs_top_builddir)/guest-template
GUEST_TEMPLATE_FILES = guest.img guest.img.manifest vmlinuz initrd.img
guestdir = $(pkgdatadir)/guest
guest-template:
	sh $(abs_top_srcdir)/templates/guest/build-template.sh $(GUEST_TEMPLATE_DIR)
.PHONY: guest-template install-guest-template uninstall-guest-template
clean-local-guest-template:
	rm -rf $(GUEST_TEMPLATE_DIR)
# the template is built from this machine's kernel and Debian packages, so
# `make install` installs it only when it was built; it says so otherwise
install-data-local: install-guest-template
install-guest-template:
	@if [ -f $(GUEST_TEMPLATE_DIR)/guest.img.manifest ]; then \
	    $(MKDIR_P) $(DESTDIR)$(guestdir) && \
	    for f in $(GUEST_TEMPLATE_FILES); do \
	        echo " $(INSTALL_DATA) $(GUEST_TEMPLATE_DIR)/$$f $(DESTDIR)$(guestdir)/$$f"; \
	        $(INSTALL_DATA) $(GUEST_TEMPLATE_DIR)/$$f $(DESTDIR)$(guestdir)/$$f || exit 1; \
	    done; \
	else \
	    echo "note: no guest template in $(GUEST_TEMPLATE_DIR) (make guest-template): none installed; vmdiskcmp run then needs --guest-image"; \
	fi
uninstall-local: uninstall-guest-template
uninstall-guest-template:
	for f in $(GUEST_TEMPLATE_FILES); do rm -f $(DESTDIR)$(guestdir)/$$f; done
# the recipe, installed: $(pkgdatadir)/guest-template/build-template.sh OUT
guesttemplatedir = $(pkgdatadir)/guest-template
dist_guesttemplate_SCRIPTS = templates/guest/build-template.sh
dist_guesttemplate_DATA = templates/guest/initramfs-init templates/guest/inittab templates/guest/rcS
