// wine-modules.test.mjs — the relay, the registry, the pending file's place and the external
// editor on the platform they run on, with no addon and no console: written for Windows' Node
// (run under Wine by scripts/wine-tests.mjs), where the relay listens on a named pipe, the
// registry lives under %LOCALAPPDATA%, a junction must not lead the pending file out of the
// project and the editor runs through cmd.exe. On Linux the same tests check the POSIX forms.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createServer } from "node:net";
import { test } from "node:test";
import { alive, listEndpoints, registerEndpoint, registryDirectory, request } from "../extension/elsewhere/relay-wire.mjs";
import { importShim } from "./helpers/shim.mjs";

const relay = await importShim("elsewhere/relay.ts");
const { runExternalEditor } = await importShim("ask/external-editor.ts");
const { placeInProject } = await importShim("text/project-file.ts");
const windows = process.platform === "win32";

/** The relay's bounds as native/core/qt_limits.h sets them in spirit: small, fixed (no addon here). */
const BOUNDS = {
  messageBytes: 64 * 1024,
  askMessageBytes: 64 * 1024,
  maxAskConnections: 8,
  askHeldBytes: 1 << 20,
  heldBytes: 1 << 21,
  lineMs: 5000,
  unverifiedBytes: 4096,
  unverifiedMs: 5000,
  maxUnverified: 8,
  maxConnections: 16,
  maxWaiting: 4,
};

const ANSWER = { type: "answer", outcome: "answered", answers: { db: { selected: ["lite"] } } };

async function serve() {
  const asked = [];
  const server = await relay.startRelayServer(BOUNDS, {
    ask: async (r) => {
      asked.push(r);
      return ANSWER;
    },
    list: () => ({ type: "pending", questions: [{ qid: "q12345678", args: "{}" }] }),
    answer: (qid) => ({ ok: true, qid }),
    watch: () => () => undefined,
  });
  assert.ok(server, "the relay could not listen");
  return { server, asked, endpoint: relay.parseRelayVariable(server.variable), control: relay.parseRelayVariable(server.control) };
}

