// hostile.test.mjs — hostile input end to end through the real tool (prepareArguments, execute)
// and the engine: each case yields a precise validation error or renders harmlessly — never a
// crash, never a raw control reaching the terminal, never a line over the width.
import assert from "node:assert/strict";
import { test } from "node:test";
import { importPiTui } from "./helpers/pi-line.mjs";
import { addon } from "./helpers/addon.mjs";
import { headlessContext, loadExtension } from "./helpers/fake-pi.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { visibleWidth } = await importPiTui();

process.env.PI_QUESTION_TTY = "/nonexistent/tty";
const tool = (await loadExtension()).tools.get("question");

const NASTY = [
  "\u001b]0;PWNED\u0007", // window title
  "\u001b]52;c;cm0gLXJmIH4=\u0007", // OSC 52 clipboard write
  "\u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\", // OSC 8 link
  "\u001b[10;10H\u001b[2J\u001bc\u001b[?1049h", // cursor move, clear, reset, alt screen
  "line\rOVERWRITE",
  "back\b\b\bspace\u007f",
  "\u0085next\u009b31mC1\u009d0;t\u009c",
  "\u202eevil\u202c \u2066iso\u2069 \u200f\u200e\u061c",
  "zero\u200bwidth\ufeff\u2060",
  "tab\tbell\u0007ff\u000cvt\u000b",
  "日本語テキスト👨‍👩‍👧‍👦🇩🇪e\u0301",
];

/** No byte of a rendered line may act on the terminal (plain styles: no ESC at all). */
function assertHarmless(lines, width, where) {
  for (const line of lines) {
    assert.ok(visibleWidth(line) <= width, `${where}: overwide line at ${width}: ${JSON.stringify(line)}`);
    assert.doesNotMatch(
      line,
      /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u,
      `${where}: control in ${JSON.stringify(line)}`,
    );
  }
}

/** Drives an engine through many states, checking every frame at several widths. */
function exercise(args, where) {
  const e = addon.createEngine(JSON.stringify(args));
  const keys = [
    "",
    "\u001b[B",
    "\u001b[B",
    "x",
    "\u001b[200~" + NASTY.join("\n") + "\u001b[201~",
    "\u001b[D",
    "\r",
    "/",
    "a",
    "\u001b",
    "\t",
    "\u001b[Z",
    "\u001b[6~",
    "\u000e",
    "note\u001b[31m",
    "\r",
  ];
  for (const k of keys) {
    if (e.done) break;
    e.feed(k);
    for (const width of [1, 7, 20, 33, 40, 80, 133, 200]) assertHarmless(e.render(width), width, `${where} after ${JSON.stringify(k)}`);
  }
}

test("hostile: escape sequences, controls, bidi and zero-width text in every field render harmlessly", () => {
  for (const [i, nasty] of NASTY.entries()) {
    const args = {
      questions: [
        {
          id: `q${i}`,
          label: nasty.slice(0, 100),
          prompt: `Prompt ${nasty}\nsecond line ${nasty}`,
          options: [
            { value: `v${i}`, label: `Label ${nasty}`, description: `Desc ${nasty}`, preview: `Preview\n${nasty}\n${nasty}` },
            { value: "plain", label: "Plain" },
          ],
        },
        { id: "free", prompt: nasty },
      ],
    };
    exercise(tool.prepareArguments(args), `case ${i}`);
  }
});

test("hostile: the tool's call and result renderers never pass controls through", async () => {
  const args = tool.prepareArguments({
    questions: [{ id: "a", label: NASTY.join(""), prompt: NASTY.join(""), options: NASTY.map((n, i) => `${i}${n}`) }],
    answers: { a: `0${NASTY[0]}` },
  });
  const theme = { fg: (_c, s) => s, bold: (s) => s };
  const result = await tool.execute("c", args, undefined, undefined, headlessContext("/"));
  for (const width of [10, 40, 120]) {
    assertHarmless(tool.renderCall(args, theme, {}).render(width), width, "renderCall");
    for (const expanded of [false, true]) {
      assertHarmless(tool.renderResult(result, { expanded }, theme, { isError: false }).render(width), width, "renderResult");
    }
  }
});

