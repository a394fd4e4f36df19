/* result.c — the one builder of the tool result, for every mode: `details` (JSON kept in
 * pi's session) and the text the model reads. The model-facing sentences live here, in one
 * table; they stay English whatever language the person's UI uses (the model reads them). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request/request_internal.h"
#include "qt_text.h"
#include "qt_typed.h"

/* ---- what the model reads when nothing (or not everything) was answered -------------------- */
static const char *const OUTCOME_SENTENCE[] = {
    [QT_ANSWERED] = "",
    [QT_DECLINED] =
        "The user declined to answer and left the decision to you. Decide yourself, state the assumptions you made "
        "in your reply, and continue.",
    [QT_CANCELLED] =
        "The user cancelled the question without answering. Do not guess an answer and do not continue the task: end "
        "your turn and wait for the user's next message.",
    [QT_INTERRUPTED] =
        "The question was interrupted before the user answered (the run was aborted). Nothing was answered: do not "
        "assume an answer, and wait for the user before acting on anything this question was about.",
    [QT_UNAVAILABLE] = "The question could not be shown to the user, so nothing was answered. Do not assume an answer.",
};
/* A cancel when the user's settings let the agent go on after Esc. */
static const char CANCEL_CONTINUES[] =
    "The user dismissed the question without answering and lets you continue. Go on without this information: do "
    "not assume an answer, and do not ask the same question again right away.";
static const char DECLINED_SOME[] =
    "The user answered the questions above and declined the others, leaving them to you. Decide those yourself, "
    "state the assumptions you made in your reply, and continue.";
static const char DECLINED_AFTER_ANSWERING[] =
    "The user answered every question above but declined to confirm them, leaving the decision to you. Treat these "
    "answers as their preference, state any assumptions you make, and continue.";
/* Asked without waiting (QT_ASKED): the question's id sits between the two parts. */
static const char ASKED_BEFORE[] = "Asked (question ";
static const char ASKED_AFTER[] =
    "): the person's answer will arrive later as a message naming this question. Don't assume an answer; go on with "
    "work that does not depend on it.";
/* The person's one note on the whole call (written on the review), after the answers' lines. */
static const char CALL_NOTE_LINE[] = "note on all the answers: ";
/* After an answer the person kept from this project's memory of answers: when it was given. */
static const char EARLIER_CONFIRMED[] = " (the earlier answer (%s), confirmed)";
/* An answer another pi extension gave (mode "extension", pi's event bus): said before anything
 * else, so the model never takes it for the person's; the name, when the extension gave one,
 * between the two parts. */
static const char EXTENSION_HEAD[] = "Answered by another pi extension, not by the person";
static const char EXTENSION_NAMED[] = " (it calls itself \"%s\"; the name is its own claim, not verified)";
static const char EXTENSION_TAIL[] =
    ". Nothing below is the user's choice or words: where it says \"the user\", read \"that extension\". Treat "
    "it as that extension's answer, not as the user's decision.\n";
/* An answer through `pi-question answer` from a process pi could not check (mode
 * "unverified": the OS does not tell who connected): why, between the two parts. */
static const char UNVERIFIED_HEAD[] = "Answered with `pi-question answer` by a process pi could not identify";
static const char UNVERIFIED_WHY[] = " (%s)";
static const char UNVERIFIED_TAIL[] =
    ": it may be the user in another terminal, or a command run on this machine (yours included). It is not "
    "verified as the user's choice: where the text below says \"the user\", read \"that process\". Confirm "
    "anything that matters with the user before acting on it.\n";
/* Answers written into the pending-questions file between runs (mode "pending", print mode):
 * the file is this person's pi's, but anything running as them may have filled it in; the
 * file's name between the two parts. */
static const char PENDING_HEAD[] = "Taken from the answers written into the pending-questions file";
static const char PENDING_NAMED[] = " (%s)";
static const char PENDING_TAIL[] =
    " after an earlier run left these questions there. pi cannot tell whether the user or a command run on "
    "this machine wrote them: confirm anything that matters with the user before acting on it.\n";
/* The model's own pre-supplied `answers` (mode "presupplied"): nobody was asked. */
static const char PRESUPPLIED_HEAD[] =
    "Taken from the answers given in this call's `answers`; the user was not asked and chose none of it.\n";
/* A secret question's answer (qt_question.secret): the model gets the file's path, never the text. */
static const char SECRET_FILE_LINE[] = "the user's secret answer is in the file %s (only this user can read it).";
/* How to use it: with an example when the path can stand between single quotes as it is. */
static const char SECRET_FILE_USE[] =
    " Use it from there, e.g. as \"$(cat '%s')\" inside a command, and never print, echo, log or repeat its "
    "contents";
static const char SECRET_FILE_USE_PLAIN[] = " Use it from there, and never print, echo, log or repeat its contents";
static const char SECRET_LOST_LINE[] =
    "the user gave a secret answer, but it could not be handed over safely here, so it was dropped: tell the user, "
    "and ask them for it again or for a file or environment variable that holds it";
static const char TRUNCATION_MARK[] = "\n[result truncated: %zu more bytes]";
static const char *const OUTCOME_NAME[QT_OUTCOME_LAST + 1] = {
    [QT_ANSWERED] = "answered",       [QT_DECLINED] = "declined",
    [QT_CANCELLED] = "cancelled",     [QT_INTERRUPTED] = "interrupted",
    [QT_UNAVAILABLE] = "unavailable", [QT_TIMED_OUT] = "timed_out",
    [QT_DISCUSS] = "discuss",         [QT_ASKED] = "asked",
};

