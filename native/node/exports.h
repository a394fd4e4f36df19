/* exports.h — the Node-API functions the binding's files give the module (binding.c puts them
 * in its exports), by file. */
#ifndef QT_NODE_EXPORTS_H
#define QT_NODE_EXPORTS_H

#include <node_api.h>
#include <stdbool.h>

/* engine_class.c: the Engine class, defined once per environment; createEngine(json) */
bool define_engine_class(napi_env env);
napi_value js_create_engine(napi_env env, napi_callback_info info);

/* text_keys.c: widths, graphemes, sanitizing, desktop notices, key decoding */
napi_value js_visible_width(napi_env env, napi_callback_info info);
napi_value js_graphemes(napi_env env, napi_callback_info info);
napi_value js_set_width_rules(napi_env env, napi_callback_info info);
napi_value js_width_rules(napi_env env, napi_callback_info info);
napi_value js_sanitize(napi_env env, napi_callback_info info);
napi_value js_desktop_notice(napi_env env, napi_callback_info info);
napi_value js_decode_keys(napi_env env, napi_callback_info info);
napi_value js_parse_key_id(napi_env env, napi_callback_info info);
napi_value js_text_work(napi_env env, napi_callback_info info);          /* tests only */
napi_value js_graphemes_backward(napi_env env, napi_callback_info info); /* tests only */

/* tty_thread.c: the question on a terminal, on a thread of its own */
napi_value js_tty_available(napi_env env, napi_callback_info info);
napi_value js_tty_status(napi_env env, napi_callback_info info);
napi_value js_run_tty(napi_env env, napi_callback_info info);

/* lock_file.c: the pending-questions file's lock */
napi_value js_lock_file(napi_env env, napi_callback_info info);

/* peer.c: who is at the other end of a local socket (the relay) */
napi_value js_peer_credentials(napi_env env, napi_callback_info info);
napi_value js_process_parent(napi_env env, napi_callback_info info);
napi_value js_process_command_line(napi_env env, napi_callback_info info);

/* pipe.c: the relay's named pipe on Windows (qt_pipe.h) */
napi_value js_pipe_serve(napi_env env, napi_callback_info info);
napi_value js_pipe_connect(napi_env env, napi_callback_info info);

#endif
