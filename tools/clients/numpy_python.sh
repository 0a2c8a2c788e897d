# Sourced by the Godot checks: sets py to a Python with numpy (the first
# python3 on the PATH, else Debian's), or exits 2 saying what to install.
py=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import numpy' 2>/dev/null; then
    py=$p
    break
  fi
done
if [ -z "$py" ]; then
  echo "no python3 with numpy (Debian: apt-get install -y python3-numpy)" >&2
  exit 2
fi
