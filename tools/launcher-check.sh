#!/usr/bin/env bash
# Checks the launcher script's own handling of --plugins for the interactive launches (gui, shell), which it turns into
# the framework property ringlab.plugins before Java starts: an empty or missing folder name is invalid input (exit 2
# with a message), never the working folder or nothing. Run after a build (./ringlab test does); JAVA_HOME as for
# ./ringlab. Writes a JUnit report to target/check-reports/ (counted by tools/TestSummary.java); exits 1 if a case failed.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$ROOT"
REPORT_DIR=$ROOT/target/check-reports
cases=0 failures=0 xml=""

# $1 name, $2 the message stderr must hold; the rest: the ringlab arguments (stdin is empty: a shell would end at once)
check() {
  local name=$1 says=$2 err code=0
  shift 2
  err=$(timeout 120 ./ringlab "$@" </dev/null 2>&1 >/dev/null) || code=$?
  cases=$((cases + 1))
  if [ "$code" -eq 2 ] && [[ "$err" == *"$says"* ]]; then
    echo "launcher-check: $name: ok"
    xml+="  <testcase classname=\"launcher-check\" name=\"$name\"/>"$'\n'
  else
    failures=$((failures + 1))
    echo "launcher-check: $name: FAILED: exit $code, expected 2 with '$says'; stderr: $err" >&2
    xml+="  <testcase classname=\"launcher-check\" name=\"$name\"><failure message=\"exit $code\"/></testcase>"$'\n'
  fi
}

check shell-plugins-empty "ringlab: --plugins '': the folder name is empty" shell --plugins ''
check gui-plugins-equals-empty "ringlab: --plugins '': the folder name is empty" gui --plugins=
check shell-plugins-without-folder "ringlab: --plugins needs a folder" shell --plugins

mkdir -p "$REPORT_DIR"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo "<testsuite name=\"launcher-check\" tests=\"$cases\" failures=\"$failures\" errors=\"0\" skipped=\"0\">"
  printf '%s' "$xml"
  echo '</testsuite>'
} >"$REPORT_DIR/TEST-launcher-check.xml"
echo "launcher-check: $cases cases, $failures failed"
[ "$failures" -eq 0 ]
