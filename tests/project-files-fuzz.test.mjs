// project-files-fuzz.test.mjs — a project's .pi files thrown at the readers as hostile input:
// seeded random cases for .pi/question.json (settings.ts) and
// .pi/pending-questions.json (pending.ts) — random bytes, mangled JSON, files past their bound
// (sparse, up to 1 GB), links to /dev/zero, out of the project and in loops, a .pi linked out of
// the project, FIFOs, devices, sockets, directories, files that grow or are swapped for a link
// while read, pending sets with forged seals. One reader process (helpers/project-file-child.mjs,
// the extension loaded through jiti) takes the cases one by one; each must come back within
// CASE_MS (else it hung, and the case and seed are printed), with nothing thrown, resident memory
// under MEMORY_BYTES, one warning for every file refused (the settings warning names the file;
// the pending file's error is given and the write refused with it, the file left as it was), and
// no forged set taken for this person's.
//
// PROJECT_FUZZ_CASES (default 24, the count `npm test` runs; CI's fuzz step runs more) and
// PROJECT_FUZZ_SEED=<seed> replays a run; the seed is printed.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { appendFileSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { prng } from "./helpers/door-fuzz.mjs";

const CASES = Number(process.env.PROJECT_FUZZ_CASES || 24);
if (!(Number.isInteger(CASES) && CASES > 0))
  throw new Error(`PROJECT_FUZZ_CASES=${process.env.PROJECT_FUZZ_CASES}: a whole number above 0, please`);
const SEED = process.env.PROJECT_FUZZ_SEED ? Number(process.env.PROJECT_FUZZ_SEED) : randomInt(2 ** 32);
if (!Number.isInteger(SEED) || SEED < 0 || SEED >= 2 ** 32)
  throw new Error(`PROJECT_FUZZ_SEED=${process.env.PROJECT_FUZZ_SEED}: a seed is an integer from 0 to 4294967295`);
const REPLAY = `seed ${SEED} (replay: PROJECT_FUZZ_SEED=${SEED} PROJECT_FUZZ_CASES=${CASES} node --test tests/project-files-fuzz.test.mjs)`;
console.log(`# project files fuzz: ${REPLAY}`);

/** A case that takes longer hung (a read that blocks or never ends): generous, for a loaded CI. */
const CASE_MS = 30000;
/** The reader's resident memory must stay under this: reading /dev/zero or a 1 GB file whole
 * would pass it; the bounds (at most a few MB) never come near. */
const MEMORY_BYTES = 600 * 1024 * 1024;
const CHILD = new URL("./helpers/project-file-child.mjs", import.meta.url).pathname;
const POSIX = process.platform !== "win32";
const ROOT = POSIX && process.getuid?.() === 0;

const KINDS = [
  "bytes",
  "json",
  "huge",
  "zero",
  "outside",
  "loop",
  "self",
  "dotpi-outside",
  "fifo",
  "device",
  "socket",
  "directory",
  "grows",
  "swapped",
  "forged",
]
  .filter((k) => POSIX || !["zero", "outside", "loop", "self", "dotpi-outside", "fifo", "device", "socket"].includes(k))
  .filter((k) => ROOT || k !== "device");
/** Kinds whose file must be refused: one warning, nothing read, nothing written over. */
const REFUSED = new Set(["huge", "zero", "outside", "loop", "self", "dotpi-outside", "fifo", "device", "socket", "directory"]);

/** A settings or pending file's valid text, for mangling. */
function validText(target, r) {
  if (target === "settings")
    return JSON.stringify({ language: r.pick(["en", "de", "auto"]), notice: { bell: r.chance(0.5) }, pendingFile: ".pi/p.json" });
  return JSON.stringify({
    instructions: "x",
    pending: [{ key: r.hex(16), askedAt: "2026-01-01T00:00:00Z", questions: [{ id: "a", prompt: "a?", answer: "Yes" }] }],
  });
}

