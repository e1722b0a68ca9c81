#!/usr/bin/env bash
# Installs what the tests need beyond Go and its modules. Each step is
# skipped when the tool is already there; a test whose tool cannot be
# installed skips with a message.
set -uo pipefail
need=()
# (Debian packages needed by tests are added here as tests come to need them.)
# chromium: report/dashboard opens the HTML dashboard in headless Chromium.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# zsh, fish: cmd/gojm loads the completion scripts of gojm completion in them.
command -v zsh >/dev/null 2>&1 || need+=(zsh)
command -v fish >/dev/null 2>&1 || need+=(fish)
# xmllint: report checks the JUnit file against its schema.
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
# tmux: cmd/gojm checks the live progress on an 80-column terminal.
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# jmeter: cmd/gojm reads a JMeter 2.x results file with JMeter 2.13's own
# jmeter.properties (/usr/share/jmeter/bin/jmeter.properties).
[ -f /usr/share/jmeter/bin/jmeter.properties ] || need+=(jmeter)
# influxd, prometheus: the Backend Listener (report/influx, cmd/gojm) and
# --prometheus (report/prom, cmd/gojm) tests run against the real servers.
command -v influxd >/dev/null 2>&1 || need+=(influxdb)
command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
# podman: cmd/gojm builds the container image of the Containerfile.
command -v podman >/dev/null 2>&1 || command -v buildah >/dev/null 2>&1 || need+=(podman)
# postgres, mariadbd: the JDBC tests (engine/internal/jdbc, engine) start a
# PostgreSQL and a MariaDB of their own on the loopback.
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq >/dev/null 2>&1
  # All at once, else one by one so that one missing package costs only its tests.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
    for p in "${need[@]}"; do
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null 2>&1 ||
        echo "test-deps: could not install $p; the tests that need it will skip" >&2
    done
fi
exit 0
