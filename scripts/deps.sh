#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh - install the Debian packages perfkit needs to build and test.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu
PKGS="meson ninja-build pkg-config gcc python3 libpfm4-dev libelf-dev libdw-dev libbz2-dev liblzma-dev
libtraceevent-dev libzstd-dev libdeflate-dev libiberty-dev libcmocka-dev linux-perf manpages-dev valgrind libpapi-dev
zlib1g-dev libc6-dbg golang-go golang-github-google-pprof-dev chromium nodejs zsh"
# npm installs the browser tests' puppeteer-core and speedscope into the
# build tree; a Node.js that brings its own npm needs no Debian npm.
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "perfkit needs these Debian packages:$missing" >&2
	echo "install them with:  sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
