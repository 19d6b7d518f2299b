# Emulated Xen lab (issue 5).
