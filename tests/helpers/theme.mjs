// theme.mjs — a stand-in for pi's theme in tests that draw the question's view: colours, bold and
// inverse as plain escape sequences, so frames hold styled lines as they do in pi.
export const theme = {
  fg: (_colour, s) => `\x1b[36m${s}\x1b[39m`,
  bold: (s) => `\x1b[1m${s}\x1b[22m`,
  inverse: (s) => `\x1b[7m${s}\x1b[27m`,
};