const char *qt_outcome_name(qt_outcome outcome) {
  return (unsigned)outcome <= QT_OUTCOME_LAST && OUTCOME_NAME[outcome] ? OUTCOME_NAME[outcome] : "unknown";
}

/* ---- the person's timeout ran out (QT_TIMED_OUT) ----------------------------------------------
 * Said plainly: the person did not answer in time, and what their setting applied. Never that
 * they chose anything. */
static const char TIMEOUT_CANCEL[] =
    "The user did not answer within the time limit they set, so the question closed itself as their timeout "
    "setting asks (\"then\": \"cancel\"). Nothing was answered: do not guess an answer and do not continue the "
    "task: end your turn and wait for the user's next message.";
static const char TIMEOUT_DECLINE[] =
    "The user did not answer within the time limit they set; their timeout setting (\"then\": \"decline\") "
    "leaves the decision to you. The user chose nothing: decide yourself, state the assumptions you made in your "
    "reply, and continue.";
static const char TIMEOUT_RECOMMENDED[] =
    "The user did not answer within the time limit they set; their timeout setting (\"then\": \"recommended\") "
    "applied the recommended option shown above. The user did not choose it: treat it as a default, say in your "
    "reply that it was applied because nobody answered in time, and continue.";
static const char TIMEOUT_RECOMMENDED_SOME[] =
    "The user did not answer within the time limit they set; their timeout setting (\"then\": \"recommended\") "
    "applied the recommended option where a question had one (shown above). The user did not choose it: treat it "
    "as a default and say so in your reply. The questions without a recommended option are left to you: decide "
    "those yourself, state your assumptions, and continue.";
static const char TIMEOUT_SELECTED[] =
    "The user stopped answering before they submitted, and their timeout setting (\"then\": \"selected\") sent "
    "the answers they had selected (above) after the time they set passed without a key. Treat them as the "
    "user's answers, say in your reply that they were sent by the timeout, and continue.";
static const char TIMEOUT_SELECTED_SOME[] =
    "The user stopped answering part-way, and their timeout setting (\"then\": \"selected\") sent the answers "
    "they had selected (above) after the time they set passed without a key. Treat those as the user's answers; "
    "the questions not listed were not answered: decide those yourself, state your assumptions, and continue.";
static const char TIMEOUT_SELECTED_NONE[] =
    "The user did not answer within the time limit they set; their timeout setting (\"then\": \"selected\") "
    "would send what they had selected, and nothing was selected. The user chose nothing: decide yourself, state "
    "the assumptions you made in your reply, and continue.";
static const char TIMEOUT_APPLIED[] = "not answered in time; the timeout applied the recommended option: ";
static const char TIMEOUT_THEN[][12] = {"cancel", "decline", "recommended", "selected"};

/* 0 cancel, 1 decline, 2 recommended, 3 selected: the "then" of a QT_TIMED_OUT result's flags. */
static int timeout_then(unsigned flags) {
  return (flags & QT_RESULT_TIMEOUT_SELECTED)      ? 3
         : (flags & QT_RESULT_TIMEOUT_RECOMMENDED) ? 2
         : (flags & QT_RESULT_TIMEOUT_DECLINE)     ? 1
                                                   : 0;
}

size_t qt_recommended_option(const qt_question *q) {
  static const char MARK[] = "(recommended)";
  const size_t mark = sizeof MARK - 1;
  for (size_t k = 0; q && k < q->option_count; k++) {
    const char *l = q->options[k].label;
    size_t n = l ? strlen(l) : 0;
    while (n && (l[n - 1] == ' ' || l[n - 1] == '\t')) n--;
    if (n < mark) continue;
    size_t i = 0;
    while (i < mark) {
      char c = l[n - mark + i];
      if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
      if (c != MARK[i]) break;
      i++;
    }
    if (i == mark) return k;
  }
  return SIZE_MAX;
}

/* ---- the person wants to talk first (QT_DISCUSS) -----------------------------------------------
 * Their words, quoted between the two sentences; the turn goes on. */
static const char DISCUSS_BEFORE[] =
    "The user wants to talk about this question before answering it, and wrote to you:\n  ";
static const char DISCUSS_BEFORE_SOME[] =
    "The user answered the questions above and wants to talk about the rest before answering, and wrote to you:\n  ";
static const char DISCUSS_AFTER[] =
    "\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question "
    "again later if you still need the answer.";

/* ---- a question the person skipped (qt_skip) ---------------------------------------------------
 * Its line says what the person chose instead of an answer; after the lines, what the model does
 * about it (the chat's sentence first: it asks the model to wait). */
static const char *const SKIP_LINE[QT_SKIP_COUNT] = {
    [QT_SKIP_SKIPPED] = "skipped by the user: decide it yourself",
    [QT_SKIP_CHAT] = "the user will answer this one in the chat",
};
static const char *const SKIP_LINE_BY[QT_SKIP_COUNT] = {
    /* not the person's answer: no "user" */
    [QT_SKIP_SKIPPED] = "skipped: decide it yourself",
    [QT_SKIP_CHAT] = "to be answered in the chat",
};
static const char SKIPPED_SENTENCE[] =
    "The user skipped the questions marked \"skipped\": decide those yourself, state the assumptions you made in "
    "your reply, and do not ask them again right away.";