/** A temporary directory for one test, removed afterwards. */
function scratch(t, name) {
  const dir = mkdtempSync(join(tmpdir(), `pq-wine-${name}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("relay: the endpoint is a named pipe on Windows (a 0700 directory's socket elsewhere), and a question, a list and an answer travel", async () => {
  const { server, asked, endpoint, control } = await serve();
  try {
    if (windows) {
      assert.match(endpoint.path, new RegExp(`^\\\\\\\\\\.\\\\pipe\\\\pi-question-[A-Za-z0-9._-]+-${process.pid}-[0-9a-f]{16}$`));
    } else {
      assert.match(endpoint.path, new RegExp(`pi-question-relay-${process.pid}-[A-Za-z0-9]{6}/relay\\.sock$`));
    }
    assert.equal(control.path, endpoint.path);
    const answer = await relay.askThroughRelay(endpoint, '{"questions":[]}', { name: "worker", pid: 7, cwd: "C:\\w" }, undefined, 1 << 20);
    assert.deepEqual(answer, ANSWER);
    assert.deepEqual(asked[0].asker, { name: "worker", pid: 7, cwd: "C:\\w" });
    const listed = await request(control, { type: "list" }, { connectMs: 5000, replyMs: 5000 });
    assert.equal(listed.message.questions[0].qid, "q12345678");
    const refused = await request(endpoint, { type: "list" }, { connectMs: 5000, replyMs: 5000 });
    assert.equal(refused.message.type, "error", "the ask secret does not list");
    const wrong = await request({ path: endpoint.path, secret: "0".repeat(64) }, { type: "list" }, { connectMs: 5000, replyMs: 5000 });
    assert.equal(wrong.type, "interrupted", "a wrong secret gets the connection closed");
  } finally {
    server.close();
  }
  const after = await request(endpoint, { type: "list" }, { connectMs: 5000, replyMs: 5000 });
  assert.equal(after.type, "unreachable", "a closed relay's endpoint is gone");
  if (!windows) assert.equal(existsSync(dirname(endpoint.path)), false);
});

test(
  "relay: on Windows nothing is sent to a pipe that took a gone pi's name",
  { skip: !windows && "named pipes are Windows'" },
  async () => {
    // A pid far above any Windows pid is never alive; the pipe under its name listens all the same.
    const path = `\\\\.\\pipe\\pi-question-someone-2147483644-${process.pid}ab`;
    let connections = 0;
    const impostor = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise((resolve, reject) => impostor.once("error", reject).listen(path, resolve));
    try {
      const r = await request({ path, secret: "c".repeat(64) }, { type: "list" }, { connectMs: 5000, replyMs: 5000 });
      assert.equal(r.type, "unreachable");
      assert.match(r.reason, /\(pid 2147483644\) is gone/);
      const live = `\\\\.\\pipe\\pi-question-someone-${process.pid}-${process.pid}cd`;
      const server = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise((resolve, reject) => server.once("error", reject).listen(live, resolve));
      try {
        assert.equal(
          (await request({ path: live, secret: "c".repeat(64) }, { type: "list" }, { connectMs: 5000, replyMs: 5000 })).type,
          "interrupted",
          "a live pid's pipe is connected to",
        );
      } finally {
        server.close();
      }
      assert.equal(connections, 1, "only the live pid's pipe saw a connection");
    } finally {
      impostor.close();
    }
  },
);

test("relay: the sweep touches no relay directory on Windows (none is ever made there)", async (t) => {
  const parent = scratch(t, "sweep");
  const dir = join(parent, "pi-question-relay-2147483646-AbC123");
  mkdirSync(dir);
  writeFileSync(join(dir, "kept"), "");
  const removed = await relay.sweepRelayDirectories(parent);
  assert.deepEqual(removed, windows ? [] : [dir]);
  assert.equal(existsSync(join(dir, "kept")), windows);
});

test("registry: under %LOCALAPPDATA%\\pi-question on Windows; an entry is listed while its pi lives and removed once it is dead", async (t) => {
  const base = scratch(t, "registry");
  const env = windows ? { LOCALAPPDATA: base } : { XDG_RUNTIME_DIR: base };
  const dir = registryDirectory(env);
  assert.equal(dir, join(base, "pi-question"));
  const { server, control } = await serve();
  t.after(() => server.close());
  const unregister = registerEndpoint({ variable: server.control, pid: process.pid, cwd: process.cwd(), startedAt: Date.now() }, env);
  const listed = listEndpoints(env);
  assert.equal(listed.length, 1);
  assert.deepEqual(listed[0].endpoint, control);
  // A pi that is gone: a child's pid once it has exited.
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  const dead = Number(child.stdout);
  assert.ok(dead > 0 && alive(process.pid) && !alive(dead), `pid ${dead} should be dead, ${process.pid} alive`);
  writeFileSync(join(dir, `${dead}-00000000.json`), JSON.stringify({ variable: server.control, pid: dead, cwd: "x", startedAt: 0 }));
  assert.equal(listEndpoints(env).length, 1);
  assert.deepEqual(
    readdirSync(dir).sort(),
    readdirSync(dir)
      .filter((n) => !n.startsWith(`${dead}-`))
      .sort(),
    "the dead pi's entry was removed",
  );
  unregister();
  assert.deepEqual(readdirSync(dir), []);
});

test("pending file: a link or junction out of the project is refused wherever the system resolves it", async (t) => {
  const dir = scratch(t, "place");
  const project = join(dir, "project");
  const outside = join(dir, "outside");
  mkdirSync(project);
  mkdirSync(outside);
  try {
    // A junction needs no privilege on Windows; a symbolic link elsewhere.
    symlinkSync(outside, join(project, ".pi"), windows ? "junction" : "dir");
  } catch (error) {
    t.skip(`no link can be made here (${error.code}): ${error.message}`);
    return;
  }
  const place = placeInProject(project, join(".pi", "pending-questions.json"));
  assert.equal(typeof place, "string", `expected a refusal, got ${JSON.stringify(place)}`);
  assert.match(place, /leads outside the project/);
  const inside = placeInProject(project, join("sub", "pending.json"));
  assert.equal(typeof inside, "object");
});

const T = { EDITOR_NOT_SET: "not set", EDITOR_NOT_STARTED: "not started: {s}", EDITOR_EXIT: "exit {n}" };

test("external editor: $EDITOR runs through the system's shell with the file, whatever its characters; a missing one is named", async (t) => {
  const dir = scratch(t, "editor");
  const script = join(dir, "edit.mjs");
  writeFileSync(
    script,
    'import { appendFileSync } from "node:fs"; appendFileSync(process.argv[2], " edited"); process.exit(Number(process.env.PQ_EXIT ?? 0));\n',
  );
  const editor = `"${process.execPath}" "${script}"`;
  // The draft's temporary directory goes in `dir` (os.tmpdir() reads these), to be seen gone.
  const saved = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP };
  Object.assign(process.env, { TMPDIR: dir, TEMP: dir, TMP: dir });
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  assert.equal(tmpdir(), dir);
  const env = { ...process.env, VISUAL: "", EDITOR: editor };
  assert.deepEqual(runExternalEditor("draft", T, env), { ok: true, text: "draft edited" });
  assert.deepEqual(runExternalEditor("draft", T, { ...env, PQ_EXIT: "3" }), { ok: false, why: "exit 3" });
  const missing = runExternalEditor("draft", T, { ...env, EDITOR: "pq-no-such-editor-here" });
  assert.deepEqual(missing, { ok: false, why: "not started: pq-no-such-editor-here" });
  assert.deepEqual(readdirSync(dir), ["edit.mjs"], "the temporary directory went");
});
