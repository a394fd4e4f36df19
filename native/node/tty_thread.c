/* tty_thread.c — runTty: the question on a terminal (tty_run.c), run on a thread of its own and
 * settled on the main thread through a thread-safe function; ttyStatus and ttyAvailable, whether
 * this process may take the terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "marshal.h"
#include "qt_engine.h"
#include "qt_thread.h"
#include "qt_tty.h"

/* ---- the question on a terminal (a thread of its own) -------------------------------------- */
/* The run blocks a thread for as long as the person takes, so it gets a thread of its own, not
 * one of libuv's pool (Node joins the pool at exit: a question left open would hold the
 * process). On POSIX its signals are blocked (qt_thread_start: they go to Node's threads; the
 * runner's handlers reach the run through the wake pipe). The result comes back through a thread-safe function, which keeps the
 * event loop alive while the question is open, like any pending I/O.
 *
 * Lifetime: the job is freed when the run (released by the thread-safe function's finalizer),
 * the JS handle and its stop() have all let go. At environment teardown (a worker terminated,
 * the main environment freed) the cleanup hook — registered after the thread-safe function, so
 * it runs before that function is torn down — stops the run and joins the thread, waiting at
 * most QT_TTY_EXIT_WAIT_MS; a thread still running then is abandoned with its job (never freed,
 * never called back). process.exit does not tear environments down: tty.c's exit hook stops the
 * run there, and the thread calls nothing once qt_tty_exiting() says so. */
typedef struct tty_job {
  qt_request *req;
  qt_engine *engine;
  qt_tty *tty;
  char mode[32];
  unsigned flags;        /* qt_result_build_ex flags */
  qt_status status;      /* of qt_tty_run (written by the thread before it reports) */
  qt_tty_access refusal; /* why the run refused to start, if it did */
  napi_env env;
  napi_threadsafe_function done_fn;
  napi_deferred deferred;
  qt_thread *thread;
  qt_gate *gate;  /* guards ended and abandoned */
  bool ended;     /* the thread is past its last use of the engine and the terminal */
  bool abandoned; /* teardown gave up waiting: the thread calls nothing, the job is kept */
  bool joined;
  bool hooked;   /* the env cleanup hook is registered */
  bool finished; /* the promise was settled (main thread); stop() does nothing afterwards */
  int refs;      /* main thread only: the run, the JS handle, stop() */
} tty_job;

static void tty_job_release(tty_job *job) {
  if (--job->refs > 0) return;
  qt_tty_close(job->tty);
  qt_engine_destroy(job->engine);
  qt_request_free(job->req);
  qt_gate_destroy(job->gate);
  free(job);
}

static void tty_thread(void *data) {
  tty_job *job = data;
  qt_status st = qt_tty_run(job->tty, job->engine);
  qt_gate_lock(job->gate);
  job->status = st;
  job->refusal = qt_tty_refusal(job->tty);
  job->ended = true;
  if (!job->abandoned && !qt_tty_exiting()) napi_call_threadsafe_function(job->done_fn, NULL, napi_tsfn_nonblocking);
  qt_gate_broadcast(job->gate);
  qt_gate_unlock(job->gate);
}

static void tty_join(tty_job *job) {
  if (job->joined) return;
  qt_thread_join(job->thread);
  job->thread = NULL;
  job->joined = true;
}

/* Environment teardown with the run still open: stop it and wait (bounded) for the thread. */
static void tty_env_cleanup(void *data) {
  tty_job *job = data;
  job->hooked = false;
  qt_tty_stop(job->tty);
  int64_t until = qt_clock_wall_ms() + QT_TTY_EXIT_WAIT_MS;
  qt_gate_lock(job->gate);
  while (!job->ended && qt_gate_wait_until(job->gate, until)) {
  }
  bool ended = job->ended;
  if (!ended) job->abandoned = true;
  qt_gate_unlock(job->gate);
  if (ended) {
    tty_join(job);
  } else {
    qt_thread_detach(job->thread);
    job->thread = NULL;
    job->joined = true;
  }
}

