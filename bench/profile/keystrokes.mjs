// keystrokes.mjs — drives only this project's component (as run.mjs does) for a CPU profile
// of the JavaScript side of a keystroke:
//   node --cpu-prof --cpu-prof-interval 50 --cpu-prof-dir=/tmp/prof bench/profile/keystrokes.mjs 20 1000 20000
// Arguments: questions, options per question, keystrokes ("typed" as a fourth argument types
// text into "Something else…" instead of moving).
process.env.FORCE_COLOR ??= "3";
process.env.COLORTERM ??= "truecolor";
import {
  K,
  OUR_EXTENSION,
  closeComponent,
  fakePi,
  importExtension,
  loadPiUi,
  navigationKeys,
  openComponent,
  questionArgs,
  typedText,
} from "../harness.mjs";

const [q = 1, o = 4, n = 20000] = process.argv.slice(2, 5).map(Number);
const typed = process.argv[5] === "typed";
const ui = await loadPiUi();
const factory = await importExtension(OUR_EXTENSION);
const { pi, registered } = fakePi();
factory(pi);
const tool = registered.tools.get("question");
const opened = await openComponent(tool, questionArgs(q, o, { compact: o >= 1000 }), ui);
const c = opened.component;
let keys;
if (typed) {
  c.handleInput(K.up);
  c.handleInput(K.enter);
  const text = typedText(500);
  keys = Array.from({ length: n }, (_, i) => (i % 1000 < 500 ? text[i % 500] : "\x7f")); // type 500, erase 500
} else {
  keys = navigationKeys(q, o, n);
}
const t0 = process.hrtime.bigint();
for (const key of keys) {
  c.handleInput(key);
  c.render(100);
}
const perKey = Number(process.hrtime.bigint() - t0) / n / 1000;
await closeComponent(opened);
console.log(`${q} × ${o}${typed ? " typed" : ""}: ${perKey.toFixed(2)} µs per keystroke (mean of ${n})`);
