#!/usr/bin/env bash
# Installs what the tests need beyond Go and its modules. Each step is
# skipped when the tool is already there; a test whose tool cannot be
# installed skips with a message.
set -uo pipefail
need=()
# (Debian packages needed by tests are added here as tests come to need them.)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
    echo "test-deps: could not install ${need[*]}; the tests that need them will skip" >&2
fi
exit 0
