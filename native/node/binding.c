/* binding.c — the addon's module: its exports (below), the limits, normalize, result and the
 * string tables; the rest of the binding is in the other files of native/node/, the only files
 * that speak Node-API (marshal.c: conversions and errors; engine_class.c: the Engine;
 * text_keys.c: text and keys; tty_thread.c: the terminal question; lock_file.c: the lock).
 * Every napi call goes through NAPI_CALL, which turns a failure into a JS exception with a
 * `code` and returns; nothing here asserts or aborts (that would take pi down). Native
 * objects are wrapped with a type tag and freed by their finalizer. No global state: pi's
 * /reload may load this addon's exports again in the same process.
 *
 * Exports:
 *   limits                                   the constants of qt_limits.h
 *   normalize(json) -> string                canonical arguments JSON; throws on invalid
 *                                            (every `json` below may also be { prepared: json },
 *                                            pi's prepared arguments: see QT_PARSE_PREPARED)
 *   result(json, outcome, mode, at, reason?, answersJson?, flags?, earlier?, source?)
 *                                            -> { details: string, text }
 *                                            flags: 1 = a cancel lets the agent continue;
 *                                            source: mode "extension", the name it gives itself
 *   timeoutFlags(then) -> number             the result flags of a timed-out result whose "then"
 *                                            is `then` (unknown or none: 0, as "cancel")
 *   createEngine(json) -> Engine             see the Engine methods below; render(width, rows?) draws
 *                                            at most `rows` lines (0 or none: no limit)
 *   visibleWidth(str), graphemes(str), sanitize(str, keepNewlines)
 *   plainOption(language, n, of, label, state) "Option 2 of 3: SQLite, selected" (accessible mode)
 *   setWidthRules({ spacingMarks, currentEastAsianWidth, unicode15Clusters })   which pi-tui's widths every width
 *                                            above and every engine follow (qt_text.h), process-
 *                                            wide: the one state shared by all loads of the addon
 *   widthRules() -> { spacingMarks, currentEastAsianWidth, unicode15Clusters }
 *   decodeKeys(chunks[], { wholeKeys }?) -> [{ name, text?, paste?, repeat? }]
 *                                            wholeKeys: each chunk is whole keys, as pi's TUI hands them
 *   parseKeyId(id) -> { key, mods } | null
 *   strings(languageTag) -> { ID: text, $language }   the user-visible string table
 *   ttyAvailable(path) -> boolean            true when ttyStatus(path) is "free"
 *   ttyStatus(path) -> "free" | "absent" | "owned"   may this process take the terminal (qt_tty.h)
 *   _textWork() -> number                    tests only: code points the segmenter looked at
 *   _graphemesBackward(str)                  tests only: graphemes(str), stepping back from the end
 *   lockFile(path, timeoutMs) -> { release(remove?) }   an exclusive flock, bounded wait (qt_filelock.h)
 *   peerCredentials(fd) -> { pid, uid }      a local socket's peer (qt_peer.h); null where the OS does not tell
 *   processParent(pid) -> number | null, processCommandLine(pid) -> string | null
 *                                            Windows: a peer's parent and command line (qt_peer.h)
 *   pipeServe(name, onClient(fd, pid)) -> close() | undefined    the relay's named pipe on Windows (qt_pipe.h)
 *   pipeConnect(name, serverPid) -> { fd, serverPid } | { refused, serverPid, errno } | undefined
 *                                            its client's end, once its server is that pid and this user
 *   runTty(json, { path, color, mode, language, cancelContinues, notice }) -> { done: Promise<{ details, text, typed, elsewhere, discussion? }>, stop(), claim() }
 *                                            `notice`: bytes written once the terminal is taken
 *                                            the question on a terminal, on a thread of its own;
 *                                            `done` rejects with code QT_ETTYOWNED when another
 *                                            program owns the terminal (it was not touched) */
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "marshal.h"
#include "qt.h"
#include "qt_engine.h"
#include "qt_limits.h"
#include "qt_strings.h"
#include "qt_text.h"
#include "qt_thread.h"

#define NORMALIZE_KEEP_BYTES ((size_t)2 << 20)

/* The canonical text of req (freed here) in this thread's buffer, kept between calls up to
 * NORMALIZE_KEEP_BYTES and freed when the thread ends: the text of a large call is most of a
 * megabyte, and fresh memory for it faulted a page every 4 KB. Hand it back with
 * release_canonical. */
