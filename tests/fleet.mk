# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the fleet area: `vmdiskcmp merge` (tests/report.mk), the package
# and the Ansible role end to end over network namespaces.
TESTS += tests/integration/fleet-netns.sh
EXTRA_DIST += tests/integration/fleet-netns.sh
