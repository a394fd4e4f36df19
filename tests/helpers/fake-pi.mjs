// fake-pi.mjs — a stand-in for pi's ExtensionAPI that records what the extension registers,
// and a minimal ExtensionContext, for loading the shim the way pi does without starting pi.
import { importShim } from "./shim.mjs";

/** `overrides` replace members of the fake API (e.g. `on`, to capture event handlers). The
 * transcript renderers, which the extension loads when an interactive session starts, are
 * loaded before it returns unless `lazyRenderers` is set. */
export async function loadExtension(overrides = {}, { lazyRenderers = false } = {}) {
  const { default: factory, loadRenderers } = await importShim("index.ts");
  const tools = new Map(),
    commands = new Map(),
    flags = new Map(),
    flagValues = new Map(),
    sent = [],
    entries = [],
    shortcuts = new Map(),
    messages = [],
    messageRenderers = new Map();
  const pi = {
    registerTool: (t) => tools.set(t.name, t),
    registerCommand: (name, c) => commands.set(name, c),
    registerFlag: (name, f) => flags.set(name, f),
    getFlag: (name) => flagValues.get(name),
    getSessionName: () => undefined,
    sendUserMessage: (text, options) => sent.push({ text, options }),
    appendEntry: (customType, data) => entries.push({ customType, data }),
    registerShortcut: (key, s) => shortcuts.set(key, s),
    registerMessageRenderer: () => undefined,
    sendMessage: (message, options) => messages.push({ message, options }),
    registerMessageRenderer: (customType, render) => messageRenderers.set(customType, render),
    on: () => {},
    events: eventBus(),
    ...overrides,
  };
  factory(pi);
  if (!lazyRenderers) await loadRenderers();
  return { pi, tools, commands, flags, flagValues, sent, entries, shortcuts, messages, messageRenderers };
}

/** A context without a UI (print mode) rooted at cwd. */
export function headlessContext(cwd, branch = []) {
  return { hasUI: false, cwd, sessionManager: { getBranch: () => branch }, ui: {}, isIdle: () => true };
}

/** A TUI context (pi's custom() draws the question) whose components are handed to `show` as they
 * appear, focused, to be driven with handleInput; they stay until a key ends them. The lines
 * set above the editor are kept in `widgets`; `idle` is what isIdle says. */
export function tuiContext(show, cwd = "/nonexistent", branch = []) {
  const theme = { fg: (_c, s) => s, bold: (s) => s, inverse: (s) => s, italic: (s) => s };
  const ctx = {
    hasUI: true,
    cwd,
    sessionManager: { getBranch: () => branch },
    idle: true,
    isIdle: () => ctx.idle,
    widgets: new Map(),
    ui: {
      setWidget: (key, lines) => (lines === undefined ? ctx.widgets.delete(key) : ctx.widgets.set(key, lines)),
      setWorkingMessage: () => undefined,
      setTitle: () => undefined,
      notify: () => undefined,
      custom: (factory) =>
        new Promise((resolve) => {
          const component = factory({ requestRender: () => {} }, theme, { getKeys: () => [] }, resolve);
          component.focused = true;
          show(component);
        }),
    },
  };
  return ctx;
}

/** pi's event bus between extensions (pi.events), as pi makes it: emit calls every handler of
 * the channel at once, in the order they were added. */
export function eventBus() {
  const handlers = new Map();
  return {
    emit(channel, data) {
      for (const fn of [...(handlers.get(channel) ?? [])]) fn(data);
    },
    on(channel, fn) {
      if (!handlers.has(channel)) handlers.set(channel, new Set());
      handlers.get(channel).add(fn);
      return () => handlers.get(channel)?.delete(fn);
    },
  };
}
