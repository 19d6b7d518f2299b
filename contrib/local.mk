# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/ansible: the fleet's role and playbook, installed under
# $(pkgdatadir)/ansible (doc/fleet.md); `make deb`: the Debian package
# (debian/) built from a copy of the tree (make distdir) into
# $(builddir)/deb/, lintian run on it when installed.
ansibledir = $(pkgdatadir)/ansible
dist_ansible_DATA = contrib/ansible/fleet.yml contrib/ansible/inventory.example.yml
ansibleroledir = $(pkgdatadir)/ansible/roles/vmdiskcmp_fleet
ansibledefaultsdir = $(ansibleroledir)/defaults
dist_ansibledefaults_DATA = contrib/ansible/roles/vmdiskcmp_fleet/defaults/main.yml
ansiblevarsdir = $(ansibleroledir)/vars
dist_ansiblevars_DATA = contrib/ansible/roles/vmdiskcmp_fleet/vars/main.yml
ansiblemetadir = $(ansibleroledir)/meta
dist_ansiblemeta_DATA = contrib/ansible/roles/vmdiskcmp_fleet/meta/main.yml
ansibletasksdir = $(ansibleroledir)/tasks
dist_ansibletasks_DATA = \
	contrib/ansible/roles/vmdiskcmp_fleet/tasks/main.yml \
	contrib/ansible/roles/vmdiskcmp_fleet/tasks/validate.yml \
	contrib/ansible/roles/vmdiskcmp_fleet/tasks/install.yml \
	contrib/ansible/roles/vmdiskcmp_fleet/tasks/image.yml \
	contrib/ansible/roles/vmdiskcmp_fleet/tasks/run.yml \
	contrib/ansible/roles/vmdiskcmp_fleet/tasks/cleanup.yml
ansibletemplatesdir = $(ansibleroledir)/templates
dist_ansibletemplates_DATA = contrib/ansible/roles/vmdiskcmp_fleet/templates/job.args.j2

EXTRA_DIST += debian

DEB_DIR = $(abs_top_builddir)/deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(DEB_DIR)/$(PACKAGE)-$(VERSION)
	cd $(DEB_DIR)/$(PACKAGE)-$(VERSION) && DEB_BUILD_OPTIONS="nocheck parallel=$$(nproc) $${DEB_BUILD_OPTIONS:-}" \
		dpkg-buildpackage -b -us -uc
	@if command -v lintian >/dev/null; then \
		echo "lintian $(DEB_DIR)/*.changes"; \
		lintian --fail-on error,warning --info $(DEB_DIR)/*.changes || exit 1; \
	else echo "lintian not installed: not checked"; fi
	@ls -l $(DEB_DIR)/*.deb
clean-local-deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)
.PHONY: deb clean-local-deb