static const char SKIP_CHAT_SENTENCE[] =
    "The user will answer the questions marked \"in the chat\" in their next message: do not decide those and do "
    "not act on anything that depends on them. Go on with what the other answers settle, then end your turn and "
    "wait for the user.";
static const char SKIP_CHAT_AFTER[] = /* after the sentence of a call that was not answered */
    " The user will answer the questions marked \"in the chat\" in their next message: do not decide those.";
static const char SKIP_BOTH_SENTENCE[] =
    "The user skipped the questions marked \"skipped\" (decide those yourself and state your assumptions) and will "
    "answer the ones marked \"in the chat\" in their next message: do not decide those or act on anything that "
    "depends on them. Go on with what the rest settles, then end your turn and wait for the user.";

/* ---- details ---------------------------------------------------------------------------------- */
static bool add_str(cJSON *o, const char *k, const char *v) { return cJSON_AddStringToObject(o, k, v) != NULL; }

/* What became of a secret question's answer in this result. */
enum { SECRET_NONE, SECRET_FILE /* custom holds the file's path */, SECRET_LOST /* custom dropped */ };

static cJSON *answer_to_cjson(const qt_question *q, const qt_answer *a, bool applied, const char *earlier,
                              uint8_t secret) {
  cJSON *o = cJSON_CreateObject();
  qt_buf value, label;
  qt_buf_init(&value);
  qt_buf_init(&label);
  if (!o || !add_str(o, "id", q->id)) goto fail;
  if (secret) { /* { id, secret: true, file? }: no value, no label — the text is the file's alone */
    if (!cJSON_AddBoolToObject(o, "secret", true) || (secret == SECRET_FILE && !add_str(o, "file", a->custom)) ||
        (a->note && !add_str(o, "note", a->note)))
      goto fail;
    return o;
  }
  for (size_t k = 0; k < a->index_count; k++) {
    const qt_option *op = &q->options[a->indices[k] - 1];
    if (k) qt_buf_puts(&value, ", "), qt_buf_puts(&label, ", ");
    qt_buf_puts(&value, op->value);
    qt_buf_puts(&label, op->label);
  }
  if (a->custom) {
    if (a->index_count) qt_buf_puts(&value, ", "), qt_buf_puts(&label, ", ");
    qt_buf_puts(&value, a->custom);
    qt_buf_puts(&label, a->custom);
  }
  if (value.failed || label.failed) goto fail;
  if (!add_str(o, "value", value.data ? value.data : "") || !add_str(o, "label", label.data ? label.data : "") ||
      !cJSON_AddBoolToObject(o, "wasCustom", a->custom != NULL))
    goto fail;
  if (!q->multi_select && a->index_count == 1 && !a->custom) {
    if (!cJSON_AddNumberToObject(o, "index", (double)a->indices[0])) goto fail;
  }
  if (q->multi_select) {
    cJSON *values = cJSON_AddArrayToObject(o, "values"), *labels = cJSON_AddArrayToObject(o, "labels"),
          *indices = cJSON_AddArrayToObject(o, "indices");
    if (!values || !labels || !indices) goto fail;
    for (size_t k = 0; k < a->index_count; k++) {
      const qt_option *op = &q->options[a->indices[k] - 1];
      if (!cJSON_AddItemToArray(values, cJSON_CreateString(op->value)) ||
          !cJSON_AddItemToArray(labels, cJSON_CreateString(op->label)) ||
          !cJSON_AddItemToArray(indices, cJSON_CreateNumber((double)a->indices[k])))
        goto fail;
    }
    if (a->custom && (!cJSON_AddItemToArray(values, cJSON_CreateString(a->custom)) ||
                      !cJSON_AddItemToArray(labels, cJSON_CreateString(a->custom))))
      goto fail;
  }
  qt_typed_value tv; /* a typed question's value: a number, true/false, or the text (date, e-mail, address) */
  if (qt_typed_of_answer(q, a, &tv)) {
    cJSON *typed = tv.type == QT_TYPE_NUMBER || tv.type == QT_TYPE_INTEGER ? cJSON_CreateNumber(tv.number)
                   : tv.type == QT_TYPE_BOOLEAN                            ? cJSON_CreateBool(tv.yes)
                                                                           : cJSON_CreateString(a->custom);
    if (!typed || !cJSON_AddItemToObject(o, "typed", typed)) {
      cJSON_Delete(typed);
      goto fail;
    }
  }
  if (a->note && !add_str(o, "note", a->note)) goto fail;
  if (applied && !cJSON_AddBoolToObject(o, "appliedByTimeout", true)) goto fail;
  if (earlier && !add_str(o, "earlierAnswer", earlier)) goto fail; /* the remembered answer, kept */
  qt_buf_free(&value);
  qt_buf_free(&label);
  return o;
fail:
  qt_buf_free(&value);
  qt_buf_free(&label);
  cJSON_Delete(o);
  return NULL;
}

