# Tests of the import area.
