#!/usr/bin/env bash
# Releases the API bundles into releases/, the Maven repository in the tree that the semver gate baselines against.
#   tools/release.sh VERSION NEXT [MAVEN ARGS...]     e.g. tools/release.sh 0.2.0 0.3.0-SNAPSHOT -q
# 1. sets the project to VERSION (tools/version.sh);
# 2. builds and tests the parent pom and the API bundles (the modules whose pom declares bnd-baseline-maven-plugin),
#    baselines them against the newest earlier release, and deploys them with their sources and javadoc jars to
#    releases/ (-Prelease);
# 3. sets the project to NEXT.
# The tree must be clean before; afterwards releases/ and the version change are left for one commit. On a failure the
# versions are set back and nothing is deployed for VERSION.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$ROOT"

if [ $# -lt 2 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
VERSION=$1 NEXT=$2
shift 2
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "release.sh: VERSION '$VERSION' must be MAJOR.MINOR.MICRO" >&2; exit 2; }
[[ $NEXT =~ ^[0-9]+\.[0-9]+\.[0-9]+-SNAPSHOT$ ]] || { echo "release.sh: NEXT '$NEXT' must be MAJOR.MINOR.MICRO-SNAPSHOT" >&2; exit 2; }
CURRENT=$(tools/version.sh)
if [ -n "$(git status --porcelain)" ]; then
  echo "release.sh: the working tree has changes; commit or stash them first (a release is built from a commit)" >&2
  exit 1
fi
if ls releases/io/ringlab/*/"$VERSION" >/dev/null 2>&1; then
  echo "release.sh: releases/ holds $VERSION already" >&2
  exit 1
fi

# maven-deploy-plugin refuses to run offline, even into a file repository: drop -o (nothing is downloaded that the
# build has not cached already, apart from what a fresh local repository lacks)
args=()
for a in "$@"; do
  case "$a" in -o|--offline) echo "release.sh: ignoring $a (the deploy plugin refuses offline mode)" >&2 ;; *) args+=("$a") ;; esac
done

modules=.
for pom in bundles/*/pom.xml; do
  grep -q '<artifactId>bnd-baseline-maven-plugin</artifactId>' "$pom" && modules+=",$(dirname "$pom")"
done

restore() {
  echo "release.sh: failed; setting the version back to $CURRENT" >&2
  tools/version.sh "$CURRENT" >/dev/null
  git checkout -q -- releases/ >/dev/null 2>&1 || true   # maven-metadata.xml files the deploy rewrote
  git clean -fdq -- releases/ >/dev/null 2>&1 || true     # what it added
}
trap restore ERR

tools/version.sh "$VERSION"
echo "release.sh: building and deploying $VERSION of: ${modules//,/ }"
./mvnw -B -Prelease deploy -pl "$modules" ${args[@]+"${args[@]}"}
trap - ERR
tools/version.sh "$NEXT"
echo
echo "released $VERSION into releases/; the project is now at $NEXT. Build once (./mvnw install: the resolver rewrites the"
echo "bndruns' -runbundles), check the result, then commit releases/, the poms and the bndruns together."
