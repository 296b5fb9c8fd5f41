#!/usr/bin/env bash
# Makes Debian's Chromium available to the project, on a fresh machine, as part of `npm install`:
# - the Swagger browser test drives /usr/bin/chromium headless;
# - Browser Rendering's local mode (letter PDFs) launches Chrome from wrangler's cache folder and would
#   try to download it, which fails offline. We put a wrapper at that path that runs Debian's Chromium.
# The project keeps wrangler's cache inside itself (XDG_CACHE_HOME=.cache), so nothing lands in $HOME.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${WARGA_SKIP_CHROMIUM:-}" = "1" ]; then
  echo "setup-chromium: skipped (WARGA_SKIP_CHROMIUM=1)"
  exit 0
fi

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup-chromium: installing Debian's chromium (one time)…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null 2>&1 || true
    if ! apt-get install -y -qq chromium >/dev/null 2>&1; then
      echo "setup-chromium: warning: apt-get install chromium failed; letter PDFs will not work and the browser tests skip" >&2
      echo "setup-chromium: fix the package source, then run: apt-get install -y chromium && bash scripts/setup-chromium.sh" >&2
      exit 0
    fi
  else
    # Not fatal: `npm run dev` still starts, the letter PDF route answers 503 pdf_renderer_unavailable,
    # and `npm test` skips the browser tests, saying why.
    echo "setup-chromium: warning: chromium is missing and this user cannot install it." >&2
    echo "setup-chromium: to enable letter PDFs and browser tests, run: sudo apt-get install -y chromium && bash scripts/setup-chromium.sh" >&2
    exit 0
  fi
fi

chromium_bin="$(command -v chromium)"
# The version miniflare expects (the vitest plugin uses wrangler's miniflare: package.json overrides).
# scripts/lib/chromium.mjs looks for the wrapper here to decide whether the browser tests run.
dir=".cache/.wrangler/chrome/linux-126.0.6478.182"
mkdir -p "$dir/chrome-linux64" .cache/chromium-home
cat > "$dir/chrome-linux64/chrome" <<WRAPPER
#!/usr/bin/env bash
# Wrapper written by scripts/setup-chromium.sh: run Debian's Chromium where miniflare expects Chrome.
export HOME="$PWD/.cache/chromium-home"
exec "$chromium_bin" --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run "\$@"
WRAPPER
chmod +x "$dir/chrome-linux64/chrome"
# Without this marker a failed launch makes miniflare delete the folder and try to download Chrome.
touch "$dir/.miniflare-install-complete"
echo "setup-chromium: $("$chromium_bin" --version 2>/dev/null | head -1) ready"
