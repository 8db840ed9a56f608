#!/usr/bin/env bash
# Sets the version of the whole project: the parent pom, every module's <parent> version (modules of merged branches too),
# the samples' ringlab.version (the API artifacts they build against), and the io.ringlab.* ranges of the bndruns'
# -runbundles (the resolver rewrites those on the next build anyway; this keeps the tree consistent in between).
#   tools/version.sh             prints the current version
#   tools/version.sh VERSION     sets it, e.g. 0.2.0-SNAPSHOT
# Plain text edits (perl), no network: tools/release.sh calls it around a release.
set -euo pipefail
ROOT=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$ROOT"

current() { # the project's own <version>, the first one after ringlab-parent's artifactId in the root pom
  perl -0ne 'print $1 if m{<artifactId>ringlab-parent</artifactId>\s*<version>([^<]+)</version>}' pom.xml
}

if [ $# -eq 0 ]; then current; echo; exit 0; fi
NEW=$1
[[ $NEW =~ ^[0-9]+\.[0-9]+\.[0-9]+(-SNAPSHOT)?$ ]] || { echo "version.sh: '$NEW' is not MAJOR.MINOR.MICRO[-SNAPSHOT]" >&2; exit 2; }
BASE=${NEW%-SNAPSHOT}
IFS=. read -r MA MI MC <<<"$BASE"
RANGE="[$BASE,$MA.$MI.$((MC + 1)))"   # what the resolver writes for a bundle of version BASE(.SNAPSHOT)

poms=() bndruns=()
while IFS= read -r f; do poms+=("$f"); done < <(find . -name pom.xml -not -path '*/target/*' -not -path './releases/*' | sort)
while IFS= read -r f; do bndruns+=("$f"); done < <(find . -name '*.bndrun' -not -path '*/target/*' | sort)

# the root's own version and every <parent> block naming ringlab-parent
perl -0pi -e 's{(<artifactId>ringlab-parent</artifactId>\s*<version>)[^<]+(</version>)}{${1}'"$NEW"'${2}}g' "${poms[@]}"
# samples: <ringlab.version> names the installed API artifacts they depend on
perl -pi -e 's{(<ringlab\.version>)[^<]+(</ringlab\.version>)}{${1}'"$NEW"'${2}}' "${poms[@]}"
# bndruns: io.ringlab.*;version='[a.b.c,a.b.d)'
if [ ${#bndruns[@]} -gt 0 ]; then
  perl -pi -e 's{^(\s*io\.ringlab\.[\w.]+;version=\x27)\[[^\x27]*\)(\x27)}{${1}'"$RANGE"'${2}}' "${bndruns[@]}"
fi

left=$(grep -l "<artifactId>ringlab-parent</artifactId>" "${poms[@]}" | xargs perl -0ne \
  'print "$ARGV\n" if m{<artifactId>ringlab-parent</artifactId>\s*<version>(?!\Q'"$NEW"'\E<)}' || true)
if [ -n "$left" ]; then
  echo "version.sh: these poms name ringlab-parent in a way this script does not rewrite:" >&2
  echo "$left" >&2
  exit 1
fi
echo "version $NEW: ${#poms[@]} poms, ${#bndruns[@]} bndruns (io.ringlab.* at $RANGE)"