static char *details_json(const qt_request *req, const qt_answer *answers, const bool *applied,
                          const char *const *earlier, qt_outcome outcome, const char *mode, int64_t answered_at_ms,
                          bool keep_answers, unsigned flags, const char *discussion, const char *qid,
                          const char *source, const char *call_note, const uint8_t *secret) {
  cJSON *root = cJSON_CreateObject(), *qs = NULL;
  if (!root) return NULL;
  qs = qt_questions_to_cjson(req, true);
  if (!qs || !cJSON_AddItemToObject(root, "questions", qs)) {
    cJSON_Delete(qs);
    goto fail;
  }
  cJSON *arr = cJSON_AddArrayToObject(root, "answers");
  if (!arr) goto fail;
  if (keep_answers && answers) {
    for (size_t i = 0; i < req->question_count; i++) {
      if (!answers[i].present || answers[i].skipped) continue;
      cJSON *a = answer_to_cjson(&req->questions[i], &answers[i], applied && applied[i], earlier ? earlier[i] : NULL,
                                 secret ? secret[i] : SECRET_NONE);
      if (!a || !cJSON_AddItemToArray(arr, a)) {
        cJSON_Delete(a);
        goto fail;
      }
    }
  }
  cJSON *skipped = NULL; /* [{ id, reason }]: the questions the person skipped, apart from the answers */
  for (size_t i = 0; keep_answers && answers && i < req->question_count; i++) {
    if (!answers[i].present || !answers[i].skipped) continue;
    cJSON *o = cJSON_CreateObject();
    if (!skipped && !(skipped = cJSON_AddArrayToObject(root, "skipped"))) {
      cJSON_Delete(o);
      goto fail;
    }
    if (!o || !cJSON_AddItemToArray(skipped, o)) {
      cJSON_Delete(o);
      goto fail;
    }
    if (!add_str(o, "id", req->questions[i].id) || !add_str(o, "reason", qt_skip_name((qt_skip)answers[i].skipped)) ||
        (answers[i].note && !add_str(o, "note", answers[i].note)))
      goto fail;
  }
  if (!cJSON_AddBoolToObject(root, "cancelled", outcome != QT_ANSWERED) ||
      !add_str(root, "status", qt_outcome_name(outcome)) || !add_str(root, "mode", mode ? mode : "unknown") ||
      !cJSON_AddNumberToObject(root, "answeredAt", (double)answered_at_ms))
    goto fail;
  if (discussion && !add_str(root, "discussion", discussion)) goto fail;         /* QT_DISCUSS: what the person wrote */
  if (keep_answers && call_note && !add_str(root, "note", call_note)) goto fail; /* one note on the whole call */
  if (qid && !add_str(root, "qid", qid)) goto fail;                              /* QT_ASKED: the question's id */
  if (source && *source && !add_str(root, "source", source)) goto fail;          /* mode "extension": its own name */
  if (outcome == QT_TIMED_OUT && !add_str(root, "timeout", TIMEOUT_THEN[timeout_then(flags)])) goto fail;
  if (req->metadata_json) {
    cJSON *m = cJSON_Parse(req->metadata_json);
    if (!m || !cJSON_AddItemToObject(root, "metadata", m)) {
      cJSON_Delete(m);
      goto fail;
    }
  }
  char *s = qt_cjson_print(root); /* malloc'ed: qt.h's strings are released with free() */
  cJSON_Delete(root);
  return s;
fail:
  cJSON_Delete(root);
  return NULL;
}

/* ---- the text the model reads ------------------------------------------------------------------
 * One line per given answer, in question order, then the outcome's sentence. The text is capped
 * at QT_MAX_RESULT_TEXT_BYTES without losing a line: the parts of a line that can be long (the
 * options picked, the typed text, the note, and the host's reason) are its pieces; when the
 * whole does not fit, the longest pieces are cut to one common length — as long as the cap
 * allows — each ending in SHORTENED_MARK with the bytes left out. */
static const char SHORTENED_MARK[] = "… [shortened: %zu more bytes]";

/* Appends text with every line break followed by an indent, so one answer stays one entry. */
static void put_indented(qt_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '\r' && s[1] == '\n') continue;
    qt_buf_putc(b, *s);
    if (*s == '\n') qt_buf_puts(b, "  ");
  }
}

/* The pieces of question i's line, and the last one, the reason. */
enum { PIECE_SELECTED = 0, PIECE_WROTE, PIECE_NOTE, PIECES_PER_LINE };

/* Bytes of SHORTENED_MARK for a piece of `len` bytes (at most: fewer bytes may be left out). */
static size_t mark_bytes(size_t len) {
  size_t digits = 1;
  for (; len >= 10; len /= 10) digits++;
  return sizeof SHORTENED_MARK - 1 - 3 + digits; /* "%zu" becomes the digits */
}

/* What a piece of `len` bytes costs when pieces are cut to `level` bytes. */
static size_t piece_cost(size_t len, size_t level) {
  if (len <= level) return len;
  size_t mark = mark_bytes(len);
  return level > mark ? level : mark;
}

/* Appends a piece whole (keep == SIZE_MAX) or its first `keep` bytes, cut back to a character
 * boundary and to no trailing line break or indent, then the mark. */
