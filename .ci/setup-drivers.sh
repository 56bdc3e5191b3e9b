#!/usr/bin/env bash
# Installs what the share-driver tests run for real (packages/core/src/adapters/{smb,nfs,local}),
# on a fresh Debian machine, as root. Idempotent: installs only what is missing.
#
#   samba smbclient        smbd + smbpasswd for the Samba fixture; smbclient is what the SMB driver runs
#   nfs-ganesha(-vfs)      userspace NFS server for the NFS fixture (v4, and v3 + MOUNT)
#   rpcbind                needed by Ganesha to serve NFSv3; the fixture starts it when none runs
#   findutils coreutils    GNU find (local scan engine) and du (scan benchmark baseline)
#   passwd                 useradd: the Samba fixture creates a system user `dmstest`
#
# The tests start their own daemons on 127.0.0.1 and free high ports, with all state in temp
# dirs; the system services these packages bring are kept from starting, since a system
# Ganesha would hold the NFS registrations in rpcbind that the v3 fixture needs.
set -euo pipefail

if [[ $(id -u) -ne 0 ]]; then
  echo "setup-drivers: must run as root" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
packages=(samba smbclient nfs-ganesha nfs-ganesha-vfs rpcbind findutils coreutils passwd)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "setup-drivers: installing ${missing[*]}"
  # Keep maintainer scripts from starting smbd, nmbd, ganesha or rpcbind as services.
  added_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    added_policy=1
  fi
  trap 'if [[ $added_policy -eq 1 ]]; then rm -f /usr/sbin/policy-rc.d; fi' EXIT
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi

# Where systemd runs, services may have started anyway: stop the ones that would clash.
if command -v systemctl >/dev/null 2>&1 && [[ -d /run/systemd/system ]]; then
  systemctl stop nfs-ganesha.service 2>/dev/null || true
  systemctl disable nfs-ganesha.service 2>/dev/null || true
fi

for tool in smbd smbpasswd smbclient ganesha.nfsd rpcbind find du useradd; do
  if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null; then
    echo "setup-drivers: $tool still missing after install" >&2
    exit 1
  fi
done
if [[ ! -e /usr/lib/x86_64-linux-gnu/ganesha/libfsalvfs.so ]] && ! compgen -G '/usr/lib/*/ganesha/libfsalvfs.so' >/dev/null; then
  echo "setup-drivers: Ganesha's VFS backend (nfs-ganesha-vfs) is missing" >&2
  exit 1
fi

echo "setup-drivers: $(smbclient --version), ganesha $(dpkg-query -W -f='${Version}' nfs-ganesha), rpcbind $(dpkg-query -W -f='${Version}' rpcbind)"