static void tty_settle(napi_env env, tty_job *job) {
  job->finished = true;
  napi_value value = NULL;
  if (job->status == QT_OK) {
    /* An answer from elsewhere that took the question (claim()) closed it: whatever the person
     * pressed is not their answer, and what they wrote goes back (typed, and their words to the
     * agent when their key was Ctrl+T's) for the host to keep. */
    bool elsewhere = qt_tty_claimed_elsewhere(job->tty);
    bool words = elsewhere && qt_engine_done(job->engine) && qt_engine_outcome(job->engine) == QT_DISCUSS;
    qt_outcome outcome = !elsewhere && qt_engine_done(job->engine) ? qt_engine_outcome(job->engine) : QT_INTERRUPTED;
    char *details = NULL, *text = NULL;
    int64_t at = qt_clock_wall_ms();
    const qt_answer *answers = qt_engine_answers(job->engine);
    unsigned flags = job->flags | qt_engine_result_flags(job->engine);
    bool failed;
    char **paths = secret_paths(job->req, answers, outcome, job->mode, flags, at, &failed);
    qt_status st =
        failed ? QT_ERR_NOMEM
               : qt_result_build_secret(job->req, answers, outcome, job->mode, NULL, at,
                                        outcome == QT_DISCUSS ? qt_engine_discussion(job->engine) : NULL, flags, NULL,
                                        qt_engine_call_note(job->engine), (const char *const *)paths, &details, &text);
    if (!st && napi_create_object(env, &value) == napi_ok &&
        set_prop(env, value, "details", make_string(env, details, NAPI_AUTO_LENGTH)) &&
        set_prop(env, value, "text", make_string(env, text, NAPI_AUTO_LENGTH)) &&
        set_secrets(env, value, job->req, answers, paths) &&
        set_prop(env, value, "typed",
                 typed_array(env, job->req, job->engine)) && /* kept by a host that was not answered */
        set_prop(env, value, "elsewhere", make_bool(env, elsewhere)) &&
        (!words ||
         set_prop(env, value, "discussion", make_string(env, qt_engine_discussion(job->engine), NAPI_AUTO_LENGTH)))) {
      napi_resolve_deferred(env, job->deferred, value);
    } else {
      napi_value msg, err;
      napi_create_string_utf8(env, "pi-question: could not build the result", NAPI_AUTO_LENGTH, &msg);
      napi_create_error(env, NULL, msg, &err);
      napi_reject_deferred(env, job->deferred, err);
    }
    free_secret_paths(job->req, paths);
    free(details);
    free(text);
  } else {
    napi_value msg, err, code;
    bool owned = job->refusal == QT_TTY_OWNED;
    const char *why =
        owned ? "pi-question: another program owns the terminal (it is in raw mode, or this process is not in its "
                "foreground process group); not asking there"
        : job->status == QT_ERR_STATE
            ? "pi-question: the terminal could not be used (another question holds it, or it refused raw mode)"
        : job->status == QT_ERR_NOMEM ? "pi-question: out of memory while asking on the terminal"
                                      : "pi-question: the terminal question failed";
    napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &msg);
    napi_create_string_utf8(env, owned ? "QT_ETTYOWNED" : qt_status_code(job->status ? job->status : QT_ERR_STATE),
                            NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &err);
    napi_reject_deferred(env, job->deferred, err);
  }
}

/* On the main thread once the thread reported (env NULL: the function is being torn down). */
static void tty_done_js(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)js_cb;
  (void)data;
  tty_job *job = context;
  if (!env) return;
  tty_join(job); /* the thread is at its last lines */
  if (job->hooked) {
    napi_remove_env_cleanup_hook(env, tty_env_cleanup, job);
    job->hooked = false;
  }
  tty_settle(env, job);
  napi_release_threadsafe_function(job->done_fn, napi_tsfn_release);
}

static void tty_done_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  tty_job *job = data;
  if (job->hooked) {
    napi_remove_env_cleanup_hook(env, tty_env_cleanup, job);
    job->hooked = false;
  }
  /* Torn down before the thread reported (normally the hook did this already): stop, wait. */
  if (!job->joined) tty_env_cleanup(job);
  if (!job->abandoned) tty_job_release(job);
}

static void tty_handle_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  tty_job_release(data);
}

static napi_value js_tty_stop(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, NULL, NULL, &data));
  tty_job *job = data;
  if (job && !job->finished) qt_tty_stop(job->tty);
  return NULL;
}

