/* qt_limits.h — every bound pi-question puts on what a model sends, on what a person types or
 * configures, and on what it shows them or holds for them. One place for each limit: the
 * validator, the engine, the README and the tests read them here (the addon exports them as
 * `limits`). Each may be overridden at build time with -D.
 *
 * Two families live elsewhere, because nothing outside one file sees them: they size that file's
 * own buffers, not what a model or a person may send.
 *  - keys.c: QT_KEYS_HOLD_BYTES, QT_KEYS_PASTE_BYTES, QT_KEYS_BACKLOG_BYTES, the input decoder's
 *    own buffers (an unfinished escape sequence, the pieces a long paste is handed over in, input
 *    kept while a sink has stopped, past which a feed fails with QT_ERR_NOMEM); they bound the
 *    decoder's memory, and keys.c's first comment explains them with the decoder.
 *  - memory kept for reuse between calls: request_memory.c QT_SCRATCH_KEEP (a thread's parse scratch)
 *    and the Node binding's NORMALIZE_KEEP_BYTES (a thread's canonical text); os/win32/tty.c
 *    QUEUE_MAX and RECORDS_MAX, how much console input the Windows runner reads ahead; and
 *    engine_class.c PRESS_SHORT_BYTES, a key's bytes read onto the stack (longer input is read
 *    as any other string).
 * The layout's sizes (rows of a list or an editor shown at once, the width a preview stands
 * beside the list from) are not limits but defaults of the drawing: engine_internal.h, with how
 * much the renderer keeps between frames (QT_WRAP_SLOTS editors' layouts, QT_ROW_SLOTS option
 * rows, each slot as large as the largest it held: a row is one option's label and description
 * as drawn, within the limits below). */
#ifndef QT_LIMITS_H
#define QT_LIMITS_H

/* Whole tool-argument payload, in bytes of UTF-8 JSON. */
#ifndef QT_MAX_ARGUMENT_BYTES
#define QT_MAX_ARGUMENT_BYTES 100000
#endif
/* The same payload after normalization (options spelled out in full: "A" becomes
 * {"value":"A","label":"A"}), as pi hands the prepared arguments back. */
#ifndef QT_MAX_PREPARED_BYTES
#define QT_MAX_PREPARED_BYTES 1000000
#endif
/* Questions in one call (peers allow 4; users ask for more). */
#ifndef QT_MAX_QUESTIONS
#define QT_MAX_QUESTIONS 50
#endif
/* Options in one question, not counting the synthetic "Something else…". */
#ifndef QT_MAX_OPTIONS
#define QT_MAX_OPTIONS 1000
#endif
/* Lengths in bytes of UTF-8. */
#ifndef QT_MAX_ID_BYTES
#define QT_MAX_ID_BYTES 64
#endif
#ifndef QT_MAX_LABEL_BYTES
#define QT_MAX_LABEL_BYTES 200
#endif
#ifndef QT_MAX_PROMPT_BYTES
#define QT_MAX_PROMPT_BYTES 4000
#endif
#ifndef QT_MAX_OPTION_LABEL_BYTES
#define QT_MAX_OPTION_LABEL_BYTES 500
#endif
#ifndef QT_MAX_OPTION_VALUE_BYTES
#define QT_MAX_OPTION_VALUE_BYTES 500
#endif
#ifndef QT_MAX_DESCRIPTION_BYTES
#define QT_MAX_DESCRIPTION_BYTES 2000
#endif
#ifndef QT_MAX_PREVIEW_BYTES
#define QT_MAX_PREVIEW_BYTES 20000
#endif
/* Who asks a relayed question (a subagent's name or directory), in bytes; longer is cut. */
#ifndef QT_MAX_ASKER_BYTES
#define QT_MAX_ASKER_BYTES 200
#endif
#ifndef QT_MAX_METADATA_SOURCE_BYTES
#define QT_MAX_METADATA_SOURCE_BYTES 200
#endif
/* A pre-supplied or typed answer, in bytes. */
#ifndef QT_MAX_ANSWER_BYTES
#define QT_MAX_ANSWER_BYTES 100000
#endif
/* Structured answers as they travel between processes ({ id: { "selected": [values], "wrote",
 * "note" } }: a relayed answer, pi's RPC dialogs, another terminal, the web page, --answers), in
 * bytes of JSON. Derived, not chosen, so that no answer a person can give is refused: every
 * question's id, typed answer and note at their limits, escaped at worst (a control character
 * takes 6 bytes: \u00XX), plus the option values picked (all of them together fit in the
 * prepared arguments, escaped alike), plus 64 bytes of keys and punctuation per question. */