static qt_status write_canonical(qt_request *req, qt_buf **out) {
  static _Thread_local qt_buf text;
  text.len = 0;
  text.failed = false;
  qt_status st = qt_request_write_json(req, true, &text);
  qt_request_free(req);
  qt_keep_until_thread_end(QT_KEEP_NORMALIZED, text.data);
  *out = &text;
  return st;
}

static void release_canonical(qt_buf *text) {
  if (text->cap <= NORMALIZE_KEEP_BYTES) return;
  qt_buf_free(text);
  qt_keep_until_thread_end(QT_KEEP_NORMALIZED, NULL);
}

/* ---- normalize / result --------------------------------------------------------------------- */
static napi_value js_normalize(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  qt_request *req = parse_request_arg_ex(env, argv[0], QT_PARSE_SCRATCH); /* freed below */
  if (!req) return NULL;
  qt_buf *out;
  qt_status st = write_canonical(req, &out);
  napi_value v = st ? throw_status(env, st, NULL) : make_string(env, out->data, out->len);
  release_canonical(out);
  return v;
}

/* allPresupplied(json): whether every question of the call has a pre-supplied answer. */
static napi_value js_all_presupplied(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  qt_request *req = parse_request_arg(env, argv[0]);
  if (!req) return NULL;
  napi_value v;
  napi_status s = napi_get_boolean(env, qt_request_all_presupplied(req), &v);
  qt_request_free(req);
  NAPI_CALL(env, s);
  return v;
}

/* timeoutFlags(then): the result flags of a timed-out result whose "then" is `then`; anything
 * but a known name (none, or one a newer pi above sends) reads as "cancel": 0. */
static napi_value js_timeout_flags(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  unsigned flags = 0;
  napi_valuetype type;
  NAPI_CALL(env, napi_typeof(env, argv[0], &type));
  if (type == napi_string) {
    char name[16];
    size_t len = 0;
    NAPI_CALL(env, napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len));
    for (int i = 0; i < QT_TIMEOUT_THEN_COUNT; i++)
      if (strcmp(TIMEOUT_THEN_NAMES[i], name) == 0) flags = qt_timeout_result_flags((qt_timeout_then)i);
  }
  napi_value v;
  NAPI_CALL(env, napi_create_uint32(env, flags, &v));
  return v;
}

static napi_value js_result(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 9, argv, self);
  (void)self;
  qt_outcome outcome;
  if (!parse_outcome(env, argv[1], &outcome)) return NULL;
  int64_t at;
  unsigned flags;
  if (!get_timestamp(env, argv[3], &at) || !get_flags(env, argv[6], &flags)) return NULL;
  char *mode = get_string(env, argv[2], NULL, "the mode");
  if (!mode) return NULL;
  char *reason = NULL, *source = NULL;
  if (!is_nullish(env, argv[4]) && !(reason = get_string(env, argv[4], NULL, "the reason"))) {
    free(mode);
    return NULL;
  }
  if (!is_nullish(env, argv[8]) && !(source = get_string(env, argv[8], NULL, "the answering extension's name"))) {
    free(mode);
    free(reason);
    return NULL;
  }
  napi_value out = NULL;
  qt_request *req = parse_request_arg(env, argv[0]);
  if (req) {
    qt_answer *answers = req->preset;
    qt_answer *given = NULL;
    char *call_note = NULL; /* the answers' "": the person's one note on the whole call */
    bool ok = true;
    if (!is_nullish(env, argv[5])) {
      size_t len;
      char *json = get_string(env, argv[5], &len, "the answers JSON");
      qt_error err;
      /* the pi above's answer may hand a secret over as its file (qt_answers_from_json_relayed) */
      qt_status st = !json ? QT_OK
                     : strcmp(mode, "relay") == 0
                         ? qt_answers_from_json_relayed(req, json, len, &given, &call_note, &err)
                         : qt_answers_from_json_note(req, json, len, &given, &call_note, &err);
      free(json);
      if (!json || st) {
        if (json) throw_status(env, st, &err);
        ok = false;
      }
      answers = given;
    }
    char **earlier = NULL; /* the remembered answers the person kept, with their dates */
    if (ok) ok = get_earlier(env, argv[7], req->question_count, &earlier);
    if (ok)
      out = result_object(env, req, answers, outcome, mode, at, reason, flags, (const char *const *)earlier, source,
                          call_note);
    free(call_note);
    free_earlier(earlier, req->question_count);
    qt_answers_free(given, req->question_count);
    qt_request_free(req);
  }
  free(mode);
  free(reason);
  free(source);
  return out;
}

