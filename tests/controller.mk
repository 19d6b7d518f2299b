# Tests of the controller area.
