#!/usr/bin/env bash
# Every test of Ringlab, as `./ringlab test` runs it (the launcher finds the JDK and exports JAVA_HOME, then execs this):
# the Debian packages the tests need (installed when run as root), the reactor's unit, OSGi and GUI tests (under Xvfb
# when there is no display), the samples built outside the reactor against the artifacts just installed, the semver
# gate (tools/baseline-check.sh) and the launcher's own checks (tools/launcher-check.sh); then tools/TestSummary.java
# sums every report and prints "N passed, N failed, N skipped" last.
#   tools/run-tests.sh [MAVEN ARGS...]       e.g. -pl bundles/io.ringlab.engine -am, -o, -Dtest=X
# Exits non-zero when a build, a test or a check failed.
set -euo pipefail
HOME_DIR=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
JAVA="${JAVA_HOME:?tools/run-tests.sh: JAVA_HOME must name a JDK 21+ (./ringlab test sets it)}/bin/java"
STAMP="$HOME_DIR/app/target/.built"   # the launcher's: touched after a successful build

# Debian packages the tests need: GTK for SWT, and an X server without a screen (Xvfb, xauth for xvfb-run) plus a font
# for the console's GUI tests; flent, the judge of our flent files (FlentTest), with python3-matplotlib, which it only
# recommends and needs to plot; tshark, the judge of our captures (PcapngTsharkTest).
needed=(libgtk-3-0 xvfb xauth fonts-dejavu-core flent python3-matplotlib tshark) missing=()
for p in "${needed[@]}"; do
  # Debian 13 renamed GTK's library package (the 64-bit time_t transition): either name will do
  dpkg -s "$p" >/dev/null 2>&1 || { [ "$p" = libgtk-3-0 ] && dpkg -s libgtk-3-0t64 >/dev/null 2>&1; } || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "ringlab: the tests need: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2; exit 1
  fi
fi
cd "$HOME_DIR"
rc=0 src=0
touch "$HOME_DIR/.test-start"   # TestSummary ignores reports older than this (modules a failed build never reached)
x=()
if [ -z "${DISPLAY:-}" ]; then
  x=(xvfb-run -a -s "-screen 0 1280x1024x24")   # the GUI tests need a display; -a picks a free server number
fi
"${x[@]}" ./mvnw -B clean install "$@" || rc=$?
[ $rc -eq 0 ] && touch "$STAMP"
if [ $rc -eq 0 ]; then
  # Maven options that make sense outside the main reactor (a -pl or -rf does not)
  outside=() skip=""
  for a in "$@"; do
    if [ -n "$skip" ]; then skip=""; continue; fi
    case "$a" in -pl|--projects|-rf|--resume-from) skip=1 ;; -pl*|-rf*|--projects=*|--resume-from=*) ;; *) outside+=("$a") ;; esac
  done
  # the samples: third-party projects built against the API artifacts just installed; their tests run ringlab.jar
  for s in samples/*/pom.xml; do
    [ -f "$s" ] || continue
    echo "ringlab test: building and testing $(dirname "$s") (outside the reactor)" >&2
    ./mvnw -B -f "$s" clean install ${outside[@]+"${outside[@]}"} || rc=$?
  done
  # the semver gate at work: API changes in a scratch copy of sim.api must fail the build with bnd's report
  tools/baseline-check.sh ${outside[@]+"${outside[@]}"} || rc=$?
  # the launcher's own --plugins checks (gui, shell)
  tools/launcher-check.sh || rc=$?
fi
# sums unit and OSGi reports, fails on an OSGi report with zero tests, prints "N passed, N failed, N skipped" last
"$JAVA" "$HOME_DIR/tools/TestSummary.java" "$HOME_DIR" || src=$?
[ $rc -ne 0 ] && exit $rc
exit $src
