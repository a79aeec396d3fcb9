#!/bin/sh
# Install what npuify needs from Debian (bookworm). Run as root.
#   sh tools/deps.sh        build dependencies only
#   sh tools/deps.sh test   also what the test suite needs (CPU PyTorch for
#                           the corpus tests and end-to-end runs, cmocka,
#                           valgrind, clang for the fuzz targets and
#                           ThreadSanitizer, strace for the -j check,
#                           chromium for the review page and reports)
set -e
pkgs="build-essential libjansson-dev libsqlite3-dev zlib1g-dev"
if [ "${1:-}" = test ]; then
    pkgs="$pkgs libcmocka-dev valgrind python3 python3-torch python3-torchvision neovim
          clang-14 libclang-rt-14-dev patch clang-format strace chromium"
fi
missing=""
for p in $pkgs; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