static void put_piece(qt_buf *b, const qt_buf *piece, size_t keep) {
  if (!piece->len) return;
  if (keep >= piece->len) {
    qt_buf_append(b, piece->data, piece->len);
    return;
  }
  const char *s = piece->data;
  while (keep && ((unsigned char)s[keep] & 0xC0) == 0x80) keep--;     /* whole characters only */
  while (keep && (s[keep - 1] == '\n' || s[keep - 1] == ' ')) keep--; /* the line stays one entry */
  qt_buf_append(b, s, keep);
  qt_buf_printf(b, SHORTENED_MARK, piece->len - keep);
}

/* After a typed question's answer, its type and, for a number or yes/no, the value it reads as:
 * " (integer: 12)", " (boolean: true)", " (date)". Short: never a piece. */
static void put_typed(qt_buf *b, const qt_question *q, const qt_answer *a) {
  qt_typed_value v;
  if (!qt_typed_of_answer(q, a, &v)) return;
  qt_buf_printf(b, " (%s", qt_type_name(v.type));
  if (v.type == QT_TYPE_NUMBER || v.type == QT_TYPE_INTEGER || v.type == QT_TYPE_BOOLEAN) {
    qt_buf_puts(b, ": ");
    qt_typed_text(q, &v, NULL, b);
  }
  qt_buf_putc(b, ')');
}

/* Writes the text with piece k cut to keep[k] bytes (SIZE_MAX: whole); with keep NULL, writes
 * only what is not a piece (to measure it). */
static void put_text(qt_buf *b, const qt_request *req, const qt_answer *answers, const bool *applied,
                     const char *const *earlier, bool lines, const char *sentence, const char *tail,
                     const qt_buf *pieces, const size_t *keep, const char *by, const char *extra,
                     const uint8_t *secret) {
  size_t n = req->question_count;
  if (by) qt_buf_puts(b, by); /* not the person's answer: said first, and no line says "user" */
  for (size_t i = 0; lines && i < n; i++) {
    const qt_answer *a = &answers[i];
    if (!a->present) continue;
    const qt_buf *p = &pieces[i * PIECES_PER_LINE];
    const size_t *k = keep ? &keep[i * PIECES_PER_LINE] : NULL;
    qt_buf_printf(b, "%s: ", req->questions[i].id);
    if (a->skipped) qt_buf_puts(b, (by ? SKIP_LINE_BY : SKIP_LINE)[a->skipped < QT_SKIP_COUNT ? a->skipped : 1]);
    if (secret && secret[i] == SECRET_FILE) {
      qt_buf_printf(b, SECRET_FILE_LINE, a->custom);
      qt_buf_printf(b, strchr(a->custom, '\'') ? SECRET_FILE_USE_PLAIN : SECRET_FILE_USE, a->custom);
    }
    if (secret && secret[i] == SECRET_LOST) qt_buf_puts(b, SECRET_LOST_LINE);
    if (a->index_count) {
      qt_buf_puts(b, applied && applied[i] ? TIMEOUT_APPLIED : by ? "selected: " : "user selected: ");
      if (keep) put_piece(b, &p[PIECE_SELECTED], k[PIECE_SELECTED]);
    }
    if (a->custom && !(secret && secret[i])) {
      if (a->index_count) qt_buf_puts(b, "; ");
      qt_buf_puts(b, by ? "wrote: " : "user wrote: ");
      if (keep) put_piece(b, &p[PIECE_WROTE], k[PIECE_WROTE]);
    }
    put_typed(b, &req->questions[i], a);
    if (a->note) {
      qt_buf_puts(b, "; note: ");
      if (keep) put_piece(b, &p[PIECE_NOTE], k[PIECE_NOTE]);
    }
    if (earlier && earlier[i]) qt_buf_printf(b, EARLIER_CONFIRMED, earlier[i]);
    qt_buf_putc(b, '\n');
  }
  const qt_buf *call_note = &pieces[n * PIECES_PER_LINE + 1];
  if (lines && call_note->len) { /* the person's one note on the whole call, after the answers */
    qt_buf_puts(b, CALL_NOTE_LINE);
    if (keep) put_piece(b, call_note, keep[n * PIECES_PER_LINE + 1]);
    qt_buf_putc(b, '\n');
  }
  if (!sentence) { /* answered: no sentence, no last line break */
    if (b->len && b->data[b->len - 1] == '\n') b->data[--b->len] = '\0';
    return;
  }
  qt_buf_puts(b, sentence);
  const qt_buf *reason = &pieces[n * PIECES_PER_LINE];
  if (tail) { /* QT_DISCUSS, QT_ASKED: the person's words (the id) sit between the sentence and its tail */
    if (keep) put_piece(b, reason, keep[n * PIECES_PER_LINE]);
    qt_buf_puts(b, tail);
  } else if (reason->len) {
    qt_buf_putc(b, ' ');
    if (keep) put_piece(b, reason, keep[n * PIECES_PER_LINE]);
  }
  if (extra) qt_buf_puts(b, extra);
}

/* The pieces of one answer's line. */
static void answer_pieces(qt_buf *p, const qt_question *q, const qt_answer *a, bool secret) {
  for (size_t k = 0; k < a->index_count; k++) {
    const qt_option *op = &q->options[a->indices[k] - 1];
    if (k) qt_buf_puts(&p[PIECE_SELECTED], ", ");
    qt_buf_printf(&p[PIECE_SELECTED], "%zu. ", a->indices[k]);
    put_indented(&p[PIECE_SELECTED], op->label);
    if (strcmp(op->value, op->label) != 0) {
      qt_buf_puts(&p[PIECE_SELECTED], " (value: ");
      put_indented(&p[PIECE_SELECTED], op->value);
      qt_buf_putc(&p[PIECE_SELECTED], ')');
    }
  }
  if (a->custom && !secret) put_indented(&p[PIECE_WROTE], a->custom); /* a secret's path: never cut */
  if (a->note) put_indented(&p[PIECE_NOTE], a->note);
}

