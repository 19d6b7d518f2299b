# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the store area: the result store, history and exports
# (src/store/, vmdiskcmp store and history).
