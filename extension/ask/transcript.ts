// transcript.ts — how a question call and its result look in pi's transcript: renderCall (tool
// name, question count, short labels) and renderResult (one line per answer; the expanded view
// shows every prompt with its options, the chosen ones marked). Colours come from pi's theme;
// model-supplied text is sanitized by the C core before it reaches the terminal. In accessible
// mode the same in plain words: no colours, no marks, the status always said.
import type { Theme } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import { addon } from "../addon.ts";
import { optionLabel, type QuestionDetails } from "../question-types.ts";
import { fill, languageOf, strings, transcriptAccessible } from "../text/i18n.ts";
import { MARKS } from "../text/text.ts";

type Clean = (text: unknown, keepNewlines?: boolean) => string;

function cleaner(): Clean {
  const native = addon();
  return (text, keepNewlines = false) => (typeof text === "string" ? native.sanitize(text, keepNewlines) : "");
}

/** How the transcript is drawn: `accessible` gives words instead of marks and colours (by
 * default: the setting or TERM=dumb, i18n.ts); `language` defaults to the latest question's. */
export interface RenderMode {
  accessible?: boolean;
  language?: string;
}

/** pi's theme, or in accessible mode one that adds nothing (meaning is never in a colour). */
function styled(theme: Theme, accessible: boolean): Pick<Theme, "fg" | "bold"> {
  return accessible ? { fg: (_colour, s) => s, bold: (s) => s } : theme;
}

function reuse(last: unknown): Text {
  return last instanceof Text ? last : new Text("", 0, 0);
}

export function renderQuestionCall(args: unknown, piTheme: Theme, lastComponent: unknown, mode: RenderMode = {}): Text {
  const clean = cleaner();
  const accessible = mode.accessible ?? transcriptAccessible();
  const theme = styled(piTheme, accessible);
  const questions = Array.isArray((args as { questions?: unknown })?.questions)
    ? ((args as { questions: unknown[] }).questions as Array<Record<string, unknown>>)
    : (args as Record<string, unknown>)?.question
      ? [args as Record<string, unknown>]
      : [];
  const t = strings(mode.language);
  const count = questions.length === 1 ? t.CALL_ONE_QUESTION : fill(t.CALL_QUESTIONS, { n: questions.length });
  let line = theme.fg("toolTitle", theme.bold("question"));
  line += " " + theme.fg("muted", count);
  const labels = questions
    .map((q, i) => clean(q?.label ?? q?.header ?? `Q${i + 1}`))
    .filter((s) => s.length > 0)
    .slice(0, 8);
  // Accessible: a plain list (the count above already says how many there are).
  if (labels.length) {
    line += " " + theme.fg("dim", accessible ? labels.join(", ") : labels.join(" · ") + (questions.length > 8 ? " …" : ""));
  }
  const text = reuse(lastComponent);
  text.setText(line);
  return text;
}

export function renderQuestionResult(
  details: QuestionDetails | undefined,
  fallbackText: string,
  expanded: boolean,
  isError: boolean,
  piTheme: Theme,
  lastComponent: unknown,
  mode: RenderMode = {},
): Text {
  const text = reuse(lastComponent);
  text.setText(resultLines(details, fallbackText, expanded, isError, piTheme, mode).join("\n"));
  return text;
}

/** The message that brings the answer to a question asked without waiting (async.ts): a line
 * naming it, then its result as a waiting call's result is drawn. The message's text holds the
 * model's labels as they are: only this sanitized view reaches the terminal. */
export function renderAnswerMessage(
  message: { content?: unknown; details?: unknown },
  expanded: boolean,
  piTheme: Theme,
  mode: RenderMode = {},
): Text {
  const d = message.details as { qid?: unknown; result?: QuestionDetails } | undefined;
  const content = typeof message.content === "string" ? message.content : "";
  const accessible = mode.accessible ?? transcriptAccessible();
  const theme = styled(piTheme, accessible);
  const head =
    theme.fg("toolTitle", theme.bold("question")) +
    " " +
    theme.fg("muted", fill(strings(mode.language).ASYNC_ANSWER_HEAD, { s: cleaner()(String(d?.qid ?? "")) }));
  const body = resultLines(d?.result, content, expanded, false, piTheme, mode);
  return new Text([head, ...body].join("\n"), 0, 0);
}