/* claim(): an answer from elsewhere takes the question (claim at the key, qt_tty.h): true when
 * it did (the run closes), else the outcome the person's key took it with. */
static napi_value js_tty_claim(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, NULL, NULL, &data));
  tty_job *job = data;
  qt_outcome here = QT_INTERRUPTED;
  napi_value v;
  if (job && qt_tty_claim(job->tty, &here)) {
    NAPI_CALL(env, napi_get_boolean(env, true, &v));
    return v;
  }
  return make_string(env, qt_outcome_name(here), NAPI_AUTO_LENGTH);
}

napi_value js_tty_status(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *path = get_string(env, argv[0], NULL, "the terminal path");
  if (!path) return NULL;
  qt_tty_access a = qt_tty_probe(path);
  free(path);
  napi_value v;
  NAPI_CALL(env, napi_create_string_utf8(env, qt_tty_access_name(a), NAPI_AUTO_LENGTH, &v));
  return v;
}

napi_value js_tty_available(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *path = get_string(env, argv[0], NULL, "the terminal path");
  if (!path) return NULL;
  bool ok = qt_tty_probe(path) == QT_TTY_FREE;
  free(path);
  napi_value v;
  NAPI_CALL(env, napi_get_boolean(env, ok, &v));
  return v;
}

/* Starts the thread (on POSIX with every signal blocked in it: qt_thread.h). */
static bool tty_start_thread(tty_job *job) { return qt_thread_start(tty_thread, job, &job->thread) == QT_OK; }

