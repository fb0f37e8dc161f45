#!/bin/sh
# The module loader refuses a wrong ABI number, a short descriptor and a
# module without the descriptor symbol, and names the file and the reason;
# it loads the real file map backend.
fail=0
check() {	# NAME KIND MODULE EXPECTED-RESULT EXPECTED-MESSAGE
	out=$(AUTOFS_AGENT_MODULE_DIR=./test/unit/.libs:./maps/.libs ./test/unit/am_unit loader "$2" "$3" 2>&1)
	case $out in
	*"$4"*"$5"* | *"$5"*"$4"*) echo "ok $1" ;;
	*) echo "FAIL $1: got: $out"; fail=1 ;;
	esac
}
check wrong-abi map badabi "Exec format error" "map module ABI 2, this agent speaks 1: refused"
check short-descriptor map badsize "Exec format error" "descriptor is 8 bytes, expected at least"
check missing-symbol map nosym "Exec format error" "does not export am_map_module: refused"
check missing-module map nosuch "No such file" "no module map_nosuch.so in"
check bad-name map "../x" "Invalid argument" "module name '../x' is not valid"
check file-backend map file "load map file: ok" ""
check mount-module-as-map map program "load map program: ok" ""
exit $fail