/** Makes case `kind` for `target` in `project`; returns a racer to stop after the case, if any. */
async function makeCase(kind, target, project, outside, r) {
  const name = target === "settings" ? "question.json" : "pending-questions.json";
  const dotPi = join(project, ".pi");
  const path = join(dotPi, name);
  if (kind === "dotpi-outside") {
    mkdirSync(join(outside, "pi"), { recursive: true });
    writeFileSync(join(outside, "pi", name), validText(target, r));
    symlinkSync(join(outside, "pi"), dotPi);
    return { path };
  }
  mkdirSync(dotPi);
  switch (kind) {
    case "bytes":
      writeFileSync(path, r.bytes(r.range(0, 4096)));
      break;
    case "json": {
      const text = Buffer.from(validText(target, r));
      for (let n = r.range(0, 4); n > 0; n--) text[r.int(text.length)] = r.int(256);
      writeFileSync(path, text);
      break;
    }
    case "huge": {
      const bound = target === "settings" ? addon.limits.settingsFileBytes : addon.limits.pendingFileBytes;
      writeFileSync(path, "");
      truncateSync(path, r.pick([bound + 1, bound * 2, 1024 * 1024 * 1024])); // sparse: no disk used
      break;
    }
    case "zero":
      symlinkSync(r.pick(["/dev/zero", "/dev/urandom", "/dev/null", "/dev/stdin"]), path);
      break;
    case "outside":
      writeFileSync(join(outside, "x.json"), validText(target, r));
      symlinkSync(join(outside, "x.json"), path);
      break;
    case "loop":
      symlinkSync(join(dotPi, "b"), path);
      symlinkSync(path, join(dotPi, "b"));
      break;
    case "self":
      symlinkSync(path, path);
      break;
    case "fifo":
      execFileSync("mkfifo", [path]);
      break;
    case "device":
      execFileSync("mknod", [path, "c", "1", r.pick(["3", "5", "9"])]); // null, zero, urandom
      break;
    case "socket": {
      const server = createServer();
      await new Promise((resolve) => server.listen(path, resolve));
      return { path, stop: () => new Promise((resolve) => server.close(resolve)) };
    }
    case "directory":
      mkdirSync(path);
      break;
    case "grows": {
      // Appended to without pause, cut back once past twice the bound: it changes under every read.
      writeFileSync(path, validText(target, r));
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const bound = target === "settings" ? addon.limits.settingsFileBytes : addon.limits.pendingFileBytes;
      let size = 0;
      let on = true;
      const tick = () => {
        if (!on) return;
        try {
          if (size > 2 * bound) {
            truncateSync(path, 0);
            size = 0;
          }
          appendFileSync(path, chunk);
          size += chunk.length;
        } catch {}
        setImmediate(tick);
      };
      tick();
      return { path, stop: () => (on = false) };
    }
    case "swapped": {
      // A regular file and a link to /dev/zero take turns at the path (rename is atomic).
      writeFileSync(path, validText(target, r));
      let on = true;
      let flip = false;
      const tick = () => {
        if (!on) return;
        try {
          const spare = join(dotPi, "spare");
          if (flip) writeFileSync(spare, validText(target, r));
          else if (POSIX) symlinkSync("/dev/zero", spare);
          else writeFileSync(spare, r.bytes(64));
          renameSync(spare, path);
          flip = !flip;
        } catch {}
        setImmediate(tick);
      };
      tick();
      return { path, stop: () => (on = false) };
    }
    case "forged": {
      const text = validText("pending", r);
      const file = JSON.parse(text);
      file.pending[0].seal = r.hex(64);
      writeFileSync(join(dotPi, "pending-questions.json"), JSON.stringify(file));
      if (target === "settings") writeFileSync(path, validText(target, r));
      break;
    }
  }
  return { path };
}