#ifndef QT_MAX_ANSWERS_JSON_BYTES
#define QT_MAX_ANSWERS_JSON_BYTES                                                                                      \
  (6 * QT_MAX_QUESTIONS * (QT_MAX_ID_BYTES + 2 * QT_MAX_ANSWER_BYTES) + QT_MAX_PREPARED_BYTES + 64 * QT_MAX_QUESTIONS)
#endif
/* JSON values in those answers, counted before cJSON allocates one node for each (a 61 MB body of
 * tiny values such as [[],[],...] or 0,0,... would otherwise cost gigabytes): as the ',', ':' and
 * '[' outside strings that start every value but the first, plus one. Derived: a full answer to a
 * question ({ "id": { "selected": [every option], "wrote": "...", "note": "..." } } and the comma
 * before the next) counts its options plus 7; 16 per question leaves room for the other shapes. */
#ifndef QT_MAX_ANSWERS_JSON_VALUES
#define QT_MAX_ANSWERS_JSON_VALUES (QT_MAX_QUESTIONS * (QT_MAX_OPTIONS + 16))
#endif
/* Typed answers longer than this many characters ask for confirmation (a soft limit). */
#ifndef QT_SOFT_ANSWER_CHARS
#define QT_SOFT_ANSWER_CHARS 2000
#endif
/* The tab title a question label is shortened to, in columns (cosmetic: normalized, not rejected). */
#ifndef QT_TAB_LABEL_COLUMNS
#define QT_TAB_LABEL_COLUMNS 16
#endif
/* JSON nesting accepted before the parser is even asked (cJSON's own limit is 1000). */
#ifndef QT_MAX_JSON_DEPTH
#define QT_MAX_JSON_DEPTH 32
#endif
/* The longest JSON number read, in characters (cJSON's own bound: it refuses longer ones). */
#ifndef QT_JSON_NUMBER_MAX
#define QT_JSON_NUMBER_MAX 63
#endif
/* The text the model reads, in bytes; longer text is cut with a visible mark. */
#ifndef QT_MAX_RESULT_TEXT_BYTES
#define QT_MAX_RESULT_TEXT_BYTES 100000
#endif

/* A note on a question (Ctrl+N) and the filter of an option list, in bytes; the editor takes no
 * more. */
#ifndef QT_MAX_NOTE_BYTES
#define QT_MAX_NOTE_BYTES 2000
#endif
#ifndef QT_MAX_FILTER_BYTES
#define QT_MAX_FILTER_BYTES 200
#endif
/* Keys one action may have (pi's keybindings); more are reported as not understood. */
#ifndef QT_MAX_KEYS
#define QT_MAX_KEYS 8
#endif
/* A desktop notification's title and body, in bytes of the text before sanitizing (notice.c);
 * longer is cut with "…": a notification is one glance. */
#ifndef QT_NOTICE_TITLE_BYTES
#define QT_NOTICE_TITLE_BYTES 80
#endif
#ifndef QT_NOTICE_BODY_BYTES
#define QT_NOTICE_BODY_BYTES 240
#endif

/* What the person writes when they want to talk first (Ctrl+T, status "discuss"), in bytes. */
#ifndef QT_MAX_DISCUSS_BYTES
#define QT_MAX_DISCUSS_BYTES 4000
#endif

/* Files read from a project (whoever made the repository wrote them) and the person's own files
 * beside them, in bytes: a larger one is refused with a warning and the default is used, so no
 * file (a link to /dev/zero, a 95 MB hand-made one) can freeze pi or grow it without bound
 * (extension/text/project-file.ts). Settings (~/.pi/agent/question.json, .pi/question.json);
 * the pending-questions file (its question sets, answers written in); remembered answers. */
#ifndef QT_SETTINGS_FILE_BYTES
#define QT_SETTINGS_FILE_BYTES 65536
#endif
#ifndef QT_PENDING_FILE_BYTES
#define QT_PENDING_FILE_BYTES (4 * 1024 * 1024)
#endif
#ifndef QT_MEMORY_FILE_BYTES
#define QT_MEMORY_FILE_BYTES (16 * 1024 * 1024)
#endif

