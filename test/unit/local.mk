# test/unit: rules are added with the code that lives here.

# Manual pages: groff clean, and every name the code accepts is documented.
TESTS += test/unit/man_check.sh
EXTRA_DIST += test/unit/man_check.sh
