// subagent.mjs — pi's own subagent example (examples/extensions/subagent in the pi package)
// around this package, as its users run it: both extensions auto-discovered from a throw-away
// HOME, a "worker" agent, and one scripted model serving the parent and every child at once
// (each request is routed by the task text the child was given).
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { root } from "./addon.mjs";
import { piPackageFile } from "./pi-line.mjs";

/** The subagent example of the pi that the tests run. */
export const subagentExample = piPackageFile("examples", "extensions", "subagent");

/** HOME files: the mock model as the default (children get no --model), the worker agent. */
export const subagentHomeFiles = {
  ".pi/agent/settings.json": JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-1" }),
  ".pi/agent/agents/worker.md": "---\nname: worker\ndescription: A test worker\n---\nYou are the worker.\n",
};

/** Auto-discovered extensions: the subagent example, and this package unless `question` is false. */
export function prepareSubagentHome(home, { question = true } = {}) {
  const dir = join(home, ".pi", "agent", "extensions");
  mkdirSync(dir, { recursive: true });
  symlinkSync(subagentExample, join(dir, "subagent"));
  if (question) symlinkSync(root, join(dir, "question"));
}

/** The text of every message of a request, for routing. */
const textOf = (req) => JSON.stringify(req.messages);

/**
 * A model for a parent and its children. `parent` is the parent's first reply (a subagent call);
 * `tasks` maps a task text to the child's first reply (a question call, or a nested subagent
 * call). A child's reply after its tool result is "child <task> got: <tool result>"; the
 * parent's, "parent saw: <tool result>".
 */
export function routedModel(parent, tasks) {
  return (req) => {
    const last = req.messages[req.messages.length - 1];
    const text = textOf(req);
    // The deepest task named in the request is whose request this is (a nested child's
    // request names only its own task).
    const task = Object.keys(tasks).find((t) => text.includes(`Task: ${t}`));
    if (task) {
      if (last.role === "tool")
        return { text: `child ${task} got: ${typeof last.content === "string" ? last.content : JSON.stringify(last.content)}` };
      return tasks[task];
    }
    if (last.role === "tool")
      return { text: `parent saw: ${typeof last.content === "string" ? last.content : JSON.stringify(last.content)}` };
    return parent;
  };
}

/** The `question` tool results the children of a saved parent session returned (from the
 * subagent tool's details), in the order they are stored. */
export function childQuestionResults(entries) {
  const out = [];
  for (const e of entries) {
    const m = e.type === "message" ? e.message : undefined;
    if (m?.role !== "toolResult" || m.toolName !== "subagent") continue;
    for (const r of m.details?.results ?? []) {
      for (const msg of r.messages ?? []) {
        if (msg.role === "toolResult" && msg.toolName === "question") out.push({ task: r.task, agent: r.agent, message: msg });
      }
    }
  }
  return out;
}