/* Remembered answers are appended, one line per answer (extension/ask/memory.ts): the file is
 * rewritten with one line per question (compacted) once it holds more replaced answers than live
 * ones and more than this many, so it stays within about twice what it remembers. */
#ifndef QT_MEMORY_COMPACT_SLACK
#define QT_MEMORY_COMPACT_SLACK 64
#endif

/* One line of the subagent relay (relay.ts), either way, in bytes. Derived: a question (the
 * canonical arguments as a JSON string inside the message: a quote or backslash escaped once
 * more, so at most twice QT_MAX_PREPARED_BYTES) or an answer (QT_MAX_ANSWERS_JSON_BYTES and what
 * the person wrote to discuss, escaped at worst), plus 64 KB for the rest (who asks, the secret,
 * the keys). A longer line closes its connection. */
#ifndef QT_MAX_RELAY_MESSAGE_BYTES
#define QT_MAX_RELAY_MESSAGE_BYTES                                                                                     \
  (2 * QT_MAX_PREPARED_BYTES + QT_MAX_ANSWERS_JSON_BYTES + 6 * QT_MAX_DISCUSS_BYTES + 65536)
#endif

/* The terminal runner (tty.c), in milliseconds. A frame waits at most QT_TTY_WRITE_WAIT_MS for a
 * terminal that takes no output (then the rest of that frame is dropped; the question goes on);
 * the last write of a run (erase the question, leave raw mode) at most QT_TTY_LEAVE_WAIT_MS;
 * process exit waits at most QT_TTY_EXIT_WAIT_MS for a running question to put the terminal
 * back. A stop or a terminating signal ends a frame's wait at once. */
#ifndef QT_TTY_WRITE_WAIT_MS
#define QT_TTY_WRITE_WAIT_MS 2000
#endif
#ifndef QT_TTY_LEAVE_WAIT_MS
#define QT_TTY_LEAVE_WAIT_MS 250
#endif
#ifndef QT_TTY_EXIT_WAIT_MS
#define QT_TTY_EXIT_WAIT_MS 1000
#endif

/* The relay's doors (relay.ts), against clients that are broken or hostile. A connection must
 * show its secret (the first key of its first line) within QT_RELAY_UNVERIFIED_BYTES and
 * QT_RELAY_UNVERIFIED_MS, else it is closed; only then may its line grow (to
 * QT_RELAY_ASK_MESSAGE_BYTES for the ask secret, QT_MAX_RELAY_MESSAGE_BYTES for the control
 * secret). At most QT_RELAY_MAX_UNVERIFIED connections wait to show it (a newer one closes the
 * oldest of them: a client that sends its line at once always gets through) and
 * QT_RELAY_MAX_CONNECTIONS are open in all; at most QT_RELAY_MAX_WAITING relayed questions wait
 * at once (each connection asks one question). */
#ifndef QT_RELAY_UNVERIFIED_BYTES
#define QT_RELAY_UNVERIFIED_BYTES 4096
#endif
#ifndef QT_RELAY_UNVERIFIED_MS
#define QT_RELAY_UNVERIFIED_MS 5000
#endif
#ifndef QT_RELAY_MAX_UNVERIFIED
#define QT_RELAY_MAX_UNVERIFIED 32
#endif
#ifndef QT_RELAY_MAX_CONNECTIONS
#define QT_RELAY_MAX_CONNECTIONS 256
#endif
#ifndef QT_RELAY_MAX_WAITING
#define QT_RELAY_MAX_WAITING 64
#endif
/* What the ask secret (the one every descendant of pi inherits) may make pi hold. Its line is a
 * question only: the canonical arguments escaped at worst, plus 64 KB for who asks and the keys.
 * At most QT_RELAY_MAX_ASK_CONNECTIONS connections hold it at once (the questions that may wait,
 * and as many again still sending theirs), so the control secret always finds room; their
 * unfinished lines hold at most QT_RELAY_ASK_HELD_BYTES together, and every unfinished line at
 * most QT_RELAY_HELD_BYTES (room for one answer at its largest, and another). A line of any
 * right must be complete within QT_RELAY_LINE_MS of its connection (a legitimate one takes
 * milliseconds on a local socket); the question it asks may then wait as long as it takes. */