/* secretDir(dir | null): where the person's secret answers are handed over from now on (the
 * host's per-session directory, only this user's); null: nowhere (a secret answer is dropped). */
static napi_value js_secret_dir(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *dir = NULL;
  if (!is_nullish(env, argv[0]) && !(dir = get_string(env, argv[0], NULL, "the secrets' directory"))) return NULL;
  set_secret_dir(dir);
  return NULL;
}

/* Benchmark only (not enumerable): normalize without its last step — the same string crossing
 * in, validation and the canonical text written, but its length returned instead of a JS string
 * of it — so that npm run bench can tell the core's share from V8's (a string of most of a
 * megabyte is a large object, in fresh pages every time). */
static napi_value js_normalize_in_c(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  qt_request *req = parse_request_arg_ex(env, argv[0], QT_PARSE_SCRATCH);
  if (!req) return NULL;
  qt_buf *out;
  qt_status st = write_canonical(req, &out);
  napi_value v = NULL;
  if (st)
    throw_status(env, st, NULL);
  else
    napi_create_double(env, (double)out->len, &v);
  release_canonical(out);
  return v;
}

/* ---- strings ------------------------------------------------------------------------------------ */
static napi_value js_strings(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *tag = get_string(env, argv[0], NULL, "the language");
  if (!tag) return NULL;
  qt_language lang = qt_language_from_tag(tag);
  free(tag);
  napi_value obj, v;
  NAPI_CALL(env, napi_create_object(env, &obj));
  for (int id = 0; id < QT_STR_COUNT; id++) {
    NAPI_CALL(env, napi_create_string_utf8(env, qt_string(lang, (qt_string_id)id), NAPI_AUTO_LENGTH, &v));
    NAPI_CALL(env, napi_set_named_property(env, obj, qt_string_name((qt_string_id)id), v));
  }
  NAPI_CALL(env, napi_create_string_utf8(env, qt_language_tag(lang), NAPI_AUTO_LENGTH, &v));
  NAPI_CALL(env, napi_set_named_property(env, obj, "$language", v));
  return obj;
}

/* plainOption(language, n, of, label, state): "Option 2 of 3: SQLite, selected", as accessible
 * mode says an option (qt_plain_option); state "selected" | "notSelected" | "checked" |
 * "notChecked", anything else none. */
static napi_value js_plain_option(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 5, argv, self);
  (void)self;
  static const struct {
    const char *name;
    qt_string_id id;
  } states[] = {{"selected", QT_STR_PLAIN_SELECTED},
                {"notSelected", QT_STR_PLAIN_NOT_SELECTED},
                {"checked", QT_STR_PLAIN_CHECKED},
                {"notChecked", QT_STR_PLAIN_NOT_CHECKED}};
  double n = 0, of = 0;
  if (napi_get_value_double(env, argv[1], &n) != napi_ok || napi_get_value_double(env, argv[2], &of) != napi_ok ||
      !(n >= 0 && n < 1e9 && of >= 0 && of < 1e9)) {
    napi_throw_type_error(env, "QT_ETYPE",
                          "pi-question: plainOption takes (language, n, of, label, state): n and of are counts");
    return NULL;
  }
  char *tag = get_string(env, argv[0], NULL, "the language");
  if (!tag) return NULL;
  qt_language lang = qt_language_from_tag(tag);
  free(tag);
  char *label = get_string(env, argv[3], NULL, "the label");
  if (!label) return NULL;
  qt_string_id state = QT_STR_COUNT;
  napi_valuetype type;
  if (napi_typeof(env, argv[4], &type) == napi_ok && type == napi_string) {
    char name[16];
    size_t len = 0;
    if (napi_get_value_string_utf8(env, argv[4], name, sizeof name, &len) == napi_ok)
      for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (strcmp(states[i].name, name) == 0) state = states[i].id;
  }
  qt_buf out;
  qt_buf_init(&out);
  bool ok = qt_plain_option(&out, lang, (size_t)n, (size_t)of, label, state);
  free(label);
  napi_value v = NULL;
  if (ok) v = make_string(env, out.data ? out.data : "", out.len);
  qt_buf_free(&out);
  if (!ok) return throw_status(env, QT_ERR_NOMEM, NULL);
  return v;
}

