# Tests of the guest area.
