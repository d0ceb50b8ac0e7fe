# shellcheck shell=bash
# ensure_browser: makes sure headless Chromium and its driver (Debian's chromium and chromium-driver packages)
# are installed, for the console's browser tests (docs/console.md). Idempotent and quiet: does nothing when
# /usr/bin/chromium and /usr/bin/chromedriver (or CHROMEDRIVER_BIN) exist; as root with apt-get it installs
# the packages, running apt-get update only when the first install fails; otherwise it says what to install
# and exits 1. Sourced by bin/test.

ensure_browser() {
    if [ -n "${CHROMEDRIVER_BIN:-}" ] && [ -x "$CHROMEDRIVER_BIN" ]; then
        return
    fi
    if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
        return
    fi
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "bin/test: installing chromium and chromium-driver (apt-get) for the console's browser tests"
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1; then
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
        fi
        return
    fi
    echo "bin/test: the console's browser tests need Chromium and its driver: install them (Debian/Ubuntu:" \
         "sudo apt-get install -y chromium chromium-driver) or set CHROMEDRIVER_BIN to a chromedriver" >&2
    exit 1
}
