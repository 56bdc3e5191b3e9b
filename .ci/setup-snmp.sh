#!/usr/bin/env bash
# Installs what the SNMP tests need on a fresh Debian machine (run as root):
#   snmp       snmpget, snmpwalk, snmpset, snmptranslate (the agent tests and the MIB check)
#   snmptrapd  the trap receiver the notifier tests send to
# Both pull in libsnmp-base; snmptrapd also pulls in snmpd, which the tests do not use
# (they start their own snmptrapd and the dms agent on free high ports, never 161/162).
# Debian ships no IETF MIBs (snmp-mibs-downloader is non-free and downloads at install
# time); the SNMPv2-SMI/TC/CONF modules DMS-MIB imports come from the net-snmp npm package
# instead (see packages/core/src/adapters/snmp/mib-path.ts).
set -euo pipefail

have_all() {
  PATH="$PATH:/usr/sbin:/sbin" command -v snmpget >/dev/null &&
    PATH="$PATH:/usr/sbin:/sbin" command -v snmpwalk >/dev/null &&
    PATH="$PATH:/usr/sbin:/sbin" command -v snmpset >/dev/null &&
    PATH="$PATH:/usr/sbin:/sbin" command -v snmptranslate >/dev/null &&
    PATH="$PATH:/usr/sbin:/sbin" command -v snmptrapd >/dev/null
}

if have_all; then
  echo "setup-snmp: Net-SNMP tools already installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then as_root=(sudo); else
    echo "setup-snmp: run as root (or with sudo) to install snmp and snmptrapd" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends snmp snmptrapd >/dev/null

have_all || { echo "setup-snmp: Net-SNMP tools still missing after install" >&2; exit 1; }
echo "setup-snmp: installed snmp and snmptrapd"
