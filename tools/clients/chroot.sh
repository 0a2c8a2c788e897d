#!/usr/bin/env bash
# Debian clients beside the system: one chroot per suite, built from the
# mirror this machine's apt already uses (read at run time, never written into
# the repository), reused when it is already built.
#
#   chroot.sh ensure SUITE PACKAGE...   build the chroot if absent, install the
#                                       packages if missing; prints its folder
#   chroot.sh dir SUITE                 prints the chroot's folder
#   chroot.sh run SUITE COMMAND...      runs COMMAND (bash -c) inside it, with
#                                       /proc, /dev, /tmp and the checkout's
#                                       parent folder seen at the same paths
#
# The chroots live in $BAKE_CHROOTS (default /var/cache/bake-clients). Building
# one needs root, debootstrap (installed with apt-get when absent) and the
# network to the Debian mirror; without them `ensure` exits non-zero and says
# why, and the caller decides whether a missing client fails (CI) or skips.
set -euo pipefail

base=${BAKE_CHROOTS:-/var/cache/bake-clients}
apt_opts=(-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -o Dpkg::Use-Pty=0 -q)

die() { echo "chroot.sh: $*" >&2; exit 1; }

# mirror prints the first Debian archive URI of the host's apt sources.
mirror() {
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -1 || true)
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1=="deb" && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
  fi
  [ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"
  echo "$uri"
}

# mounted tells whether PATH is a mount point.
mounted() { grep -qs " $1 " /proc/mounts; }

# mounts binds what clients need: /proc, /dev, the host's /tmp, and the folder
# that holds this checkout (and ../shared beside it) at the same paths, so files
# to check are passed by their host path.
mounts() {
  local dir=$1 p
  local parent; parent=$(cd "$(dirname "$0")/../../.." && pwd)
  for p in /proc /dev /tmp "$parent"; do
    [ -d "$p" ] && [ "$p" != / ] || continue
    mkdir -p "$dir$p"
    mounted "$dir$p" || mount --bind "$p" "$dir$p"
  done
}

# unmount undoes mounts for DIR (deepest first).
unmount() {
  local dir=$1 m
  awk -v d="$dir" '$2 == d || index($2, d "/") == 1 {print $2}' /proc/mounts | sort -r |
    while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done
}

ensure() {
  local suite=$1; shift
  local dir=$base/$suite
  [ "$(id -u)" = 0 ] || die "building the $suite chroot needs root"
  if [ ! -f "$dir/.bake-ready" ]; then
    if ! command -v debootstrap >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; } ||
        die "cannot install debootstrap"
    fi
    local m; m=$(mirror)
    # A half-built chroot may still have the host's folders bound into it:
    # unmount them first, and never let rm cross into another file system.
    unmount "$dir"
    rm -rf --one-file-system "$dir"; mkdir -p "$base"
    local log=$base/$suite.debootstrap.log
    debootstrap --variant=minbase "$suite" "$dir" "$m" >"$log" 2>&1 ||
      { tail -20 "$log" >&2; die "debootstrap $suite failed (log: $log)"; }
    touch "$dir/.bake-ready"
  fi
  mounts "$dir"
  local missing=()
  for p in "$@"; do
    chroot "$dir" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    local log=$base/$suite.apt.log
    { chroot "$dir" apt-get "${apt_opts[@]}" update &&
      DEBIAN_FRONTEND=noninteractive chroot "$dir" apt-get "${apt_opts[@]}" install -y "${missing[@]}"; } >"$log" 2>&1 ||
      { tail -20 "$log" >&2; die "installing ${missing[*]} into the $suite chroot failed (log: $log)"; }
  fi
  echo "$dir"
}

cmd=${1:-}; shift || true
case "$cmd" in
  ensure) [ $# -ge 1 ] || die "usage: chroot.sh ensure SUITE PACKAGE..."; ensure "$@" ;;
  dir) [ $# -eq 1 ] || die "usage: chroot.sh dir SUITE"; echo "$base/$1" ;;
  run)
    [ $# -ge 2 ] || die "usage: chroot.sh run SUITE COMMAND..."
    suite=$1; shift
    dir=$base/$suite
    [ -f "$dir/.bake-ready" ] || die "no $suite chroot in $dir (run: chroot.sh ensure $suite ...)"
    mounts "$dir"
    exec chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "cd '$PWD' 2>/dev/null || cd /; $*" ;;
  *) die "usage: chroot.sh ensure|dir|run SUITE ..." ;;
esac
