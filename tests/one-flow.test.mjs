// one-flow.test.mjs — one question flow, many faces: the same scripted session of semantic steps
// driven through (a) the TUI engine with keys, (b) the engine with act() steps, (c) the RPC
// dialogs (askWithDialogs with a fake ctx.ui), (d) the web page's server (each step POSTed to
// /q/<token>/step over HTTP, the result the one the board hands the asker), each giving the same
// tool result. A new face joins by adding a driver to FACES: a function (args, script) → the
// built result.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const { askWithDialogs } = await importShim("ask/dialogs.ts");
const { createBoard } = await importShim("board/board.ts");
const { createFlow } = await importShim("board/flow.ts");
const { startWebServer } = await importShim("elsewhere/web.ts");
const AT = 1_700_000_000_000;

/** The engine's view, for the drivers that need to know where the flow is to pick their keys. */
const view = (engine) => JSON.parse(engine.view());

/** (a) keys, as the TUI and the terminal runner send them. Typing in a multi-select question
 * is "0", the text and Enter, which also finishes the question: the script's next "submit" is
 * then already done. */
function viaKeys(args, script) {
  const engine = addon.createEngine(args);
  let closed = false;
  for (const [step, arg] of script) {
    const v = view(engine);
    const q = v.questions[v.current];
    if (step === "submit" && closed) {
      closed = false;
      continue;
    }
    const keys = {
      pick: () => String(arg + 1),
      toggle: () => String(arg + 1),
      type: () => {
        closed = q?.multi ?? false;
        return q?.options.length ? `0${arg}\r` : `${arg}\r`;
      },
      note: () => `\x0e${arg}\r`,
      submit: () => "\r",
      decline: () => "\x04",
      cancel: () => "\x1b",
      discuss: () => `\x14${arg}\r`,
      yes: () => "y",
      no: () => "n",
    }[step]();
    engine.feed(keys);
  }
  assert.ok(engine.done, "the keys ended the call");
  return engine.result("rpc", AT).details;
}

/** (b) steps, as a face that draws no frame applies them. */
function viaSteps(args, script) {
  const engine = addon.createEngine(args);
  for (const [step, arg] of script) {
    const r = engine.act(step, typeof arg === "number" ? arg : null, typeof arg === "string" ? arg : null);
    assert.deepEqual(r, { ok: true }, `${step} ${arg ?? ""}`);
  }
  assert.ok(engine.done, "the steps ended the call");
  return engine.result("rpc", AT).details;
}

/** (c) the RPC dialogs: each dialog takes the script's next step as the reply that means it. */
async function viaDialogs(args, script) {
  const questions = JSON.parse(addon.normalize(args)).questions;
  const steps = [...script];
  let typed; // "Something else…" picked: the text for the input that follows
  let noted; // "Add a note…" picked: the text for the editor that follows
  const next = (method) => {
    const s = steps.shift();
    assert.ok(s, `a ${method} dialog past the script`);
    return s;
  };
  const ui = {
    select: async (_title, entries) => {
      const [step, arg] = next("select");
      const at = (text) => entries.findIndex((e) => e === text);
      const n = entries.findIndex((e) => /^(\[[ x]\] )?\d+\. Something else…/.test(e)); // after the options
      switch (step) {
        case "pick":
        case "toggle":
          return entries[arg];
        case "type":
          typed = arg;
          return entries[n];
        case "submit":
          return entries[at("Done")];
        case "decline":
          return entries[at("Let the agent decide")];
        case "discuss":
          typed = arg;
          return entries[at("Discuss first…")];
        case "note":
          noted = arg;
          return entries[Math.max(at("Add a note…"), at("Edit the note…"))];
        case "cancel":
          return undefined;
        default:
          throw new Error(`no select reply means ${step}`);
      }
    },
    input: async () => {
      if (typed !== undefined) {
        const text = typed;
        typed = undefined;
        return text;
      }
      const [step, arg] = next("input");
      if (step === "type") return arg;
      // a free-text question's other ways: the input dismissed, then its select
      assert.ok(["decline", "discuss", "cancel"].includes(step), step);
      steps.unshift([step, arg]);
      return undefined;
    },
    editor: async (_title, prefill) => {
      assert.ok(noted !== undefined, "an editor only for a note");
      assert.equal(typeof prefill, "string", "the editor is filled in with the note so far");
      const text = noted;
      noted = undefined;
      return text;
    },
    confirm: async (title) => {
      const [step, arg] = next("confirm");
      if (title !== "Submit these answers?" || !["decline", "discuss", "cancel"].includes(step)) return step === "submit" || step === "yes";
      if (step === "cancel") return undefined; // the review dismissed: cancelling
      steps.unshift([step, arg]); // the review's other ways: no, then its select
      return false;
    },
    notify: () => {},
  };
  const ctx = { hasUI: true, cwd: "/nonexistent", ui };
  const flow = createFlow(addon.createEngine(args), () => undefined);
  const asked = await askWithDialogs(flow, questions, ctx, undefined);
  assert.equal(steps.length, 0, "the whole script was used");
  const answers = asked.answers ? JSON.stringify(asked.answers) : null;
  const said = asked.outcome === "discuss" ? asked.discussion : null;
  return JSON.parse(addon.result(args, asked.outcome, "rpc", AT, said, answers, 0).details);
}