napi_value js_run_tty(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  (void)self;
  napi_valuetype t;
  NAPI_CALL(env, napi_typeof(env, argv[1], &t));
  if (t != napi_object) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: runTty takes (json, { path, color, mode })");
    return NULL;
  }
  char *path = get_named_string(env, argv[1], "path");
  char *mode = get_named_string(env, argv[1], "mode");
  char *language = get_named_string(env, argv[1], "language");
  char *asker_name = get_named_string(env, argv[1], "askerName");
  char *asker_where = get_named_string(env, argv[1], "askerWhere");
  size_t notice_len = 0;
  char *notice = NULL;
  {
    bool has_notice = false;
    napi_value nv;
    napi_valuetype nt;
    if (napi_has_named_property(env, argv[1], "notice", &has_notice) == napi_ok && has_notice &&
        napi_get_named_property(env, argv[1], "notice", &nv) == napi_ok && napi_typeof(env, nv, &nt) == napi_ok &&
        nt == napi_string)
      notice = get_string(env, nv, &notice_len, "the desktop notice");
  }
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  bool color = true, cancel_continues = false;
  napi_value cv;
  bool has = false;
  if (!pending && napi_has_named_property(env, argv[1], "color", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "color", &cv) == napi_ok)
    napi_get_value_bool(env, cv, &color);
  if (!pending && napi_has_named_property(env, argv[1], "cancelContinues", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "cancelContinues", &cv) == napi_ok)
    napi_get_value_bool(env, cv, &cancel_continues);
  /* the person's settings: accessible (bool), timeoutMs (number), timeoutThen ("cancel" | "decline" | "recommended" | "selected") */
  bool accessible = false;
  double timeout_ms = 0;
  int timeout_then = 0;
  char *then_name = pending ? NULL : get_named_string(env, argv[1], "timeoutThen");
  if (!pending && napi_has_named_property(env, argv[1], "accessible", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "accessible", &cv) == napi_ok)
    napi_get_value_bool(env, cv, &accessible);
  if (!pending && napi_has_named_property(env, argv[1], "timeoutMs", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "timeoutMs", &cv) == napi_ok && !is_nullish(env, cv))
    napi_get_value_double(env, cv, &timeout_ms);
  for (int i = 0; then_name && i < QT_TIMEOUT_THEN_COUNT; i++)
    if (strcmp(then_name, TIMEOUT_THEN_NAMES[i]) == 0) timeout_then = i;
  free(then_name);
  napi_is_exception_pending(env, &pending);
  tty_job *job = pending ? NULL : calloc(1, sizeof *job);
  napi_value out = NULL;
  if (!job) {
    if (!pending) throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    goto done;
  }
  snprintf(job->mode, sizeof job->mode, "%s", mode ? mode : "tty");
  job->flags = cancel_continues ? QT_RESULT_CANCEL_CONTINUES : 0;
  job->env = env;
  job->joined = true; /* no thread yet */
  job->refs = 1;
  if (qt_gate_create(&job->gate) != QT_OK) {
    throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    goto fail;
  }
  if (!(job->req = parse_request_arg(env, argv[0]))) goto fail;
  qt_status st = qt_engine_create(job->req, &job->engine);
  if (!st && (st = qt_tty_open(path ? path : "/dev/tty", &job->tty)) == QT_ERR_STATE) {
    throw_coded(env, "QT_ESTATE",
                "pi-question: the terminal cannot be used: it cannot be opened, it is not a terminal, or (macOS) its "
                "file descriptor is not below FD_SETSIZE, which select() needs",
                false);
    goto fail;
  }
  if (st) {
    throw_status(env, st, NULL);
    goto fail;
  }
  qt_tty_set_color(job->tty, color);
  if (notice_len && (st = qt_tty_set_notice(job->tty, notice, notice_len))) {
    throw_status(env, st, NULL);
    goto fail;
  }
  if (language) qt_engine_set_language(job->engine, qt_language_from_tag(language));
  if (accessible) qt_engine_set_accessible(job->engine, true);
  if (timeout_ms >= 1 && timeout_ms <= 9.0e15)
    qt_engine_set_timeout(job->engine, (int64_t)timeout_ms, (qt_timeout_then)timeout_then);
  if ((asker_name || asker_where) && (st = qt_engine_set_asker(job->engine, asker_name, asker_where))) {
    throw_status(env, st, NULL);
    goto fail;
  }
  napi_value promise, name, stop;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok || napi_create_object(env, &out) != napi_ok ||
      napi_create_function(env, "stop", NAPI_AUTO_LENGTH, js_tty_stop, job, &stop) != napi_ok ||
      napi_set_named_property(env, out, "stop", stop) != napi_ok ||
      napi_set_named_property(env, out, "done", promise) != napi_ok ||
      napi_add_finalizer(env, out, job, tty_handle_free, NULL, NULL) != napi_ok) {
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto fail;
  }
  /* From here the JS handle holds the first reference. stop() and claim() carry the job too and
   * may outlive the handle (destructuring): a reference each. */
  if (napi_add_finalizer(env, stop, job, tty_handle_free, NULL, NULL) != napi_ok) {
    /* The job stays allocated (stop() may still point at it): a small leak beats a dangling pointer. */
    job->finished = true;
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  job->refs++;
  napi_value claim;
  if (napi_create_function(env, "claim", NAPI_AUTO_LENGTH, js_tty_claim, job, &claim) != napi_ok ||
      napi_add_finalizer(env, claim, job, tty_handle_free, NULL, NULL) != napi_ok) {
    job->finished = true; /* the handle and stop() release the rest */
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  job->refs++;
  if (napi_set_named_property(env, out, "claim", claim) != napi_ok) {
    job->finished = true;
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  if (napi_create_string_utf8(env, "pi-question-tty", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, job, tty_done_finalize, job, tty_done_js,
                                      &job->done_fn) != napi_ok) {
    job->finished = true; /* the handle and stop() release the rest */
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  job->refs++; /* the run: released by tty_done_finalize */
  /* After the function: cleanup hooks run in reverse order, so this one comes before its teardown. */
  job->hooked = napi_add_env_cleanup_hook(env, tty_env_cleanup, job) == napi_ok;
  job->joined = false;
  if (!tty_start_thread(job)) {
    job->joined = true;
    job->ended = true;
    job->status = QT_ERR_NOMEM;
    if (job->hooked) napi_remove_env_cleanup_hook(env, tty_env_cleanup, job);
    job->hooked = false;
    tty_settle(env, job); /* rejects the promise */
    napi_release_threadsafe_function(job->done_fn, napi_tsfn_release);
  }
  goto done;
fail:
  if (job) tty_job_release(job);
done:
  free(path);
  free(mode);
  free(language);
  free(asker_name);
  free(asker_where);
  free(notice);
  return out;
}