#ifndef QT_RELAY_ASK_MESSAGE_BYTES
#define QT_RELAY_ASK_MESSAGE_BYTES (2 * QT_MAX_PREPARED_BYTES + 65536)
#endif
#ifndef QT_RELAY_MAX_ASK_CONNECTIONS
#define QT_RELAY_MAX_ASK_CONNECTIONS (2 * QT_RELAY_MAX_WAITING)
#endif
#ifndef QT_RELAY_ASK_HELD_BYTES
#define QT_RELAY_ASK_HELD_BYTES (4 * QT_RELAY_ASK_MESSAGE_BYTES)
#endif
#ifndef QT_RELAY_HELD_BYTES
#define QT_RELAY_HELD_BYTES (2 * QT_MAX_RELAY_MESSAGE_BYTES)
#endif
#ifndef QT_RELAY_LINE_MS
#define QT_RELAY_LINE_MS 30000
#endif

/* `pi-question pending` / `answer` (bin/remote.mjs), in milliseconds: how long each registered
 * pi has to accept the connection, and then to reply, before it is reported as not answering and
 * the others are shown without it. A pi inside its external editor (Ctrl+G blocks its event loop)
 * or stopped with Ctrl+Z is a normal state, not a fault. */
#ifndef QT_REMOTE_CONNECT_MS
#define QT_REMOTE_CONNECT_MS 2000
#endif
#ifndef QT_REMOTE_REPLY_MS
#define QT_REMOTE_REPLY_MS 2000
#endif

/* The pending file's lock, taken on pi's main thread (/questions clear): never waited on there;
 * tried again every QT_PENDING_LOCK_RETRY_MS, for at most QT_PENDING_LOCK_GIVE_UP_MS. A holder
 * only rewrites a small file, but on a busy machine (two cores, many pis and test jobs) that took
 * over 5 s: giving up loses a question set, so the wait is long; pi's event loop runs meanwhile. */
#ifndef QT_PENDING_LOCK_RETRY_MS
#define QT_PENDING_LOCK_RETRY_MS 50
#endif
#ifndef QT_PENDING_LOCK_GIVE_UP_MS
#define QT_PENDING_LOCK_GIVE_UP_MS 60000
#endif

/* The buffers Windows keeps for each instance of the relay's named pipe, each way (a hint to the
 * OS; a longer line goes through in pieces). */
#ifndef QT_PIPE_BUFFER_BYTES
#define QT_PIPE_BUFFER_BYTES 65536
#endif
/* How long a client tries again while every instance of a relay pipe is taken (ERROR_PIPE_BUSY:
 * the pi makes a new one as each client connects, so this is a pi that stopped serving). */
#ifndef QT_PIPE_BUSY_WAIT_MS
#define QT_PIPE_BUSY_WAIT_MS 10000
#endif

/* ---- the web page (/questions web) ---- */
/* A request body (an answer POSTed as JSON), in bytes; larger is refused with 413. Derived, not
 * chosen, so that every answer a person can give on the page fits: the answers at
 * QT_MAX_ANSWERS_JSON_BYTES plus 4 KB for the token, the question's id, the outcome and the keys. */
#ifndef QT_WEB_MAX_BODY_BYTES
#define QT_WEB_MAX_BODY_BYTES (QT_MAX_ANSWERS_JSON_BYTES + 4096)
#endif
/* Bytes of a request body read before its token has been seen (the body's first key, as the
 * page sends it): a request without the token never makes pi hold more than this. */
#ifndef QT_WEB_UNVERIFIED_BODY_BYTES
#define QT_WEB_UNVERIFIED_BODY_BYTES 4096
#endif
/* Requests per client address: a bucket of this many, refilled at QT_WEB_RATE_PER_MINUTE. */
#ifndef QT_WEB_RATE_BURST
#define QT_WEB_RATE_BURST 30
#endif
#ifndef QT_WEB_RATE_PER_MINUTE
#define QT_WEB_RATE_PER_MINUTE 120
#endif
/* Live-update connections (server-sent events) open at once. */
#ifndef QT_WEB_MAX_EVENT_STREAMS
#define QT_WEB_MAX_EVENT_STREAMS 8
#endif
/* Connections to the page's server at once, counted by the server itself: at the cap a new one
 * closes the oldest that has not yet carried a request with the token (a live page that has is
 * never pushed out by clients without it), or is closed itself when every open one has. Another
 * local user held 19,600 of pi's 20,000 descriptors without it. 256, not fewer: under a flood a
 * slow machine keeps closed connections counted for a while, and at 64 the person's own page was
 * pushed out before its request was read (e2e-doors-fuzz's web door, once on a loaded machine). */
