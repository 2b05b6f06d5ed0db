#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the scopeline .deb into a fresh Debian 12 chroot (debootstrap minbase) and runs what a new
# user would: --version and --help, scopeline-cli on the installed samples, and the GUI offscreen on
# them (a PNG of the window). Needs root and the Debian mirror.
# Usage: sudo packaging/check_deb_chroot.sh build/scopeline_0.1.0_amd64.deb [CHROOT_DIR]
set -euo pipefail
DEB=$(realpath "${1:?usage: $0 PACKAGE.deb [CHROOT_DIR]}")
ROOT=${2:-/tmp/scopeline-chroot}
[[ $(id -u) -eq 0 ]] || { echo "check_deb_chroot.sh: run as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y --no-install-recommends debootstrap
if [[ ! -x $ROOT/bin/bash ]]; then
  echo "==> debootstrap bookworm into $ROOT"
  debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian
fi
cp "$DEB" "$ROOT/tmp/"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mountpoint -q "$ROOT/proc" || mount --bind /proc "$ROOT/proc"
trap 'umount "$ROOT/proc" 2>/dev/null || true' EXIT
chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive DEB="/tmp/$(basename "$DEB")" bash -euo pipefail -c '
  apt-get update -qq
  apt-get install -y -qq "$DEB" >/tmp/install.log
  echo "==> installed with its dependencies ($(dpkg -l | grep -c "^ii") packages in the chroot)"
  scopeline-cli --version
  scopeline-cli --help | head -1
  QT_QPA_PLATFORM=offscreen scopeline --version
  scopeline-cli compare /usr/share/scopeline/samples/jax_matmul_vs_einsum/matmul \
    /usr/share/scopeline/samples/jax_matmul_vs_einsum/einsum --scope attn_q_k | tail -1
  scopeline-cli report /usr/share/scopeline/samples/jax_matmul_vs_einsum/matmul \
    /usr/share/scopeline/samples/jax_matmul_vs_einsum/einsum --scope attn_q_k --out /tmp/report | tail -1
  QT_QPA_PLATFORM=offscreen scopeline --size 1400x900 --screenshot /tmp/installed.png 2>/dev/null
  echo "==> the GUI opened the installed samples: /tmp/installed.png in the chroot"
'