/* ---- module ---------------------------------------------------------------------------------- */
static napi_value limits_object(napi_env env) {
  static const struct {
    const char *name;
    double value;
  } limits[] = {
      {"argumentBytes", QT_MAX_ARGUMENT_BYTES},
      {"questions", QT_MAX_QUESTIONS},
      {"options", QT_MAX_OPTIONS},
      {"idBytes", QT_MAX_ID_BYTES},
      {"labelBytes", QT_MAX_LABEL_BYTES},
      {"promptBytes", QT_MAX_PROMPT_BYTES},
      {"optionLabelBytes", QT_MAX_OPTION_LABEL_BYTES},
      {"optionValueBytes", QT_MAX_OPTION_VALUE_BYTES},
      {"descriptionBytes", QT_MAX_DESCRIPTION_BYTES},
      {"previewBytes", QT_MAX_PREVIEW_BYTES},
      {"metadataSourceBytes", QT_MAX_METADATA_SOURCE_BYTES},
      {"askerBytes", QT_MAX_ASKER_BYTES},
      {"answerBytes", QT_MAX_ANSWER_BYTES},
      {"softAnswerChars", QT_SOFT_ANSWER_CHARS},
      {"tabLabelColumns", QT_TAB_LABEL_COLUMNS},
      {"jsonDepth", QT_MAX_JSON_DEPTH},
      {"resultTextBytes", QT_MAX_RESULT_TEXT_BYTES},
      {"answerSourceBytes", QT_MAX_ANSWER_SOURCE_BYTES},
      {"peerAncestors", QT_PEER_ANCESTORS_MAX},
      {"peerEnvironBytes", QT_PEER_ENVIRON_BYTES},
      {"pipeBusyWaitMs", QT_PIPE_BUSY_WAIT_MS},
      {"peerCommandLineBytes", QT_PEER_COMMAND_LINE_BYTES},
      {"preparedBytes", QT_MAX_PREPARED_BYTES},
      {"discussBytes", QT_MAX_DISCUSS_BYTES},
      {"answersJsonBytes", QT_MAX_ANSWERS_JSON_BYTES},
      {"noteBytes", QT_MAX_NOTE_BYTES},
      {"filterBytes", QT_MAX_FILTER_BYTES},
      {"keysPerAction", QT_MAX_KEYS},
      {"noticeTitleBytes", QT_NOTICE_TITLE_BYTES},
      {"noticeBodyBytes", QT_NOTICE_BODY_BYTES},
      {"answersJsonValues", QT_MAX_ANSWERS_JSON_VALUES},
      {"relayMessageBytes", QT_MAX_RELAY_MESSAGE_BYTES},
      {"webBodyBytes", QT_WEB_MAX_BODY_BYTES},
      {"webUnverifiedBodyBytes", QT_WEB_UNVERIFIED_BODY_BYTES},
      {"webRateBurst", QT_WEB_RATE_BURST},
      {"webRatePerMinute", QT_WEB_RATE_PER_MINUTE},
      {"webEventStreams", QT_WEB_MAX_EVENT_STREAMS},
      {"webConnections", QT_WEB_MAX_CONNECTIONS},
      {"webIdleMs", QT_WEB_IDLE_MS},
      {"noticeCommandMs", QT_NOTICE_COMMAND_MS},
      {"noticeCommandWords", QT_NOTICE_COMMAND_WORDS},
      {"noticeCommandWordBytes", QT_NOTICE_COMMAND_WORD_BYTES},
      {"noticeCommandPromptChars", QT_NOTICE_COMMAND_PROMPT_CHARS},
      {"webTokenBytes", QT_WEB_TOKEN_BYTES},
      {"endedRemembered", QT_ENDED_REMEMBERED},
      {"webStreamBacklogBytes", QT_WEB_STREAM_BACKLOG_BYTES},
      {"relayUnverifiedBytes", QT_RELAY_UNVERIFIED_BYTES},
      {"relayUnverifiedMs", QT_RELAY_UNVERIFIED_MS},
      {"relayMaxUnverified", QT_RELAY_MAX_UNVERIFIED},
      {"relayMaxConnections", QT_RELAY_MAX_CONNECTIONS},
      {"relayMaxWaiting", QT_RELAY_MAX_WAITING},
      {"relayAskMessageBytes", QT_RELAY_ASK_MESSAGE_BYTES},
      {"relayMaxAskConnections", QT_RELAY_MAX_ASK_CONNECTIONS},
      {"relayAskHeldBytes", QT_RELAY_ASK_HELD_BYTES},
      {"relayHeldBytes", QT_RELAY_HELD_BYTES},
      {"relayLineMs", QT_RELAY_LINE_MS},
      {"remoteConnectMs", QT_REMOTE_CONNECT_MS},
      {"remoteReplyMs", QT_REMOTE_REPLY_MS},
      {"pendingLockRetryMs", QT_PENDING_LOCK_RETRY_MS},
      {"pendingLockGiveUpMs", QT_PENDING_LOCK_GIVE_UP_MS},
      {"settingsFileBytes", QT_SETTINGS_FILE_BYTES},
      {"pendingFileBytes", QT_PENDING_FILE_BYTES},
      {"memoryFileBytes", QT_MEMORY_FILE_BYTES},
      {"memoryCompactSlack", QT_MEMORY_COMPACT_SLACK},
  };
  napi_value obj;
  NAPI_CALL(env, napi_create_object(env, &obj));
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    napi_value v;
    NAPI_CALL(env, napi_create_double(env, limits[i].value, &v));
    NAPI_CALL(env, napi_set_named_property(env, obj, limits[i].name, v));
  }
  NAPI_CALL(env, napi_object_freeze(env, obj));
  return obj;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"normalize", NULL, js_normalize, NULL, NULL, NULL, napi_enumerable, NULL},
      {"allPresupplied", NULL, js_all_presupplied, NULL, NULL, NULL, napi_enumerable, NULL},
      {"result", NULL, js_result, NULL, NULL, NULL, napi_enumerable, NULL},
      {"secretDir", NULL, js_secret_dir, NULL, NULL, NULL, napi_enumerable, NULL},
      {"createEngine", NULL, js_create_engine, NULL, NULL, NULL, napi_enumerable, NULL},
      {"visibleWidth", NULL, js_visible_width, NULL, NULL, NULL, napi_enumerable, NULL},
      {"graphemes", NULL, js_graphemes, NULL, NULL, NULL, napi_enumerable, NULL},
      {"setWidthRules", NULL, js_set_width_rules, NULL, NULL, NULL, napi_enumerable, NULL},
      {"widthRules", NULL, js_width_rules, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sanitize", NULL, js_sanitize, NULL, NULL, NULL, napi_enumerable, NULL},
      {"timeoutFlags", NULL, js_timeout_flags, NULL, NULL, NULL, napi_enumerable, NULL},
      {"desktopNotice", NULL, js_desktop_notice, NULL, NULL, NULL, napi_enumerable, NULL},
      {"decodeKeys", NULL, js_decode_keys, NULL, NULL, NULL, napi_enumerable, NULL},
      {"parseKeyId", NULL, js_parse_key_id, NULL, NULL, NULL, napi_enumerable, NULL},
      {"ttyAvailable", NULL, js_tty_available, NULL, NULL, NULL, napi_enumerable, NULL},
      {"ttyStatus", NULL, js_tty_status, NULL, NULL, NULL, napi_enumerable, NULL},
      {"runTty", NULL, js_run_tty, NULL, NULL, NULL, napi_enumerable, NULL},
      {"strings", NULL, js_strings, NULL, NULL, NULL, napi_enumerable, NULL},
      {"plainOption", NULL, js_plain_option, NULL, NULL, NULL, napi_enumerable, NULL},
      {"lockFile", NULL, js_lock_file, NULL, NULL, NULL, napi_enumerable, NULL},
      {"peerCredentials", NULL, js_peer_credentials, NULL, NULL, NULL, napi_enumerable, NULL},
      {"processParent", NULL, js_process_parent, NULL, NULL, NULL, napi_enumerable, NULL},
      {"processCommandLine", NULL, js_process_command_line, NULL, NULL, NULL, napi_enumerable, NULL},
      {"pipeServe", NULL, js_pipe_serve, NULL, NULL, NULL, napi_enumerable, NULL},
      {"pipeConnect", NULL, js_pipe_connect, NULL, NULL, NULL, napi_enumerable, NULL},
      {"_textWork", NULL, js_text_work, NULL, NULL, NULL, napi_default, NULL},
      {"_normalizeInC", NULL, js_normalize_in_c, NULL, NULL, NULL, napi_default, NULL},
      {"_graphemesBackward", NULL, js_graphemes_backward, NULL, NULL, NULL, napi_default, NULL},
  };
  NAPI_CALL(env, napi_define_properties(env, exports, sizeof props / sizeof props[0], props));
  if (!define_engine_class(env)) {
    napi_throw_error(env, "QT_ENAPI", "pi-question: could not define the Engine class");
    return NULL;
  }
  napi_value limits = limits_object(env);
  if (!limits) return NULL;
  NAPI_CALL(env, napi_set_named_property(env, exports, "limits", limits));
  return exports;
}

NAPI_MODULE_INIT() { return init(env, exports); }