test("hostile: invalid and overlong UTF-8 and NUL bytes are rejected precisely", () => {
  const wrap = (bytes) => Buffer.concat([Buffer.from('{"questions":[{"id":"a","prompt":"x'), Buffer.from(bytes), Buffer.from('"}]}')]);
  for (const bad of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xed, 0xbf, 0xbf], [0xc3]]) {
    const e = (() => {
      try {
        addon.normalize(wrap(bad));
      } catch (err) {
        return err;
      }
    })();
    assert.ok(e, `bytes ${bad} accepted`);
    assert.equal(e.code, "QT_EINVALID");
    assert.match(e.message, /not valid UTF-8 \(byte 35\)/);
  }
  // A raw control character inside a JSON string is not JSON, and an escaped NUL would cut the
  // text short in C: both are rejected with the byte offset.
  assert.throws(() => addon.normalize(wrap([0x00])), /raw control character inside a string \(byte 35\)/);
  assert.throws(() => addon.normalize(wrap([0x1b])), /raw control character/);
  assert.throws(() => addon.normalize('{"questions":[{"id":"a","prompt":"x\\u0000y"}]}'), /NUL character \(\\u0000, byte 35\)/);
  assert.throws(
    () => addon.result('{"questions":[{"id":"a","prompt":"x"}]}', "answered", "print", 0, null, '{"a":"x\\u0000"}'),
    /answers contain a NUL/,
  );
});

test("hostile: huge strings, 10,000 options and deep nesting get limit errors, not crashes", () => {
  const cases = [
    [{ questions: [{ id: "a", prompt: "x".repeat(1 << 20) }] }, /limit is 100000/],
    [{ questions: [{ id: "a", prompt: "p", options: Array.from({ length: 10000 }, (_, i) => `${i}`) }] }, /limit is 100000|limit is 1000/],
    [JSON.parse("[".repeat(10) + "1" + "]".repeat(10)), /must be a JSON object/],
  ];
  for (const [args, re] of cases) assert.throws(() => tool.prepareArguments(args), re);
  assert.throws(() => addon.normalize('{"questions":' + "[".repeat(5000) + "]".repeat(5000) + "}"), /nest deeper/);
  // The most options that fit the byte limit still work, and rendering stays windowed.
  const many = { questions: [{ id: "a", prompt: "p", options: Array.from({ length: 1000 }, (_, i) => `o${i}`) }] };
  exercise(tool.prepareArguments(many), "1000 options");
});

test("hostile: wrong types everywhere get errors naming the path", () => {
  const cases = [
    [{ questions: [{ id: "a", prompt: "p", options: [{ value: "v", label: { x: 1 } }] }] }, "questions[0].options[0].label"],
    [{ questions: [{ id: "a", prompt: "p", options: [{ value: [], label: "L" }] }] }, "questions[0].options[0].value"],
    [{ questions: [{ id: "a", prompt: "p", options: [{ label: "L", description: 5e300 }] }] }, null],
    [{ questions: [{ id: true, prompt: "p" }] }, "questions[0].id"],
    [{ questions: [{ id: "a", prompt: 42 }] }, null],
    [{ questions: [{ id: "a", prompt: "p", multiSelect: 1 }] }, "questions[0].multiSelect"],
    [{ questions: [{ id: "a", prompt: "p" }], answers: ["x"] }, "answers"],
    [{ questions: [{ id: "a", prompt: "p" }], metadata: { source: ["x"] } }, "metadata.source"],
  ];
  for (const [args, path] of cases) {
    let error;
    try {
      exercise(tool.prepareArguments(args), JSON.stringify(args));
    } catch (e) {
      error = e;
    }
    if (path === null) assert.equal(error, undefined, `numbers are accepted as text: ${error?.message}`);
    else {
      assert.ok(error, `accepted: ${JSON.stringify(args)}`);
      assert.equal(error.path, path, error.message);
    }
  }
});