/** The lines of a result (renderQuestionResult's text). */
function resultLines(
  details: QuestionDetails | undefined,
  fallbackText: string,
  expanded: boolean,
  isError: boolean,
  piTheme: Theme,
  mode: RenderMode,
): string[] {
  const clean = cleaner();
  const t = strings(mode.language);
  const accessible = mode.accessible ?? transcriptAccessible();
  const theme = styled(piTheme, accessible);
  if (isError || !details || !Array.isArray(details.questions) || !Array.isArray(details.answers)) {
    return [theme.fg("error", `${t.RESULT_ERROR}: `) + theme.fg("muted", clean(fallbackText, true))];
  }
  const lines: string[] = [];
  const byId = new Map(details.answers.map((a) => [a.id, a]));
  if (details.mode === "remote") lines.push(theme.fg("muted", t.REMOTE_ANSWERED_HERE));
  if (details.mode === "unverified") lines.push(theme.fg("warning", t.REMOTE_UNVERIFIED_HERE));
  if (details.mode === "web") lines.push(theme.fg("muted", t.WEB_ANSWERED_HERE));
  if (details.mode === "extension") {
    // never the person's: said first, with the name the extension gives itself (its own claim)
    const name = typeof details.source === "string" && details.source ? clean(details.source) : "";
    lines.push(theme.fg("warning", name ? fill(t.EXTENSION_ANSWERED_NAMED, { s: name }) : t.EXTENSION_ANSWERED_HERE));
  }
  if (details.status !== "answered" || accessible) {
    const colour =
      details.status === "declined" || details.status === "timed_out"
        ? "warning"
        : details.status === "unavailable"
          ? "muted"
          : details.status === "discuss" || details.status === "asked"
            ? "accent"
            : "error";
    // details may come from a session file: an unknown status is shown as text, sanitized.
    const status = String(details.status);
    const said = t[`STATUS_${status.toUpperCase()}`] ?? clean(status);
    lines.push(theme.fg(colour, accessible ? fill(t.PLAIN_RESULT_STATUS, { s: said }) : said));
    if (status === "discuss" && typeof details.discussion === "string") {
      lines.push("  " + theme.fg("text", clean(details.discussion, true).replace(/\n/g, "\n  ")));
    }
  }
  // the questions the person skipped on purpose (details from a session file: checked)
  const skips = new Map(
    (Array.isArray(details.skipped) ? details.skipped : []).filter((s) => s && typeof s.id === "string").map((s) => [s.id, s]),
  );
  for (const q of details.questions) {
    const a = byId.get(q.id);
    const skip = skips.get(q.id);
    if (!a && !skip && !expanded) continue;
    const head = theme.fg("accent", clean(q.label)) + theme.fg("dim", ": ");
    if (skip) {
      const said = skip.reason === "chat" ? t.REVIEW_CHAT : t.REVIEW_SKIPPED;
      const note = skip.note ? theme.fg("dim", `  ${t.RESULT_NOTE} `) + theme.fg("muted", clean(skip.note)) : "";
      if (!expanded) {
        lines.push(head + theme.fg("warning", said) + note);
        continue;
      }
      lines.push(head + theme.fg("text", clean(q.prompt, true)));
      lines.push(`  ${theme.fg("warning", said)}${note}`);
      continue;
    }
    if (a?.secret) {
      // never a secret's text (details hold none): that one was given, and the file it is in
      const file = typeof a.file === "string" ? theme.fg("dim", `  ${clean(a.file)}`) : "";
      if (expanded) lines.push(head + theme.fg("text", clean(q.prompt, true)));
      // no file: it could not be handed over, and the model was told so
      const said = typeof a.file === "string" ? theme.fg("text", t.SECRET_ANSWER) : theme.fg("warning", t.SECRET_DROPPED);
      lines.push((expanded ? "  " : head) + said + file);
      continue;
    }
    if (!expanded) {
      const wrote = a!.wasCustom ? " " + theme.fg("dim", t.RESULT_WROTE) : "";
      const applied = a!.appliedByTimeout ? " " + theme.fg("warning", t.RESULT_APPLIED_BY_TIMEOUT) : "";
      const note = a!.note ? theme.fg("dim", `  ${t.RESULT_NOTE} `) + theme.fg("muted", clean(a!.note)) : "";
      lines.push(head + theme.fg("text", clean(a!.label)) + wrote + applied + note);
      continue;
    }
    lines.push(head + theme.fg("text", clean(q.prompt, true)));
    const chosen = new Set(a ? (a.indices ?? (a.index ? [a.index] : [])) : []);
    const options = q.options ?? [];
    options.forEach((o, i) => {
      const picked = chosen.has(i + 1);
      const applied = picked && a?.appliedByTimeout ? " " + theme.fg("warning", t.RESULT_APPLIED_BY_TIMEOUT) : "";
      if (accessible) {
        // "Option 2 of 3: SQLite, selected", composed where the question's plain frame does it
        const state = q.multiSelect ? (picked ? "checked" : "notChecked") : picked ? "selected" : "notSelected";
        lines.push(`  ${addon().plainOption(languageOf(t), i + 1, options.length, clean(optionLabel(o)), state)}${applied}`);
        return;
      }
      const mark = picked ? theme.fg("success", MARKS.chosen) : theme.fg("dim", MARKS.notChosen);
      lines.push(`  ${mark} ${picked ? theme.fg("text", clean(optionLabel(o))) : theme.fg("muted", clean(optionLabel(o)))}${applied}`);
    });
    if (a?.wasCustom) {
      const typed = a.values ? a.values.slice(a.indices?.length ?? 0).join(", ") : a.value;
      const lead = accessible ? t.PLAIN_TYPING : `${theme.fg("success", MARKS.chosen)} `;
      lines.push(`  ${lead}${theme.fg("text", clean(typed, true))} ${theme.fg("dim", t.RESULT_WROTE)}`);
    }
    if (a?.note) lines.push(`  ${theme.fg("dim", t.RESULT_NOTE)} ${theme.fg("muted", clean(a.note, true))}`);
  }
  // the person's one note on the whole call (written on the review)
  if (typeof details.note === "string" && details.note) lines.push(theme.fg("muted", t.CALL_NOTE_PREFIX + clean(details.note, expanded)));
  return lines;
}
