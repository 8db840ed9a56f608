#!/usr/bin/env bash
# The README's first command as a newcomer types it, on a "fresh machine": a fresh clone of this checkout's HEAD and a
# scratch local Maven repository that holds the third-party artifacts of ~/.m2 but nothing of Ringlab's (copied, so the
# user's own repository is never moved or edited; on a machine with an empty ~/.m2 Maven downloads what it needs).
# Asserts that the scratch repository has no io/ringlab before the command, that the launcher printed its "building"
# line, that it exited 0, and that the summary shows both invariants ok. .ci/run runs it before the test command.
#
# Usage: tools/quickstart-check.sh    (prints what it checked; exits 1 on the first failed check)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN_CMD=(./ringlab run pipelines/netdev-bql.pipeline)   # the README's quick start, first line

# the README's run command is the one checked: fail when the README no longer says it
grep -qF "${RUN_CMD[*]}" "$ROOT/README.md" || {
  echo "quickstart-check: README.md's quick start no longer contains '${RUN_CMD[*]}'; update this check" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ringlab-quickstart.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "quickstart-check: FAILED: $*" >&2; echo "--- output of '${RUN_CMD[*]}' ---" >&2; cat "$WORK/out" >&2 2>/dev/null || true; exit 1; }

git clone -q "$ROOT" "$WORK/ringlab"
REPO="$WORK/m2"
mkdir -p "$REPO"
USER_REPO="${HOME}/.m2/repository"
if [ -d "$USER_REPO" ]; then
  # every top-level group folder but io/ and then io/ without io/ringlab
  (cd "$USER_REPO" && find . -mindepth 1 -maxdepth 1 ! -name io -exec cp -r {} "$REPO/" \;)
  if [ -d "$USER_REPO/io" ]; then
    mkdir -p "$REPO/io"
    (cd "$USER_REPO/io" && find . -mindepth 1 -maxdepth 1 ! -name ringlab -exec cp -r {} "$REPO/io/" \;)
  fi
fi
[ ! -e "$REPO/io/ringlab" ] || fail "the scratch repository $REPO holds io/ringlab before the run"
echo "quickstart-check: fresh clone $WORK/ringlab, scratch Maven repository with $(find "$REPO" -name '*.jar' | wc -l) third-party jars and no io/ringlab"

rc=0
(cd "$WORK/ringlab" && MAVEN_ARGS="-Dmaven.repo.local=$REPO" "${RUN_CMD[@]}") >"$WORK/out" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "'${RUN_CMD[*]}' exited with $rc"
grep -q '^ringlab: building' "$WORK/out" || fail "the launcher did not print its 'ringlab: building' line"
grep -qE '^packets: generated .*: ok$' "$WORK/out" || fail "the summary has no 'packets: ... ok' line"
grep -qE '^buffers: allocated .*: ok$' "$WORK/out" || fail "the summary has no 'buffers: ... ok' line"
[ -d "$REPO/io/ringlab" ] || fail "the build did not install into the scratch repository (MAVEN_ARGS was not honoured)"
echo "quickstart-check: ok: '${RUN_CMD[*]}' built Ringlab from nothing, exited 0, both invariants ok"
grep -E '^(packets|buffers): ' "$WORK/out"