test("hostile: __proto__ and constructor work as ids and answer keys end to end", async () => {
  const args = tool.prepareArguments(
    JSON.parse(
      '{"questions":[{"id":"__proto__","prompt":"p","options":["a","b"]},{"id":"constructor","prompt":"q"}],"answers":{"__proto__":"b","constructor":"toString"}}',
    ),
  );
  const r = await tool.execute("c", args, undefined, undefined, headlessContext("/"));
  assert.equal(
    r.content[0].text,
    "Taken from the answers given in this call's `answers`; the user was not asked and chose none of it.\n__proto__: selected: 2. b\nconstructor: wrote: toString",
  );
  assert.deepEqual(
    r.details.answers.map((a) => a.id),
    ["__proto__", "constructor"],
  );
  assert.equal(Object.getPrototypeOf(r.details), Object.prototype, "no prototype pollution");
  assert.equal({}.polluted, undefined);
});

// ---- scripts running inside the addon's own calls --------------------------------------------
// pi runs other extensions in the same process: a setter a script puts on Array.prototype or
// Object.prototype runs whenever native code assigns to a fresh array or object. One that
// disposes of the engine freed the frame render() was still reading (a use-after-free; the
// sanitizer build, `npm run test:asan`, reports any that remain).
const SMALL = JSON.stringify({ questions: [{ id: "db", prompt: "Which database?", options: ["Postgres", "SQLite"] }] });

/** Runs fn with setters on the given prototypes' keys; always removes them. */
function withSetters(targets, set, fn) {
  for (const [proto, key] of targets) Object.defineProperty(proto, key, { configurable: true, set });
  try {
    return fn();
  } finally {
    for (const [proto, key] of targets) delete proto[key];
  }
}

test("hostile: setters on Array.prototype and Object.prototype that dispose of the engine never run inside its calls", () => {
  const plain = addon.createEngine(SMALL);
  const wantFirst = plain.render(80);
  plain.feed("\u001b[B");
  const wantSecond = plain.render(60);
  plain.feed("\r");
  const wantResult = plain.result("test", 1);
  plain.dispose();

  const engine = addon.createEngine(SMALL);
  let calls = 0;
  const targets = [
    [Array.prototype, "0"],
    [Array.prototype, "1"],
    [Object.prototype, "details"],
    [Object.prototype, "text"],
  ];
  const got = withSetters(
    targets,
    () => {
      calls++;
      engine.dispose();
    },
    () => {
      const first = engine.render(80);
      engine.feed("\u001b[B");
      const second = engine.render(60);
      engine.feed("\r");
      const result = engine.result("test", 1);
      const other = addon.result(SMALL, "declined", "print", 1, null, null);
      return { first, second, result, other };
    },
  );
  assert.equal(calls, 0, "no setter ran inside the addon");
  assert.deepEqual(got.first, wantFirst, "every line is an element of the frame");
  assert.deepEqual(got.second, wantSecond);
  assert.deepEqual(Object.keys(got.result), ["details", "text"]);
  assert.equal(got.result.text, wantResult.text);
  assert.equal(got.result.details, wantResult.details);
  assert.match(got.other.text, /^The user declined/);
  assert.equal(engine.outcome, "answered", "the engine is still there");
  engine.dispose();
});