#ifndef QT_WEB_MAX_CONNECTIONS
#define QT_WEB_MAX_CONNECTIONS 256
#endif
/* A connection with nothing read or written for this long is closed. Longer than the live
 * stream's 20 s ping, so an open page is never idle. */
#ifndef QT_WEB_IDLE_MS
#define QT_WEB_IDLE_MS 45000
#endif
/* The person's notice.command (a ping where they are: a push service's client, a desktop
 * notifier): run once per waiting question, never awaited; one still running after this long is
 * stopped (a hung client must not pile up processes). */
#ifndef QT_NOTICE_COMMAND_MS
#define QT_NOTICE_COMMAND_MS 10000
#endif
/* notice.command's argv as the settings give it: at most this many words, each at most
 * QT_NOTICE_COMMAND_WORD_BYTES bytes. */
#ifndef QT_NOTICE_COMMAND_WORDS
#define QT_NOTICE_COMMAND_WORDS 64
#endif
#ifndef QT_NOTICE_COMMAND_WORD_BYTES
#define QT_NOTICE_COMMAND_WORD_BYTES 4096
#endif
/* The question's first line as notice.command gets it (PI_QUESTION_PROMPT and standard input):
 * at most this many characters. */
#ifndef QT_NOTICE_COMMAND_PROMPT_CHARS
#define QT_NOTICE_COMMAND_PROMPT_CHARS 200
#endif
/* Bytes a live-update stream may have queued and unsent (a page that stopped reading: a phone
 * asleep) before it is dropped; the page reconnects and gets a fresh snapshot. */
#ifndef QT_WEB_STREAM_BACKLOG_BYTES
#define QT_WEB_STREAM_BACKLOG_BYTES (1024 * 1024)
#endif
/* Questions whose ending a pi remembers after they stop waiting, so a later answer from another
 * terminal or the page is told how each ended ("already answered", "already cancelled"…); the
 * oldest is forgotten first. */
#ifndef QT_ENDED_REMEMBERED
#define QT_ENDED_REMEMBERED 256
#endif
/* Bytes of the date a remembered answer was given, as the model's result says it ("21 Nov 2026"). */
#ifndef QT_MAX_EARLIER_DATE_BYTES
#define QT_MAX_EARLIER_DATE_BYTES 40
#endif
/* Bytes of the name another extension gives itself when it answers on pi's event bus
 * ("question:answer" { source }): said to the model and shown in the transcript, sanitized. */
#ifndef QT_MAX_ANSWER_SOURCE_BYTES
#define QT_MAX_ANSWER_SOURCE_BYTES 64
#endif
/* Parent processes the relay walks up from a connection's peer to tell whether this pi (or
 * another pi) started it: deeper trees are treated as started by a pi (refused), never as the
 * person's. */
#ifndef QT_PEER_ANCESTORS_MAX
#define QT_PEER_ANCESTORS_MAX 256
#endif
/* Bytes of a peer process's command line read to name it and to tell whether it is a pi (Linux:
 * /proc/<pid>/cmdline; Windows: the command line in its memory, as UTF-8). */
#ifndef QT_PEER_COMMAND_LINE_BYTES
#define QT_PEER_COMMAND_LINE_BYTES 4096
#endif
/* Bytes of a peer's environment read to find the relay's variable there (Linux, /proc/<pid>/environ):
 * a process every pi started carries it, even once it has left its parents. */
#ifndef QT_PEER_ENVIRON_BYTES
#define QT_PEER_ENVIRON_BYTES (1024 * 1024)
#endif
/* Random bytes in the page's token (256 bits). */
#ifndef QT_WEB_TOKEN_BYTES
#define QT_WEB_TOKEN_BYTES 32
#endif

#endif
