#!/usr/bin/env bash
# Type-checks every Worker against the binding types `wrangler types` generates from its config.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false XDG_CONFIG_HOME="$PWD/.cache/config"
npx wrangler types -c wrangler.toml worker-configuration.d.ts >/dev/null
npx tsc --noEmit -p tsconfig.json
for worker in workers/*/; do
  if [ -f "$worker/wrangler.toml" ] && [ -f "$worker/tsconfig.json" ]; then
    npx wrangler types -c "$worker/wrangler.toml" "$worker/worker-configuration.d.ts" >/dev/null
    npx tsc --noEmit -p "$worker/tsconfig.json"
  fi
done
# The web app (web/): browser types, no Worker bindings.
npx tsc --noEmit -p web/tsconfig.json
npx tsc --noEmit -p web/tsconfig.sw.json
echo "typecheck: clean"