/* Chooses keep[] so the text fits the cap: the longest level such that every piece longer than
 * it, cut to it, leaves the whole within `room` (the cap less what is not a piece). False when
 * not even the marks fit (only a request far beyond the limits gets there). */
static bool fit_pieces(const qt_buf *pieces, size_t count, size_t room, size_t *keep) {
  size_t total = 0, longest = 0;
  for (size_t k = 0; k < count; k++) {
    total += pieces[k].len;
    if (pieces[k].len > longest) longest = pieces[k].len;
    keep[k] = SIZE_MAX;
  }
  if (total <= room) return true;
  size_t lo = 0, hi = longest; /* the answer is in [lo, hi): cost(hi) > room */
  size_t cost = 0;
  for (size_t k = 0; k < count; k++) cost += piece_cost(pieces[k].len, 0);
  if (cost > room) return false;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    cost = 0;
    for (size_t k = 0; k < count && cost <= room; k++) cost += piece_cost(pieces[k].len, mid);
    if (cost <= room)
      lo = mid;
    else
      hi = mid;
  }
  for (size_t k = 0; k < count; k++) {
    size_t len = pieces[k].len, mark = mark_bytes(len);
    if (len > lo) keep[k] = lo > mark ? lo - mark : 0;
  }
  return true;
}

/* `details` keeps the answers of these outcomes, and the text says them. */
static bool keeps_answers(qt_outcome outcome, unsigned flags) {
  return outcome == QT_ANSWERED || outcome == QT_DECLINED || outcome == QT_DISCUSS ||
         (outcome == QT_TIMED_OUT && timeout_then(flags) != 0);
}

static char *result_text(const qt_request *req, const qt_answer *answers, const bool *applied,
                         const char *const *earlier, qt_outcome outcome, const char *reason, unsigned flags,
                         const char *by, const char *call_note, const uint8_t *secret) {
  size_t n = req->question_count, count = n * PIECES_PER_LINE + 2; /* the reason, the call's note */
  bool lines = answers && keeps_answers(outcome, flags);
  size_t given = 0;
  bool skipped = false, in_chat = false;
  for (size_t i = 0; lines && i < n; i++) {
    given += answers[i].present && !answers[i].skipped; /* a skip is no answer given */
    skipped |= answers[i].present && answers[i].skipped == QT_SKIP_SKIPPED;
    in_chat |= answers[i].present && answers[i].skipped == QT_SKIP_CHAT;
  }
  const char *sentence = NULL;
  if (outcome == QT_ANSWERED && (skipped || in_chat))
    sentence = skipped && in_chat ? SKIP_BOTH_SENTENCE : in_chat ? SKIP_CHAT_SENTENCE : SKIPPED_SENTENCE;
  else if (outcome == QT_DECLINED && given && given == n)
    sentence = DECLINED_AFTER_ANSWERING;
  else if (outcome == QT_DECLINED && given)
    sentence = DECLINED_SOME;
  else if (outcome == QT_CANCELLED && (flags & QT_RESULT_CANCEL_CONTINUES))
    sentence = CANCEL_CONTINUES;
  else if (outcome == QT_DISCUSS)
    sentence = given ? DISCUSS_BEFORE_SOME : DISCUSS_BEFORE;
  else if (outcome == QT_TIMED_OUT) {
    size_t applied_count = 0;
    for (size_t i = 0; applied && i < n; i++) applied_count += applied[i];
    int then = timeout_then(flags);
    if (then == 3)
      sentence = !given ? TIMEOUT_SELECTED_NONE : given < n ? TIMEOUT_SELECTED_SOME : TIMEOUT_SELECTED;
    else
      sentence = then == 0                     ? TIMEOUT_CANCEL
                 : then == 1 || !applied_count ? TIMEOUT_DECLINE
                 : given < n                   ? TIMEOUT_RECOMMENDED_SOME
                                               : TIMEOUT_RECOMMENDED;
  } else if (outcome == QT_ASKED)
    sentence = ASKED_BEFORE;
  else if (outcome != QT_ANSWERED)
    sentence = OUTCOME_SENTENCE[outcome];
  const char *tail = outcome == QT_DISCUSS ? DISCUSS_AFTER : outcome == QT_ASKED ? ASKED_AFTER : NULL;
  /* a call that ended otherwise with questions the person will answer in the chat: said last */
  const char *extra = in_chat && outcome != QT_ANSWERED ? SKIP_CHAT_AFTER : NULL;

  qt_buf *pieces = calloc(count, sizeof *pieces);
  size_t *keep = calloc(count, sizeof *keep);
  qt_buf b;
  qt_buf_init(&b);
  bool ok = pieces && keep;
  if (ok) {
    for (size_t i = 0; lines && i < n; i++)
      if (answers[i].present)
        answer_pieces(&pieces[i * PIECES_PER_LINE], &req->questions[i], &answers[i], secret && secret[i]);
    if (outcome == QT_DISCUSS || outcome == QT_ASKED) /* their words (the id), one entry however many lines */
      put_indented(&pieces[n * PIECES_PER_LINE], reason ? reason : "");
    else if (sentence && reason)
      qt_buf_puts(&pieces[n * PIECES_PER_LINE], reason);
    if (lines && call_note) put_indented(&pieces[n * PIECES_PER_LINE + 1], call_note);
    for (size_t k = 0; k < count; k++) ok &= !pieces[k].failed;
  }
  if (ok) {
    put_text(&b, req, answers, applied, earlier, lines, sentence, tail, pieces, NULL, by, extra,
             secret); /* what is not a piece */
    size_t fixed = b.len;
    qt_buf_reset(&b);
    if (fixed <= QT_MAX_RESULT_TEXT_BYTES && fit_pieces(pieces, count, QT_MAX_RESULT_TEXT_BYTES - fixed, keep)) {
      put_text(&b, req, answers, applied, earlier, lines, sentence, tail, pieces, keep, by, extra, secret);
    } else { /* only a request far beyond its limits gets here: cut the end (lines may be lost) */
      for (size_t k = 0; k < count; k++) keep[k] = SIZE_MAX;
      put_text(&b, req, answers, applied, earlier, lines, sentence, tail, pieces, keep, by, extra, secret);
      if (b.len > QT_MAX_RESULT_TEXT_BYTES) {
        char mark[96];
        size_t cut = QT_MAX_RESULT_TEXT_BYTES - sizeof mark;
        while (cut && ((unsigned char)b.data[cut] & 0xC0) == 0x80) cut--;
        snprintf(mark, sizeof mark, TRUNCATION_MARK, b.len - cut);
        b.len = cut;
        qt_buf_puts(&b, mark);
      }
    }
    ok = !b.failed;
  }
  if (pieces)
    for (size_t k = 0; k < count; k++) qt_buf_free(&pieces[k]);
  free(pieces);
  free(keep);
  if (!ok) {
    qt_buf_free(&b);
    return NULL;
  }
  if (!b.data) qt_buf_reserve(&b, 0);
  return qt_buf_take(&b);
}

