/* engine_clock.c — the person's timeout: arming it (qt_engine_set_timeout), the host's ticks
 * and the deadline, stopping it for good at the first key or step, the countdown line, and how
 * a timed-out result reads (qt_engine_result_flags). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* ---- the clock: the person's timeout --------------------------------------------------------- */
void qt_clock_stop(qt_engine *e) {
  if (e->clock_then == QT_TIMEOUT_SELECTED) { /* an idle clock: it starts again at the next tick */
    if (e->clock_started) qt_touch(e);
    e->clock_started = false;
    return;
  }
  e->clock_on = false;
  qt_touch(e);
  if (e->accessible) qt_flash(e, QT_STYLE_DIM, QT_STR_CLOCK_STOPPED, 0, NULL);
}

qt_status qt_engine_set_timeout(qt_engine *e, int64_t after_ms, qt_timeout_then then) {
  if (!e || after_ms <= 0 || (int)then < 0 || then > QT_TIMEOUT_SELECTED) return QT_ERR_USAGE;
  if (e->done) return QT_ERR_STATE;
  e->clock_on = true;
  e->clock_started = false;
  e->clock_after = after_ms;
  e->clock_then = then;
  qt_touch(e);
  return QT_OK;
}

qt_status qt_engine_stop_clock(qt_engine *e) {
  if (!e) return QT_ERR_USAGE;
  if (e->clock_on && !e->done) qt_clock_stop(e);
  return QT_OK;
}

/* Whole seconds left, rounded up (what the countdown shows). */
static int64_t seconds_left(const qt_engine *e) {
  int64_t left = e->clock_started ? e->clock_deadline - e->clock_now : e->clock_after;
  return left <= 0 ? 0 : (left + 999) / 1000;
}

qt_status qt_engine_tick(qt_engine *e, int64_t now_ms) {
  if (!e) return QT_ERR_USAGE;
  if (!e->clock_on || e->done) return QT_OK;
  int64_t before = seconds_left(e);
  if (!e->clock_started) {
    e->clock_started = true;
    e->clock_deadline = now_ms + e->clock_after;
  }
  e->clock_now = now_ms;
  if (now_ms >= e->clock_deadline) {
    e->clock_on = false;
    e->timed_out = true;
    qt_finish(e, QT_TIMED_OUT);
    qt_touch(e);
    return QT_OK;
  }
  if (seconds_left(e) != before) qt_touch(e);
  return QT_OK;
}

int64_t qt_engine_clock_left(const qt_engine *e, int64_t now_ms) {
  if (!e || !e->clock_on || e->done) return -1;
  if (!e->clock_started) return e->clock_after;
  return e->clock_deadline > now_ms ? e->clock_deadline - now_ms : 0;
}

int64_t qt_engine_next_tick(const qt_engine *e, int64_t now_ms) {
  if (!e || !e->clock_on || e->done) return -1;
  if (!e->clock_started) return 0;
  int64_t left = e->clock_deadline - now_ms;
  if (left <= 0) return 0;
  int64_t to_change = left % 1000;
  return to_change ? to_change : 1000;
}

unsigned qt_timeout_result_flags(qt_timeout_then then) {
  return then == QT_TIMEOUT_SELECTED      ? QT_RESULT_TIMEOUT_SELECTED
         : then == QT_TIMEOUT_RECOMMENDED ? QT_RESULT_TIMEOUT_RECOMMENDED
         : then == QT_TIMEOUT_DECLINE     ? QT_RESULT_TIMEOUT_DECLINE
                                          : 0;
}

unsigned qt_engine_result_flags(const qt_engine *e) {
  if (!e || !e->done || e->outcome != QT_TIMED_OUT) return 0;
  return qt_timeout_result_flags(e->clock_then);
}

bool qt_countdown_text(const qt_engine *e, qt_buf *out) {
  if (!e->clock_on || e->done) return false;
  int64_t secs = seconds_left(e);
  char clock[32];
  if (secs >= 3600)
    snprintf(clock, sizeof clock, "%lld:%02lld:%02lld", (long long)(secs / 3600), (long long)(secs / 60 % 60),
             (long long)(secs % 60));
  else
    snprintf(clock, sizeof clock, "%lld:%02lld", (long long)(secs / 60), (long long)(secs % 60));
  qt_string_id id = e->clock_then == QT_TIMEOUT_SELECTED      ? QT_STR_COUNTDOWN_SELECTED
                    : e->clock_then == QT_TIMEOUT_RECOMMENDED ? QT_STR_COUNTDOWN_RECOMMENDED
                    : e->clock_then == QT_TIMEOUT_DECLINE     ? QT_STR_COUNTDOWN_DECLINE
                                                              : QT_STR_COUNTDOWN_CANCEL;
  return qt_format(out, qt_str(e, id), 0, clock);
}
