// first-frame-cpuprofile.mjs — where a session's second 1 × 4 question spends its time: the
// first-frame bench's call, repeated, under the V8 profiler; prints the functions with the most
// self time (ms over all calls and per call). Not part of `npm run bench`.
//   node bench/profile/first-frame-cpuprofile.mjs [calls]
import { Session } from "node:inspector/promises";
import { extensionAddon, firstFrameCalls, firstFrameOnce, piValidation } from "../first-frame.mjs";
import { fakePi, importExtension, loadPiUi, OUR_EXTENSION } from "../harness.mjs";

const calls = Number(process.argv[2] ?? 3000);
const ui = await loadPiUi();
const factory = await importExtension(OUR_EXTENSION);
const { pi, registered } = fakePi();
factory(pi);
const tool = registered.tools.get("question");
const validate = await piValidation(tool);
const call = firstFrameCalls(extensionAddon().limits)[0];
for (let i = 0; i < 200; i++) await firstFrameOnce(tool, validate, call.args, ui);
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });
await session.post("Profiler.start");
const t0 = performance.now();
for (let i = 0; i < calls; i++) await firstFrameOnce(tool, validate, call.args, ui);
const wall = performance.now() - t0;
const { profile } = await session.post("Profiler.stop");
const self = new Map();
const dt = new Map(profile.samples.map((id, i) => [i, profile.timeDeltas[i] ?? 0]));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
profile.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt.get(i) / 1000);
});
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
console.log(`${calls} calls, ${(wall / calls).toFixed(3)} ms each (the profiler adds some)`);
for (const [k, ms] of top) console.log(`${(ms / calls).toFixed(4).padStart(8)} ms/call  ${k}`);
// Who calls the file system (the system calls' callers, two frames up), when asked.
if (process.env.PROFILE_CALLERS) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const name = (n) => (n ? `${n.callFrame.functionName || "(anonymous)"}:${n.callFrame.lineNumber + 1}` : "-");
  const callers = new Map();
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (!/^(lstat|stat|open|realpath)/.test(n.callFrame.functionName)) return;
    let chain = [];
    for (let p = parent.get(n.id), k = 0; p && k < 4; p = parent.get(p.id), k++) chain.push(name(p));
    const key = `${n.callFrame.functionName} ← ${chain.join(" ← ")}`;
    callers.set(key, (callers.get(key) ?? 0) + dt.get(i) / 1000);
  });
  for (const [k, ms] of [...callers.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${(ms / calls).toFixed(4)} ${k}`);
}