/* The modes whose answers are not known to be the person's (see qt_result_build_from). */
static bool not_the_persons(const char *mode) {
  static const char *const OTHER[] = {"extension", "unverified", "presupplied", "pending"};
  for (size_t k = 0; mode && k < sizeof OTHER / sizeof *OTHER; k++)
    if (strcmp(mode, OTHER[k]) == 0) return true;
  return false;
}

bool qt_result_takes_secrets(qt_outcome outcome, const char *mode, unsigned flags) {
  return keeps_answers(outcome, flags) && !not_the_persons(mode);
}

qt_status qt_result_build(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                          int64_t answered_at_ms, const char *reason, char **details, char **text) {
  return qt_result_build_ex(req, answers, outcome, mode, answered_at_ms, reason, 0, details, text);
}

qt_status qt_result_build_ex(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                             int64_t answered_at_ms, const char *reason, unsigned flags, char **details, char **text) {
  return qt_result_build_earlier(req, answers, outcome, mode, answered_at_ms, reason, flags, NULL, details, text);
}

qt_status qt_result_build_earlier(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                                  int64_t answered_at_ms, const char *reason, unsigned flags,
                                  const char *const *earlier, char **details, char **text) {
  return qt_result_build_from(req, answers, outcome, mode, NULL, answered_at_ms, reason, flags, earlier, details, text);
}

/* The name another extension gave itself, for the model and the transcript: sanitized (nothing
 * in it acts on a terminal, one line), a double quote made a single one (it is said between
 * double quotes), cut to QT_MAX_ANSWER_SOURCE_BYTES at a character boundary, trimmed. "" for none. */
static bool source_name(qt_buf *out, const char *source) {
  qt_buf_append(out, "", 0); /* "" for none: data always set */
  if (!source) return !out->failed;
  qt_buf clean;
  qt_buf_init(&clean);
  qt_sanitize(&clean, source, strlen(source), 0);
  size_t len = clean.len;
  if (len > QT_MAX_ANSWER_SOURCE_BYTES) {
    len = QT_MAX_ANSWER_SOURCE_BYTES;
    while (len && ((unsigned char)clean.data[len] & 0xC0) == 0x80) len--;
  }
  const char *s = clean.data ? clean.data : "";
  size_t start = 0;
  while (start < len && s[start] == ' ') start++;
  while (len > start && s[len - 1] == ' ') len--;
  for (size_t k = start; k < len; k++) qt_buf_putc(out, s[k] == '"' ? '\'' : s[k]);
  bool ok = !clean.failed && !out->failed;
  qt_buf_free(&clean);
  return ok;
}

qt_status qt_result_build_from(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                               const char *source, int64_t answered_at_ms, const char *reason, unsigned flags,
                               const char *const *earlier, char **details, char **text) {
  return qt_result_build_noted(req, answers, outcome, mode, source, answered_at_ms, reason, flags, earlier, NULL,
                               details, text);
}

qt_status qt_result_build_noted(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                                const char *source, int64_t answered_at_ms, const char *reason, unsigned flags,
                                const char *const *earlier, const char *call_note, char **details, char **text) {
  return qt_result_build_secret(req, answers, outcome, mode, source, answered_at_ms, reason, flags, earlier, call_note,
                                NULL, details, text);
}

