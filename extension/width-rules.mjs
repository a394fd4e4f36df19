// width-rules.mjs — picks the addon's width rules (native/core/qt_text.h) that measure like the host
// pi's own pi-tui: pi-tui 0.87 counts Indic spacing marks and consonants after a mark that 0.73
// counts as nothing, and pins an older get-east-asian-width; in pi's release binary pi-tui runs
// in Bun, whose Intl.Segmenter (ICU 75, Unicode 15.1) splits clusters that Node's keeps whole
// (conjuncts across other scripts' viramas, the marks of Unicode 16 and 17) and joins some that
// Node's splits (symbols Unicode 17 took out of Extended_Pictographic, by ZWJ). A line the engine
// lays out under the wrong rules can be wider by pi-tui's measure than the width pi gave, and
// is then cut (or, in pi's TUI, wider than the terminal).

/** Probe strings and why: each tells two candidate rule sets apart. */
const PROBES = [
  "\u093F", // a lone Devanagari vowel sign I (a spacing mark): 0.73 → 0, 0.87 → 1
  "\u0915\u094D\u0937\u093F", // क्षि (ka virama ssa i): 0.73 → 1, 0.87 → 3
  "\u0600\uFF01", // a prepended fullwidth "!": 0.73 counts the form twice → 4, 0.87 → 2
  "\u{18E00}", // a Tangut component Unicode 17 made wide: get-east-asian-width 1.7 → 2, 1.6 → 1
  "\u1B13\u1B44\u1B31", // Balinese ka, adeg adeg, ssa: one cluster in Node (0.73 → 1, 0.87 → 2), two in Bun (2, 3)
];

/** Candidate rule sets, the default first (ties keep the earlier one): each of these four with
 * Node's clusters, then with Bun's. */
const RULES = [
  { spacingMarks: false, currentEastAsianWidth: false },
  { spacingMarks: true, currentEastAsianWidth: true },
  { spacingMarks: true, currentEastAsianWidth: false },
  { spacingMarks: false, currentEastAsianWidth: true },
];
const CANDIDATES = [false, true].flatMap((unicode15Clusters) => RULES.map((r) => ({ ...r, unicode15Clusters })));

/**
 * Selects, process-wide, the rule set whose widths of the probes equal `hostWidth`'s (the host
 * pi-tui's visibleWidth) and returns it with `exact: true`. When none agrees on every probe,
 * it takes the one that agrees on most without measuring any probe narrower than the host
 * (so that lines stay within the width by the host's measure where the probes can tell), else
 * the default, with `exact: false`.
 * @param {{ setWidthRules(r: object): void; visibleWidth(s: string): number }} native
 * @param {(s: string) => number} hostWidth
 */
export function selectWidthRules(native, hostWidth) {
  const want = PROBES.map((s) => hostWidth(s));
  let best = CANDIDATES[0];
  let bestScore = -1;
  for (const rules of CANDIDATES) {
    native.setWidthRules(rules);
    const got = PROBES.map((s) => native.visibleWidth(s));
    if (got.every((w, i) => w === want[i])) return { ...rules, exact: true };
    if (got.some((w, i) => w < want[i])) continue;
    const score = got.filter((w, i) => w === want[i]).length;
    if (score > bestScore) {
      best = rules;
      bestScore = score;
    }
  }
  native.setWidthRules(best);
  return { ...best, exact: false };
}
