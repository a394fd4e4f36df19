# native-env.sh — sourced by scripts/asan-test.sh and scripts/leak-test.sh: finds clang,
# cJSON, the Node-API headers and the addon's sources (as binding.gyp lists them), and builds
# the addon or a C test driver straight with clang into a directory of its own, so a
# sanitizer or measurement build never touches build/Release.
# Provides: CC, NODE_INC, SOURCES (addon), CORE_SOURCES (without the binding, native/node/),
# build_addon OUT_FILE FLAGS..., build_driver SRC OUT_FILE FLAGS...

native_env_die() { echo "${NATIVE_ENV_NAME:-native}: $*" >&2; exit 2; }

CC=${CC:-clang}
command -v "$CC" >/dev/null 2>&1 ||
  native_env_die "no clang found ($CC); install it: Debian/Ubuntu \"sudo apt-get install clang libclang-rt-14-dev\"."
pkg-config --exists libcjson 2>/dev/null ||
  native_env_die "the cJSON library was not found; install it: Debian/Ubuntu \"sudo apt-get install libcjson-dev pkg-config\"."

# Node-API headers: those next to the running node, else node-gyp's download cache.
NODE_VERSION=$(node -p 'process.versions.node')
NODE_INC=""
for d in "$(dirname "$(dirname "$(node -p 'process.execPath')")")/include/node" \
  "${HOME:-/root}/.cache/node-gyp/$NODE_VERSION/include/node" "/usr/include/node"; do
  if [ -f "$d/node_api.h" ]; then NODE_INC=$d; break; fi
done

# The addon's sources, exactly as binding.gyp lists them for this OS (its conditions applied).
SOURCES=$(node --input-type=module -e '
  import { gypBuildInputs } from "./scripts/prebuild.mjs";
  const os = process.platform === "darwin" ? "mac" : process.platform === "win32" ? "win" : "linux";
  console.log(gypBuildInputs(undefined, { os }).sources.join(" "));') ||
  native_env_die "could not read the sources from binding.gyp"
CORE_SOURCES=$(echo "$SOURCES" | tr ' ' '\n' | grep -v -e '^native/node/' | tr '\n' ' ')
NATIVE_CFLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -DNAPI_VERSION=8 -g -Wall -Wextra -fvisibility=hidden -Inative/core $(pkg-config --cflags libcjson)"
NATIVE_LIBS="$(pkg-config --libs libcjson)"

# build_addon OUT FLAGS...: the Node-API addon as one shared object.
build_addon() {
  local out=$1
  shift
  [ -n "$NODE_INC" ] ||
    native_env_die "no Node-API headers (node_api.h) for node $NODE_VERSION; \"npx node-gyp install\" fetches them (or install your distribution's node headers, e.g. Debian \"libnode-dev\")."
  mkdir -p "$(dirname "$out")"
  # shellcheck disable=SC2086
  "$CC" $NATIVE_CFLAGS "$@" -fPIC -shared -I"$NODE_INC" $SOURCES -o "$out" $NATIVE_LIBS
}

# build_driver SRC OUT FLAGS...: a C test driver linked with the core.
build_driver() {
  local src=$1 out=$2
  shift 2
  mkdir -p "$(dirname "$out")"
  # shellcheck disable=SC2086
  "$CC" $NATIVE_CFLAGS "$@" "$src" $CORE_SOURCES -o "$out" $NATIVE_LIBS
}
