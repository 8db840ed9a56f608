#!/usr/bin/env bash
# Shows that the semver gate works: builds io.ringlab.sim.api in a scratch copy of the tree with deliberate API changes
# and checks that bnd's baseline fails the build where the package version was not raised enough, and passes where it
# was, starting from the package as released. The tree itself is never touched. Needs releases/ to hold a release and the API bundles of the current version in
# the local Maven repository (run after ./mvnw install; ./ringlab test does).
#   tools/baseline-check.sh [MAVEN ARGS...]         e.g. -o -Dmaven.repo.local=/path
# Prints one line per case and bnd's report for the failing ones; writes a JUnit report to target/check-reports/ (counted
# by tools/TestSummary.java); exits 1 if a case did not end as expected.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$ROOT"
MODULE=bundles/io.ringlab.sim.api
PKG=$MODULE/src/main/java/io/ringlab/sim/api
REPORT_DIR=$ROOT/target/check-reports

if ! ls releases/io/ringlab/io.ringlab.sim.api/*/io.ringlab.sim.api-*.jar >/dev/null 2>&1; then
  echo "baseline-check: releases/ holds no release of io.ringlab.sim.api yet; nothing to baseline against" >&2
  # in CI (CI=true, which .ci/run exports) a missing release is a failure, never a pass
  [ "${CI:-}" = true ] && exit 1
  exit 0
fi
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
# the module, its parent pom, the shared bnd policy, the wrapper and releases/: enough to build one API bundle
cp -a pom.xml mvnw .mvn cnf releases "$SCRATCH/"
mkdir -p "$SCRATCH/bundles"
cp -a "$MODULE" "$SCRATCH/bundles/"
rm -rf "$SCRATCH/$MODULE/target"
# the package as released (its sources jar), not as the tree has it: an addition under way in the tree, with its own
# bump, would otherwise pass the cases that must fail for want of one
release=$(ls releases/io/ringlab/io.ringlab.sim.api/*/io.ringlab.sim.api-*-sources.jar | sort -V | tail -n1)
find "$SCRATCH/$PKG" -maxdepth 1 -name '*.java' -delete
unzip -q -o -j "$release" 'io/ringlab/sim/api/*.java' -x 'io/ringlab/sim/api/*/*' -d "$SCRATCH/$PKG"
VERSION=$(perl -0ne 'print $1 if m{\@Version\("([^"]+)"\)}' "$SCRATCH/$PKG/package-info.java")
IFS=. read -r MA MI _ <<<"$VERSION"
MINOR="$MA.$((MI + 1)).0" MAJOR="$((MA + 1)).0.0"
pristine=$(mktemp -d "$SCRATCH/pristine.XXXX")
cp -a "$SCRATCH/$PKG/." "$pristine/"

cases=() failures=0 xml=""

# $1 name, $2 expected outcome (pass|fail), $3 what bnd must say when it fails; the change is made by the caller
build_case() {
  local name=$1 expect=$2 says=$3 log="$SCRATCH/$1.log" outcome
  if (cd "$SCRATCH" && ./mvnw -B -f "$MODULE/pom.xml" verify -DskipTests -Dmaven.javadoc.skip=true \
        -Dmaven.source.skip=true "${@:4}" >"$log" 2>&1); then
    outcome=pass
  else
    outcome=fail
  fi
  local report
  report=$(find "$SCRATCH/$MODULE/target/baseline" -name '*.txt' 2>/dev/null | head -n1 || true)
  if [ "$outcome" = "$expect" ] && { [ "$expect" = pass ] || grep -q -- "$says" "$log"; }; then
    echo "ok: $name: the build ${outcome}ed as expected"
    xml+="  <testcase classname=\"baseline-check\" name=\"$name\"/>"$'\n'
  else
    echo "FAILED: $name: expected the build to $expect${says:+ with '$says'}, it ${outcome}ed; log: " >&2
    tail -n 30 "$log" >&2
    failures=$((failures + 1))
    xml+="  <testcase classname=\"baseline-check\" name=\"$name\"><failure message=\"expected $expect, got $outcome\"/></testcase>"$'\n'
  fi
  if [ "$outcome" = fail ] && [ -n "$report" ]; then
    grep -m1 -o 'Failed to execute goal biz.aQute.bnd:bnd-baseline-maven-plugin.*Baseline problems detected' "$log" \
      | sed 's/^/    [ERROR] /' || true
    sed 's/^/    /' "$report"
  fi
  cases+=("$name")
  # back to the released state for the next case
  rm -rf "${SCRATCH:?}/$PKG" && mkdir -p "$SCRATCH/$PKG" && cp -a "$pristine/." "$SCRATCH/$PKG/"
  rm -rf "$SCRATCH/$MODULE/target"
}

set_version() { perl -pi -e 's{\@Version\("[^"]+"\)}{\@Version("'"$1"'")}' "$SCRATCH/$PKG/package-info.java"; }
# adds a method before the last closing brace of an interface
add_method() { M=$2 perl -0pi -e 's/\}\s*\z/\n    $ENV{M}\n}\n/' "$SCRATCH/$PKG/$1.java"; }

build_case unchanged pass "" "$@"

# ElementFactory is @ConsumerType (third parties implement it): a new abstract method breaks every implementation
add_method ElementFactory "String vendor();"
build_case consumer-type-method-without-major-bump fail "Baseline problems detected" "$@"

add_method ElementFactory "String vendor();"
set_version "$MAJOR"
build_case consumer-type-method-with-major-bump pass "" "$@"

# Simulator is @ProviderType (only the engine implements it): a new method is a minor change
add_method Simulator "int runningCount();"
build_case provider-type-method-without-minor-bump fail "Baseline problems detected" "$@"

add_method Simulator "int runningCount();"
set_version "$MINOR"
build_case provider-type-method-with-minor-bump pass "" "$@"

# removing a method breaks every caller, whoever implements the type
perl -0pi -e 's{\n    /\*\* \@return when the timer fires.*?long whenPicos\(\);\n}{\n}s' "$SCRATCH/$PKG/Timer.java"
build_case removed-method-without-major-bump fail "Baseline problems detected" "$@"

mkdir -p "$REPORT_DIR"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo "<testsuite name=\"baseline-check\" tests=\"${#cases[@]}\" failures=\"$failures\" errors=\"0\" skipped=\"0\">"
  printf '%s' "$xml"
  echo '</testsuite>'
} >"$REPORT_DIR/TEST-baseline-check.xml"
echo "baseline-check: ${#cases[@]} cases, $failures failed (io.ringlab.sim.api $VERSION against its newest release)"
[ "$failures" -eq 0 ]
