#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what the tests
# need, checks formatting, vet and staticcheck (the version go.mod pins as a
# tool), then runs the Go tests with the race detector, and the HTTP
# engine's tests once more without it: race builds run the same raw
# transport and spin but make the socket reads and writes through package
# syscall, so that the detector sees them; other builds make raw system
# calls (engine/httpx/sysio_*.go); and the charts' once more, where the
# test of ten million samples runs (the race detector would make it take a
# minute). Tests that read ../shared skip with a message where it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

scripts/test-deps.sh

unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" $unformatted >&2
  exit 1
fi
go vet ./...
go tool staticcheck ./...
go test -race -count=1 -timeout 20m ./...
go test -count=1 -timeout 10m ./engine/httpx ./engine ./cmd/gojm ./report/chart
# deploy/k8s is a module of its own: it checks the Kubernetes manifest
# against Kubernetes' API types, which the main module does not depend on.
(cd deploy/k8s && go vet ./... && go test -count=1 ./...)
