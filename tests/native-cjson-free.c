/* native-cjson-free.c — strings printed by cJSON (cJSON_Print*) are released with cJSON_free,
 * never with free(), as cJSON's API says (its allocator may not be malloc). cJSON's hooks are set to
 * an allocator whose pointers plain free() rejects: each block starts 32 bytes before the
 * pointer handed out, behind a magic header (and a bogus malloc chunk size right before the
 * pointer). A cJSON string passed to free() is then a bad free for AddressSanitizer and an
 * abort in glibc ("free(): invalid pointer"); a pointer of ours handed to the hook's free fails
 * the magic check. Every path of the core that prints JSON with cJSON runs here: metadata
 * (request.c), the canonical JSON with preset answers (request.c), the result's details
 * (result.c). At the end every block cJSON took must have come back through the hook.
 *
 * Run by tests/cjson-free.test.mjs (built with -fsanitize=address when clang has it) and by
 * `npm run test:asan` (every tests/native-*.c).
 * Usage: native-cjson-free [rounds]   (default 200) */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt.h"

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "native-cjson-free: %s failed at %s:%d\n", #cond, __FILE__, __LINE__);                           \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

/* ---- the header-prefixed allocator ------------------------------------------------------ */

#define HEADER 32
static const char MAGIC[16] = "qt-cjson-block!";
static long live;  /* blocks cJSON holds now */
static long taken; /* blocks cJSON ever took */

static void *prefixed_malloc(size_t size) {
  unsigned char *block = malloc(size + HEADER);
  if (!block) return NULL;
  memcpy(block, MAGIC, sizeof MAGIC);
  memset(block + sizeof MAGIC, 0xA5, HEADER - sizeof MAGIC); /* what free() would read as a chunk size */
  live++;
  taken++;
  return block + HEADER;
}

static void prefixed_free(void *pointer) {
  if (!pointer) return;
  unsigned char *block = (unsigned char *)pointer - HEADER;
  CHECK(memcmp(block, MAGIC, sizeof MAGIC) == 0); /* cJSON_free of memory that is not cJSON's */
  memset(block, 0, sizeof MAGIC);
  live--;
  free(block);
}

/* ---- every path that prints with cJSON ----------------------------------------------------- */

static const char REQUEST[] =
    "{\"questions\":[{\"id\":\"db\",\"prompt\":\"Which "
    "database?\",\"options\":[{\"value\":\"pg\",\"label\":\"PostgreSQL\"},"
    "{\"value\":\"lite\",\"label\":\"SQLite\"}]},{\"id\":\"f\",\"prompt\":\"Features?\",\"multiSelect\":true,"
    "\"options\":[\"Auth\",\"Billing\"]},{\"id\":\"name\",\"prompt\":\"Name?\"}],"
    "\"metadata\":{\"source\":\"setup\",\"n\":[1,2.5,{\"x\":null}]},"
    "\"answers\":{\"db\":\"lite\",\"f\":[\"Auth\",\"Billing\"],\"name\":\"orders\"}}";

static const char ANSWERS[] = "{\"db\":\"pg\",\"f\":[\"Billing\"],\"name\":\"svc \\u4e2d\"}";

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 200;
  cJSON_Hooks hooks = {prefixed_malloc, prefixed_free};
  cJSON_InitHooks(&hooks);

  /* The hooks are in force: a cJSON string comes from prefixed_malloc. */
  cJSON *probe = cJSON_CreateString("probe");
  char *printed = cJSON_PrintUnformatted(probe);
  CHECK(printed && memcmp((unsigned char *)printed - HEADER, MAGIC, sizeof MAGIC) == 0);
  cJSON_free(printed);
  cJSON_Delete(probe);
  CHECK(live == 0);

  for (long r = 0; r < rounds; r++) {
    qt_request *req = NULL;
    qt_error err;
    CHECK(qt_request_parse(REQUEST, strlen(REQUEST), &req, &err) == QT_OK); /* metadata printed */
    char *canonical = NULL;
    CHECK(qt_request_to_json(req, true, &canonical) == QT_OK); /* preset answers printed */
    CHECK(strstr(canonical, "\"answers\":{") && strstr(canonical, "\"metadata\":{\"source\":\"setup\""));
    free(canonical); /* qt.h: the core's strings are released with free() */
    qt_answer *answers = NULL;
    size_t count = req->question_count;
    CHECK(qt_answers_from_json(req, ANSWERS, strlen(ANSWERS), &answers, &err) == QT_OK);
    for (int outcome = 0; outcome < 3; outcome++) {
      char *details = NULL, *text = NULL;
      qt_outcome o = outcome == 0 ? QT_ANSWERED : outcome == 1 ? QT_DECLINED : QT_DISCUSS;
      CHECK(qt_result_build(req, o == QT_ANSWERED ? answers : NULL, o, "tty", 1, o == QT_DISCUSS ? "why?" : NULL,
                            &details, &text) == QT_OK); /* details printed */
      CHECK(strstr(details, "\"metadata\":{\"source\":\"setup\""));
      free(details);
      free(text);
    }
    qt_answers_free(answers, count);
    qt_request_free(req);
  }
  CHECK(taken > 0);
  CHECK(live == 0); /* every block cJSON took came back through cJSON_free / cJSON_Delete */
  printf("native-cjson-free: %ld rounds, %ld cJSON blocks, all released through the hooks\n", rounds, taken);
  return 0;
}