/** (d) the web page: the question posted on a board, the server started around it, each step
 * POSTed as the page posts it; the result is the one the board's answer built for the asker. */
async function viaPage(args, script) {
  const board = createBoard();
  const canonical = addon.normalize(args);
  const modes = [];
  const ticket = board.post({ questions: JSON.parse(canonical).questions, args: canonical }, (outcome, answersJson, mode, said) => {
    modes.push(mode);
    return addon.result(args, outcome, "rpc", AT, said, answersJson, 0).details;
  });
  const server = await startWebServer({ board, host: "127.0.0.1", language: () => "en" });
  try {
    const { origin, pathname } = new URL(server.url);
    for (const [step, arg] of script) {
      const index = typeof arg === "number" ? arg : null;
      const text = typeof arg === "string" ? arg : null;
      const r = await fetch(`${origin}${pathname}/step`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ qid: ticket.qid, step, index, text }),
      });
      const body = await r.json();
      assert.equal(r.status, 200, `${step} ${arg ?? ""}: ${JSON.stringify(body)}`);
      assert.equal(body.ok, true);
    }
    assert.ok(ticket.taken, "the page's steps answered the question on the board");
    assert.deepEqual(modes, ["web"], "taken once, as a page answer");
    return ticket.taken;
  } finally {
    server.close();
    ticket.end();
  }
}

const FACES = { keys: viaKeys, steps: viaSteps, dialogs: viaDialogs, page: viaPage };
const parsed = (details) => (typeof details === "string" ? JSON.parse(details) : details);

const THREE = JSON.stringify({
  questions: [
    { id: "db", label: "DB", prompt: "Which database?", options: ["PostgreSQL", "SQLite"] },
    { id: "f", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "API", "Audit"] },
    { id: "name", label: "Name", prompt: "Project name?" },
  ],
});

const SESSIONS = [
  {
    name: "answered: a pick, two ticks and typed text, free text, the review",
    script: [["pick", 1], ["toggle", 0], ["toggle", 2], ["type", "webhooks"], ["submit"], ["type", "Atlas"], ["submit"]],
    status: "answered",
  },
  {
    name: "declined after a pick and a tick (both kept)",
    script: [["pick", 0], ["toggle", 1], ["decline"]],
    status: "declined",
  },
  {
    name: "cancel asks “Discard 1 answer?”, no keeps it; at the review again, no; then submitted",
    script: [["pick", 0], ["cancel"], ["no"], ["toggle", 1], ["submit"], ["type", "Bo"], ["cancel"], ["no"], ["submit"]],
    status: "answered",
  },
  {
    name: "let the agent decide at the free-text question (the RPC dialogs: its input dismissed, then its other ways)",
    script: [["pick", 0], ["toggle", 1], ["submit"], ["decline"]],
    status: "declined",
  },
  {
    name: "talk first at the review (the RPC dialogs: its confirm not submitted, then its other ways)",
    script: [["pick", 0], ["toggle", 1], ["submit"], ["type", "Bo"], ["discuss", "one more thing"]],
    status: "discuss",
  },
  {
    name: "talk first after a pick (kept)",
    script: [
      ["pick", 1],
      ["discuss", "why three questions?"],
    ],
    status: "discuss",
  },
  {
    name: "a note on the multi-select question",
    script: [["pick", 1], ["note", "only if cheap"], ["toggle", 0], ["submit"], ["type", "Atlas"], ["submit"]],
    status: "answered",
  },
];

for (const session of SESSIONS) {
  test(`one flow: ${session.name} — the same result through every face`, async () => {
    const faces = session.faces ?? Object.keys(FACES);
    const results = {};
    for (const face of faces) results[face] = parsed(await FACES[face](THREE, session.script));
    const [first, ...rest] = faces;
    assert.equal(results[first].status, session.status);
    for (const face of rest) assert.deepEqual(results[face], results[first], `${face} gives what ${first} gives`);
  });
}