/** The reader process: `send(case)` resolves with its reply, or rejects once CASE_MS passed. */
function startReader(home) {
  const child = spawn(process.execPath, [CHILD], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, HOME: home } });
  let buffer = "";
  let stderr = "";
  let waiting;
  let exited;
  child.stderr.on("data", (d) => (stderr += d));
  child.once("exit", (code, signal) => {
    exited = `the reader exited (${code ?? signal})\nstderr: ${stderr}`;
    waiting?.reject(new Error(`${waiting.what}: ${exited}`));
  });
  child.stdout.on("data", (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      waiting?.resolve(line);
    }
  });
  const next = (what) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${CASE_MS} ms (hung)\nstderr: ${stderr}`)), CASE_MS);
      if (exited) return reject(new Error(`${what}: ${exited}`));
      waiting = {
        what,
        resolve: (line) => {
          clearTimeout(timer);
          waiting = undefined;
          resolve(line);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  return {
    ready: next("start"),
    send(c, what) {
      const reply = next(what);
      child.stdin.write(`${JSON.stringify(c)}\n`);
      return reply.then((line) => JSON.parse(line));
    },
    kill: () => child.kill("SIGKILL"),
  };
}

/** What kind of thing is at `path` now (the file must be left as it was). */
function kindAt(path) {
  try {
    const st = lstatSync(path);
    return st.isSymbolicLink()
      ? "link"
      : st.isFIFO()
        ? "fifo"
        : st.isDirectory()
          ? "dir"
          : st.isSocket()
            ? "socket"
            : st.isFile()
              ? "file"
              : "device";
  } catch {
    return "none";
  }
}

test(`project files fuzz: ${CASES} hostile .pi files, ${REPLAY}`, async () => {
  const r = prng(SEED);
  const base = mkdtempSync(join(tmpdir(), "pq-files-fuzz-"));
  const home = join(base, "home");
  mkdirSync(home);
  const reader = startReader(home);
  let maxRss = 0;
  try {
    assert.equal(await reader.ready, "ready");
    for (let i = 0; i < CASES; i++) {
      const kind = KINDS[i < KINDS.length ? i : r.int(KINDS.length)]; // every kind at least once
      const target = r.pick(["settings", "pending"]);
      const what = `case ${i}: ${kind} ${target} file, ${REPLAY}`;
      const project = join(base, `p${i}`);
      const outside = join(base, `o${i}`);
      mkdirSync(project);
      mkdirSync(outside);
      const made = await makeCase(kind, target, project, outside, r);
      const before = kindAt(made.path);
      let out;
      let after;
      try {
        out = await reader.send({ project, home }, what);
        after = kindAt(made.path); // before the racer stops (a socket goes with its server)
      } finally {
        await made.stop?.();
      }
      assert.equal(out.threw, null, what);
      assert.ok(out.rss < MEMORY_BYTES, `${what}: the reader holds ${out.rss} bytes`);
      maxRss = Math.max(maxRss, out.rss);
      for (const w of out.warnings) assert.match(w, /^pi-question: /, what);
      if (REFUSED.has(kind) && target === "settings") {
        const about = out.warnings.filter((w) => w.includes("question.json"));
        assert.equal(about.length, 1, `${what}: one warning, got ${JSON.stringify(out.warnings)}`);
        assert.match(about[0], /so it is not read|cannot be read/, what);
      }
      if (REFUSED.has(kind) && target === "pending") {
        assert.ok(out.pendingError?.includes("pending-questions.json"), `${what}: ${JSON.stringify(out)}`);
        // Refused with the reader's words, or (a link out of the project) the writer's own.
        assert.ok(
          out.saved !== "set" && out.saved.includes("pending-questions.json") && /neither/.test(out.saved),
          `${what}: ${out.saved}`,
        );
        assert.equal(after, before, `${what}: the file is left as it was`);
      }
      if (kind === "forged")
        assert.ok(
          out.foreign.every((f) => typeof f === "string"),
          `${what}: a forged seal passed`,
        );
      rmSync(project, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
    console.log(`# project files fuzz: ${CASES} cases, the reader's largest RSS ${Math.round(maxRss / 1048576)} MB`);
  } finally {
    reader.kill();
    rmSync(base, { recursive: true, force: true });
  }
});
