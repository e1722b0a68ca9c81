#!/usr/bin/env bash
# Builds gojm's container image (Containerfile) with podman, buildah or
# docker, whichever is installed: a static binary built here, on a scratch
# base. Usage: scripts/image.sh [TAG] (default gojm:dev).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
tag=${1:-gojm:dev}
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$ctx/gojm" ./cmd/gojm
cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
cp Containerfile "$ctx/"
for tool in podman buildah docker; do
  if command -v "$tool" >/dev/null 2>&1; then
    case $tool in
      buildah) buildah bud -q -t "$tag" "$ctx" ;;
      *) "$tool" build -q -t "$tag" "$ctx" ;;
    esac
    echo "built $tag with $tool"
    exit 0
  fi
done
echo "image.sh: no podman, buildah or docker; install one of them" >&2
exit 1
