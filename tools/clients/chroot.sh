#!/usr/bin/env bash
# Debian clients beside the system: one chroot per suite, built from the
# mirror this machine's apt already uses (read at run time, never written into
# the repository), reused when it is already built.
#
#   chroot.sh ensure SUITE PACKAGE...   build the chroot if absent, install the
#                                       packages if missing; prints its folder
#   chroot.sh dir SUITE                 prints the chroot's folder
#   chroot.sh run SUITE COMMAND...      runs COMMAND (bash -c) inside it, in
#                                       the current folder, with /proc, /dev,
#                                       /tmp, the checkout and ../shared seen
#                                       at the same paths
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

# same tells whether two paths are the same folder (device and inode), which
# a bind mount makes them; a bind left from a folder since deleted is not.
same() {
  local a b
  a=$(stat -L -c %d:%i "$1" 2>/dev/null) && b=$(stat -L -c %d:%i "$2" 2>/dev/null) && [ "$a" = "$b" ]
}

# binds prints, one a line, the host folders a run needs at the same paths:
# /proc, /dev, the temporary folder, this checkout, and ../shared beside it
# (the real samples) when there is one.
binds() {
  local checkout; checkout=$(cd "$(dirname "$0")/../.." && pwd)
  printf '%s\n' /proc /dev /tmp
  [ -n "${TMPDIR:-}" ] && [ -d "$TMPDIR" ] && (cd "$TMPDIR" && pwd)
  echo "$checkout"
  [ -d "$checkout/../shared" ] && echo "$(dirname "$checkout")/shared"
  return 0
}

# mounts binds what clients need into the chroot DIR at the same paths, so
# files to check are passed by their host path. The chroots outlive the
# checkouts (a CI machine clones afresh at the same path each run): first
# every bind in DIR whose host folder is gone or has been replaced is undone
# (deepest first), then each folder of binds() is bound unless DIR already
# sees it. Runs in the same chroot side by side (Blender 5.2 and Godot 4.6)
# take turns through a lock.
mounts() {
  local dir=$1 m p
  exec 9>"$dir.lock"
  flock 9
  # A bind made over an older one hides it until it is undone itself: a
  # few passes reach those too.
  local pass undone
  for pass in 1 2 3 4; do
    undone=0
    while read -r m; do
      same "${m#"$dir"}" "$m" && continue
      if umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; then undone=1; fi
    done < <(awk -v d="$dir" 'index($2, d "/") == 1 {print $2}' /proc/mounts | sort -r)
    [ $undone = 1 ] || break
  done
  while read -r p; do
    [ "$p" != / ] || continue
    same "$p" "$dir$p" && continue
    mkdir -p "$dir$p" || die "cannot make $dir$p to bind $p"
    mount --bind "$p" "$dir$p" || die "cannot bind $p at $dir$p"
    same "$p" "$dir$p" || die "bound $p at $dir$p, but the chroot does not see it"
  done < <(binds)
  exec 9>&-
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
    ! awk -v d="$dir" '$2 == d || index($2, d "/") == 1 {f=1} END {exit !f}' /proc/mounts ||
      die "folders are still bound in $dir: not removing it"
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
    exec chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "cd '$PWD' 2>/dev/null || { echo 'chroot.sh: $PWD is not seen in the $suite chroot (only /proc, /dev, /tmp, the checkout and ../shared are bound): running in /' >&2; cd /; }; $*" ;;
  *) die "usage: chroot.sh ensure|dir|run SUITE ..." ;;
esac
