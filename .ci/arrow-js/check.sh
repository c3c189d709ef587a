#!/usr/bin/env bash
# Cross-checks uniperf's measurement tables with a second Arrow
# implementation: the npm apache-arrow package reads every datasets/*.arrow,
# datasets/gpu/*.arrow and datasets/xeon/*.arrow (plus a sample table with awkward values that Go
# writes here) and must agree with Go's package datasets on row counts,
# columns, metadata and every value. Installs apache-arrow into .ci/arrow-js/node_modules (npm ci,
# from package-lock.json) on first use. Needs go, node and npm.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules/apache-arrow" ]; then
	echo "arrow-js: npm ci"
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shopt -s nullglob
tables=("$root"/datasets/*.arrow "$root"/datasets/gpu/*.arrow "$root"/datasets/xeon/*.arrow)
(cd "$root" && go run ./.ci/arrow-js/gosummary -dir "$tmp" "${tables[@]}")
node "$here/check.mjs" "$tmp/summary.json"