test("hostile: an engine called again from JS its own call ran throws QT_ESTATE and stays usable", () => {
  // bind() reads the key ids from the caller's array: a getter there runs inside the call.
  const engine = addon.createEngine(SMALL);
  const codes = {};
  const keys = ["j", "down"];
  Object.defineProperty(keys, 1, {
    get() {
      for (const [name, call] of Object.entries({
        feed: () => engine.feed("\r"),
        render: () => engine.render(80),
        result: () => engine.result("test"),
        interrupt: () => engine.interrupt(),
        done: () => engine.done,
        dispose: () => engine.dispose(),
      })) {
        try {
          call();
          codes[name] = "no error";
        } catch (error) {
          codes[name] = error.code;
        }
      }
      return "down";
    },
  });
  assert.equal(engine.bind("down", keys), 0);
  assert.deepEqual(codes, {
    feed: "QT_ESTATE",
    render: "QT_ESTATE",
    result: "QT_ESTATE",
    interrupt: "QT_ESTATE",
    done: "QT_ESTATE",
    dispose: "QT_ESTATE",
  });
  // nothing nested happened, and the engine works: the new binding included
  assert.equal(engine.done, false);
  engine.feed("j");
  engine.feed("\r");
  assert.equal(engine.outcome, "answered");
  assert.match(engine.result("test").text, /^db: user selected: 2\. SQLite$/);
  // a getter that throws ends bind() with its error, and the engine is not left busy
  const bad = ["j"];
  Object.defineProperty(bad, 0, {
    get() {
      throw new Error("no keys for you");
    },
  });
  assert.throws(() => engine.bind("up", bad), /no keys for you/);
  assert.equal(engine.done, true);
  engine.dispose();
});

// Lines that did not change are handed out again as the strings made for them before (because
// making a JS string from each line was a quarter of a keystroke). Those strings are kept
// where no script reaches them: whatever a script does to a frame it was given — assigning,
// deleting, defining a getter, freezing — the next frame still holds the engine's own lines.
test("hostile: a script changing a frame it was given changes nothing in the next one", () => {
  const keys = ["", "\u001b[B", "x", "\u007f", "\u001b[A", "\u001b[B", "\u001b[B"];
  const want = [];
  const plain = addon.createEngine(SMALL);
  for (const k of keys) {
    plain.feed(k);
    want.push(plain.render(60));
  }
  plain.dispose();

  const engine = addon.createEngine(SMALL);
  const tamper = [
    (f) => {
      f[0] = "\u001b]52;c;cm0gLXJmIH4=\u0007";
    },
    (f) => {
      for (let i = 0; i < f.length; i++) f[i] = "\u001b[2J";
    },
    (f) => {
      Object.defineProperty(f, 1, {
        get: () => {
          engine.dispose();
          return "\u001b]0;PWNED\u0007";
        },
      });
    },
    (f) => {
      f.length = 0;
    },
    (f) => {
      f.reverse();
    },
    (f) => {
      Object.freeze(f);
    },
    (f) => {
      delete f[2];
      f.push("\u001bc");
    },
  ];
  for (const [i, k] of keys.entries()) {
    engine.feed(k);
    const frame = engine.render(60);
    assert.deepEqual(frame, want[i], `frame after key ${i} (${JSON.stringify(k)})`);
    tamper[i](frame);
  }
  // and a frame asked for again at once, with nothing changed, is the engine's too
  assert.deepEqual(
    engine.render(61),
    (() => {
      const p = addon.createEngine(SMALL);
      for (const k of keys) p.feed(k);
      const f = p.render(61);
      p.dispose();
      return f;
    })(),
  );
  engine.dispose();
});

// An engine's methods live on one prototype (twenty functions made for every engine
// kept memory until the garbage collector ran). The class's constructor is reachable from any
// engine; what it makes is no engine, and every method says so instead of touching memory.
test("hostile: an object made with an engine's constructor is refused by every method", () => {
  const engine = addon.createEngine(SMALL);
  const Fake = engine.constructor;
  const fake = new Fake();
  const proto = Object.getPrototypeOf(engine);
  for (const name of Object.getOwnPropertyNames(proto).filter((n) => n !== "constructor")) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    const call = d.get ? () => d.get.call(fake) : () => d.value.call(fake, "x", 1);
    assert.throws(call, (e) => e.code === "QT_ETYPE", `${name} on a made-up object`);
    const plain = d.get ? () => d.get.call({}) : () => d.value.call({}, "x", 1);
    // (V8 itself refuses a receiver that is no instance of the class: "Illegal invocation")
    assert.throws(plain, (e) => e.code === "QT_ETYPE" || e instanceof TypeError, `${name} on a plain object`);
  }
  assert.equal(typeof engine.render, "function");
  assert.deepEqual(Object.keys(engine), [], "no own properties: everything is on the prototype");
  assert.equal(engine.outcome, null);
  engine.dispose();
});
