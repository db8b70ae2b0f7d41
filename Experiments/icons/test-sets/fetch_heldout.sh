#!/usr/bin/env bash
# Fetch the held-out icon families of heldout-families.txt (pinned versions) into DIR.
#
#   bash fetch_heldout.sh DIR
#
# Needs: python3 with pip (for `pip download`), apt-get + dpkg-deb (Debian bookworm; run
# `apt-get update` once first), sha256sum.  Installs nothing: wheels are downloaded and unzipped, the .deb is unpacked
# with dpkg-deb -x.  Sources are PyPI and Debian's archive only.
#
# Result (the paths check_heldout.py and render_heldout.py read, relative to DIR):
#   qtawesome/fonts/*.ttf, *charmap*.json     qtawesome 1.4.2 (PyPI wheel): phosphor, remix, mdi6,
#                                             codicons, elusive, fa6-solid, fa6-regular
#   heroicons/outline/*.svg, heroicons/solid/*.svg   heroicons 2.14.0 (PyPI; heroicons.zip inside)
#   lucide/*.svg                              lucide 1.1.4 (PyPI; lucide.zip inside)
#   tabler/outline/*.svg, tabler/filled/*.svg pytablericons 1.0.1 (PyPI)
#   adwaita/usr/share/icons/Adwaita/scalable/*/*-symbolic.svg   adwaita-icon-theme 43-1 (Debian bookworm)
set -euo pipefail
DIR=${1:?usage: fetch_heldout.sh DIR}
mkdir -p "$DIR/downloads"
DIR=$(cd "$DIR" && pwd)
DL="$DIR/downloads"
PY=${PYTHON:-python3}

# name==version  sha256 of the wheel
WHEELS=(
  "qtawesome==1.4.2 qtawesome-1.4.2-py3-none-any.whl dbf08524428fa2df73918ce362153254cd44f089380576d84bfaad8f40eece45"
  "heroicons==2.14.0 heroicons-2.14.0-py3-none-any.whl cdf7fa6de02b7bc5b4513d7f592a9a1faea150b050a3b4270a0dc445ebe930c9"
  "lucide==1.1.4 lucide-1.1.4-py3-none-any.whl c2aa88a2bd7d99fcb56a9cdd4959cdf0c5ecd75f05d7ebbeb41010341639f449"
  "pytablericons==1.0.1 pytablericons-1.0.1-py3-none-any.whl 0c9bac8a016daa912273f22911d5d7039bafbb2de0a78a7152944a3aaaaa7b29"
)
DEB_NAME=adwaita-icon-theme
DEB_VERSION=43-1
DEB_FILE=adwaita-icon-theme_43-1_all.deb
DEB_SHA=4b67610565d16b604d3efd9908e8e4b5d71873c5d0f9347433df509020f22af7

for w in "${WHEELS[@]}"; do
  set -- $w
  if [ ! -f "$DL/$2" ]; then
    "$PY" -m pip download --quiet --no-deps --only-binary=:all: "$1" -d "$DL"
  fi
  echo "$3  $DL/$2" | sha256sum -c --quiet
done

if [ ! -f "$DL/$DEB_FILE" ]; then
  (cd "$DL" && apt-get download "$DEB_NAME=$DEB_VERSION")
fi
echo "$DEB_SHA  $DL/$DEB_FILE" | sha256sum -c --quiet

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# unz ZIP DEST [PREFIX...]: extract the members whose names start with one of the prefixes (all if none)
unz() {
  "$PY" - "$@" <<'PYEOF'
import sys, zipfile
z, dest, pre = sys.argv[1], sys.argv[2], tuple(sys.argv[3:])
with zipfile.ZipFile(z) as f:
    names = [n for n in f.namelist() if not pre or n.startswith(pre)]
    if not names:
        sys.exit(f'{z}: nothing matches {pre}')
    f.extractall(dest, names)
PYEOF
}

# qtawesome: only the fonts and their JSON charmaps
rm -rf "$DIR/qtawesome"; mkdir -p "$DIR/qtawesome"
unz "$DL/qtawesome-1.4.2-py3-none-any.whl" "$DIR" qtawesome/fonts/

# heroicons: the 24 px outline and solid sets (mini/micro are the same drawings, smaller)
rm -rf "$DIR/heroicons"; mkdir -p "$DIR/heroicons"
unz "$DL/heroicons-2.14.0-py3-none-any.whl" "$T/h" heroicons/heroicons.zip
unz "$T/h/heroicons/heroicons.zip" "$DIR/heroicons" outline/ solid/

# lucide
rm -rf "$DIR/lucide"; mkdir -p "$DIR/lucide"
unz "$DL/lucide-1.1.4-py3-none-any.whl" "$T/l" lucide/lucide.zip
unz "$T/l/lucide/lucide.zip" "$DIR/lucide"

# tabler (pytablericons ships the SVGs)
rm -rf "$DIR/tabler"; mkdir -p "$DIR/tabler"
unz "$DL/pytablericons-1.0.1-py3-none-any.whl" "$T/t" pytablericons/icons/
mv "$T/t/pytablericons/icons/outline" "$T/t/pytablericons/icons/filled" "$DIR/tabler/"

# adwaita: unpack the .deb without installing it
rm -rf "$DIR/adwaita"; mkdir -p "$DIR/adwaita"
dpkg-deb -x "$DL/$DEB_FILE" "$T/a"
mkdir -p "$DIR/adwaita/usr/share/icons/Adwaita"
cp -a "$T/a/usr/share/icons/Adwaita/scalable" "$DIR/adwaita/usr/share/icons/Adwaita/"

echo "held-out icon families are in $DIR"