qt_status qt_result_build_secret(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                                 const char *source, int64_t answered_at_ms, const char *reason, unsigned flags,
                                 const char *const *earlier, const char *call_note, const char *const *secret_paths,
                                 char **details, char **text) {
  if (call_note && !*call_note) call_note = NULL;
  if (outcome != QT_ANSWERED) earlier = NULL; /* only an answer given can be the earlier one, kept */
  if (!req || !details || !text || (unsigned)outcome > QT_OUTCOME_LAST || !OUTCOME_NAME[outcome]) return QT_ERR_USAGE;
  *details = *text = NULL;
  if (outcome == QT_ANSWERED) {
    if (!answers) return QT_ERR_STATE;
    for (size_t i = 0; i < req->question_count; i++)
      if (!answers[i].present) return QT_ERR_STATE;
  }
  /* A timeout with "then": "recommended" answers every open question that has a recommended
   * option with it: a shallow copy of the answers (the indices of applied ones point at `picked`). */
  qt_answer *merged = NULL;
  bool *applied = NULL;
  size_t *picked = NULL;
  if (outcome == QT_TIMED_OUT && timeout_then(flags) == 2) {
    size_t n = req->question_count;
    merged = calloc(n, sizeof *merged);
    applied = calloc(n, sizeof *applied);
    picked = calloc(n, sizeof *picked);
    if (!merged || !applied || !picked) {
      free(merged);
      free(applied);
      free(picked);
      return QT_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
      if (answers && answers[i].present) {
        merged[i] = answers[i];
        continue;
      }
      size_t k = qt_recommended_option(&req->questions[i]);
      if (k == SIZE_MAX) continue;
      picked[i] = k + 1;
      merged[i] = (qt_answer){.present = true, .indices = &picked[i], .index_count = 1};
      applied[i] = true;
    }
    answers = merged;
  }
  bool keep = keeps_answers(outcome, flags); /* a cancel discards everything */
  /* Not known to be the person's answer (another extension; a process pi could not identify; the
   * pending file; the model's own pre-supplied answers): what is
   * known of who answered (`name`: sanitized, "" for nothing) and the text's first line (`by`). */
  qt_buf name, by;
  qt_buf_init(&name);
  qt_buf_init(&by);
  bool extension = mode && strcmp(mode, "extension") == 0;
  bool presupplied = mode && strcmp(mode, "presupplied") == 0;
  bool pending = mode && strcmp(mode, "pending") == 0;
  bool other = not_the_persons(mode);
  if (presupplied && source_name(&name, NULL)) {
    qt_buf_puts(&by, PRESUPPLIED_HEAD);
  } else if (other && source_name(&name, source)) {
    qt_buf_puts(&by, extension ? EXTENSION_HEAD : pending ? PENDING_HEAD : UNVERIFIED_HEAD);
    if (*name.data)
      qt_buf_printf(&by, extension ? EXTENSION_NAMED : pending ? PENDING_NAMED : UNVERIFIED_WHY, name.data);
    qt_buf_puts(&by, extension ? EXTENSION_TAIL : pending ? PENDING_TAIL : UNVERIFIED_TAIL);
  }
  /* A secret question's text goes no further: its answer becomes the file's path (secret_paths,
   * given only for the person's answer), or is dropped, said as such. */
  qt_answer *hidden = NULL;
  uint8_t *secret = NULL;
  bool secret_failed = false;
  for (size_t i = 0; keep && answers && i < req->question_count && !secret_failed; i++) {
    if (!req->questions[i].secret || !answers[i].present || !answers[i].custom) continue;
    if (!hidden) {
      hidden = malloc(req->question_count * sizeof *hidden);
      secret = calloc(req->question_count, 1);
      if (!hidden || !secret) {
        secret_failed = true;
        break;
      }
      memcpy(hidden, answers, req->question_count * sizeof *hidden);
    }
    /* the pi above handed it over (relayed): its file, as it named it */
    bool file = !other && (answers[i].secret_file ? answers[i].custom[0] != '\0' : secret_paths && secret_paths[i]);
    hidden[i].custom = !file ? NULL : answers[i].secret_file ? answers[i].custom : (char *)secret_paths[i];
    secret[i] = file ? SECRET_FILE : SECRET_LOST;
  }
  if (hidden && !secret_failed) answers = hidden;
  bool ready = !secret_failed && (!other || (!name.failed && !by.failed && by.data));
  const char *by_text = other && ready ? by.data : NULL;
  *details = ready ? details_json(req, answers, applied, earlier, outcome, mode, answered_at_ms, keep, flags,
                                  outcome == QT_DISCUSS ? (reason ? reason : "") : NULL,
                                  outcome == QT_ASKED ? (reason ? reason : "") : NULL, other ? name.data : NULL,
                                  call_note, secret)
                   : NULL;
  *text =
      *details ? result_text(req, answers, applied, earlier, outcome, reason, flags, by_text, call_note, secret) : NULL;
  free(hidden);
  free(secret);
  qt_buf_free(&name);
  qt_buf_free(&by);
  free(merged);
  free(applied);
  free(picked);
  if (!*details || !*text) {
    free(*details);
    free(*text);
    *details = *text = NULL;
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}
