// harness.mjs — what the benchmark shares with its helpers: loading a pi extension the way pi
// does (jiti with pi's own options), a fake `pi` that captures what the factory registers, a
// fake interactive context whose ui.custom builds the component with pi's real theme and
// keybindings; and, from payloads.mjs, the question payloads, keys and statistics.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { currentLine } from "../scripts/current-pi.mjs";

import { K } from "./payloads.mjs";
export { ADDON_PATH, K, median, navigationKeys, percentile, questionArgs, toExampleArgs, typedText } from "./payloads.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The pi line measured: the devDependency (0.73.1) in node_modules, or with
 * BENCH_PI_LINE=current (run.mjs --current, on that line's Node) the current line that
 * scripts/current-pi.mjs installs. */
export const PI_LINE = process.env.BENCH_PI_LINE === "current" ? "current" : "dev";
export const PI_DIR = PI_LINE === "current" ? currentLine().piDir : join(root, "node_modules", "@mariozechner", "pi-coding-agent");
/** The folder of pi's own packages (pi-tui, pi-ai, …) of the line measured. */
const PI_SCOPE_DIR = dirname(PI_DIR);

/** One of pi's packages of the line measured (`pi-tui`, `pi-ai`), imported by its entry file. */
export function importPi(name) {
  return import(pathToFileURL(join(PI_SCOPE_DIR, name, "dist", "index.js")).href);
}
export const OUR_EXTENSION = join(root, "extension", "index.ts");
export const EXAMPLE_EXTENSION = join(PI_DIR, "examples", "extensions", "questionnaire.ts");

// ---- loading an extension as pi does ------------------------------------------------------
/** pi's loader aliases (dist/core/extensions/loader.js getAliases, Node.js mode). */
export function piAliases() {
  const require = createRequire(join(PI_DIR, "dist", "core", "extensions", "loader.js"));
  const mz = PI_SCOPE_DIR;
  const typebox = require.resolve("typebox");
  // the current line gives extensions pi-ai's extension view under both names
  const piAi =
    PI_LINE === "current" ? join(PI_DIR, "dist", "core", "extensions", "pi-ai-extension-view.js") : join(mz, "pi-ai", "dist", "index.js");
  return {
    "@mariozechner/pi-coding-agent": join(PI_DIR, "dist", "index.js"),
    "@mariozechner/pi-agent-core": join(mz, "pi-agent-core", "dist", "index.js"),
    "@mariozechner/pi-tui": join(mz, "pi-tui", "dist", "index.js"),
    "@mariozechner/pi-ai": piAi,
    "@mariozechner/pi-ai/oauth": join(mz, "pi-ai", "dist", "oauth.js"),
    typebox,
    "typebox/compile": require.resolve("typebox/compile"),
    "typebox/value": require.resolve("typebox/value"),
    "@sinclair/typebox": typebox,
    "@sinclair/typebox/compile": require.resolve("typebox/compile"),
    "@sinclair/typebox/value": require.resolve("typebox/value"),
  };
}

/** The extension's default-export factory, imported with jiti as pi's loader does
 * (moduleCache off, pi's aliases). `fsCache` may name a transpile-cache directory. */
export async function importExtension(path, { fsCache } = {}) {
  const { createJiti } = await import("jiti/static");
  const jiti = createJiti(import.meta.url, {
    moduleCache: false,
    alias: piAliases(),
    // jiti would hand a file to Bun's own loader first; pi's release binary (Bun) turns that off
    tryNative: false,
    ...(fsCache !== undefined ? { fsCache } : {}),
  });
  const factory = await jiti.import(path, { default: true });
  if (typeof factory !== "function") throw new Error(`${path}: no default-export factory`);
  return factory;
}

/** `methods`, with every other method a no-op returning undefined (the rest of pi's API). */
function withNoOps(methods) {
  return new Proxy(methods, {
    get: (target, key) => (key in target || typeof key === "symbol" ? target[key] : () => undefined),
  });
}

/** A fake ExtensionAPI that records what the factory registers. */
export function fakePi() {
  const registered = { tools: new Map(), commands: new Map(), flags: new Map(), handlers: [] };
  const pi = withNoOps({
    registerTool: (tool) => registered.tools.set(tool.name, tool),
    registerCommand: (name, command) => registered.commands.set(name, command),
    registerFlag: (name, flag) => registered.flags.set(name, flag),
    on: (event, handler) => registered.handlers.push([event, handler]),
    // pi's event bus: on() gives back its unsubscribe, as pi's does (the asker calls it at close)
    events: withNoOps({ on: () => () => undefined }),
  });
  return { pi, registered };
}

// ---- pi's theme and keybindings -------------------------------------------------------------
let piUi;
/** pi's real dark theme (the object interactive mode hands to ui.custom) and a
 * KeybindingsManager with pi's defaults (no user keybindings.json). */
export async function loadPiUi() {
  if (piUi) return piUi;
  const dist = join(PI_DIR, "dist");
  const themeModule = await import(pathToFileURL(join(dist, "modes", "interactive", "theme", "theme.js")).href);
  const { KeybindingsManager } = await import(pathToFileURL(join(dist, "core", "keybindings.js")).href);
  const tui = await importPi("pi-tui");
  themeModule.initTheme("dark");
  const keybindings = new KeybindingsManager();
  tui.setKeybindings(keybindings); // what pi's main does for pi-tui's own components (Editor)
  piUi = { theme: themeModule.theme, keybindings, tui };
  return piUi;
}

// ---- an interactive context -----------------------------------------------------------------
/** Calls the tool's execute with a context whose ui.custom builds the component the way pi's
 * interactive mode does (factory(tui, theme, keybindings, done), then setFocus). Resolves once
 * the component exists: { component, finished (execute's promise), isDone() }. */
export async function openComponent(tool, params, { theme, keybindings }) {
  let component;
  let done = false;
  let ready;
  const readyPromise = new Promise((resolve) => (ready = resolve));
  const tui = {
    requestRender() {},
    terminal: { rows: 40, columns: 100 },
    setFocus() {},
  };
  const ctx = {
    hasUI: true,
    mode: "tui", // pi 1.6 says which mode it runs in; the example asks only in "tui"
    cwd: root,
    sessionManager: { getBranch: () => [] },
    ui: {
      custom: (factory) =>
        new Promise((resolve, reject) => {
          const close = (result) => {
            done = true;
            resolve(result);
          };
          Promise.resolve(factory(tui, theme, keybindings, close)).then((c) => {
            component = c;
            if (c && "focused" in c) c.focused = true; // pi-tui's TUI.setFocus
            ready();
          }, reject);
        }),
      select: async () => undefined,
      confirm: async () => false,
      input: async () => undefined,
    },
  };
  ctx.ui = withNoOps(ctx.ui); // setWorkingMessage, setTitle, notify, setStatus …: no-ops
  const controller = new AbortController();
  const finished = tool.execute("bench-call", params, controller.signal, () => {}, ctx);
  finished.catch(() => {});
  const returnedEarly = finished.then((r) => {
    throw new Error(`execute returned before showing a component: ${JSON.stringify(r).slice(0, 300)}`);
  });
  await Promise.race([readyPromise, returnedEarly]);
  return { component, finished, isDone: () => done, abort: () => controller.abort() };
}

/** Closes a component opened by openComponent (Esc until it reports done), then awaits execute. */
export async function closeComponent(opened) {
  for (let i = 0; i < 10 && !opened.isDone(); i++) opened.component.handleInput(K.esc);
  if (!opened.isDone()) opened.abort();
  await opened.finished;
}
