// page.js — the script of the web page (page.html; web.ts inlines it there under the page's
// CSP nonce, so the page stays one response with no external assets). It follows the waiting
// questions (server-sent events), draws each with the state of its question flow, and posts the
// person's steps; every rule of the flow is the engine's (web.ts). Checked by tsc
// (tsconfig.page.json: the DOM's types) and formatted by Prettier like the rest.
// @ts-check
"use strict";
/**
 * One question on a card: its box and the page's fields for it (the rest are set as it is built).
 * @typedef {{ box: HTMLElement, earlier: HTMLElement | null, inputs: HTMLInputElement[], rows: HTMLElement[][], other: HTMLInputElement | null, noteSynced: string, wroteSynced: string, ticked: string, [more: string]: any }} Part
 */
/**
 * One waiting question's card: the flow's view it shows, and its parts.
 * @typedef {{ qid: string, section: HTMLElement, closed: boolean, view: any, viewJson: string, busy: boolean, chain: Promise<unknown>, filterTimer: number, touched: boolean, [more: string]: any }} Card
 */
(() => {
  const token = decodeURIComponent(location.pathname.split("/")[2] || "");
  // The strings come with the page too, so it can say it is offline before its first update.
  let S = {};
  try {
    const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="pi-strings"]'));
    const given = JSON.parse(meta ? meta.content : "");
    if (given && typeof given === "object") S = given;
  } catch {
    // none: the first update brings them
  }
  /** The largest request pi takes, in bytes (its state says; a step is checked before it is sent). */
  let bodyBytes = Infinity;
  /** qid → card */
  const cards = new Map();
  let serial = 0;
  /** One of the page's own elements (page.html has each). */
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const t = (id) => (typeof S[id] === "string" ? S[id] : "");
  /** The states in which the current question itself is shown. */
  const ASKING = new Set(["choosing", "typing", "note", "filter"]);

  /** An element with text only: model text is never parsed as markup. */
  function make(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function button(className, text, onClick) {
    const b = make("button", className, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function setStatus(text) {
    $("status").textContent = text || "";
  }

  function refreshNone() {
    const open = [...cards.values()].some((c) => !c.closed);
    $("none").hidden = open;
    $("none").textContent = t("WEB_NONE");
  }

  function closeCard(card, text, good) {
    if (card.closed) return;
    card.closed = true;
    clearTimeout(card.filterTimer);
    card.section.classList.add("closed");
    for (const e of card.section.querySelectorAll("input, button")) e.disabled = true;
    // What the person wrote stays readable and can be copied (disabled fields cannot be selected).
    for (const e of card.section.querySelectorAll("textarea")) e.readOnly = true;
    say(card, text, good);
    refreshNone();
    // Keep the last few closed cards for a while, then let them go; never one holding words
    // the person wrote (a refused step's text stays on the page).
    const wroteSomething = (c) => [...c.section.querySelectorAll("textarea")].some((e) => e.value.trim());
    for (const e of card.section.querySelectorAll("input.secret")) e.value = ""; // a secret leaves the page
    const closed = [...cards.entries()].filter(([, c]) => c.closed && !wroteSomething(c));
    for (const [qid, c] of closed.slice(0, Math.max(0, closed.length - 3))) {
      c.section.remove();
      cards.delete(qid);
    }
  }

  function say(card, text, good) {
    card.message.textContent = text || "";
    card.message.className = "message " + (good ? "good" : "bad");
  }

  /** One question of a card: its fields, and how they follow the view. The engine's state is the
   * truth for ticks, the answer, the note and the filter; a field the person is editing is left
   * alone until its text is sent. */
  function questionPart(card, q, i) {
    const n = ++serial;
    const box = make("fieldset");
    const legend = make("legend", "", q.label || q.id);
    const prompt = make("p", "prompt", q.prompt);
    // "Answered on 21 Nov: SQLite — Enter keeps it": the project remembers an answer (chosen below).
    const earlier = make("p", "earlier");
    earlier.hidden = true;
    // Skipped on purpose: what the person chose instead of an answer (the engine's reading).
    const skipped = make("p", "skipped");
    skipped.hidden = true;
    // A typed question: what its answer must be ("A whole number (1–10)"), the engine's words.
    const hint = make("p", "hint");
    hint.hidden = true;
    box.append(legend, prompt, hint, earlier, skipped);
    const options = Array.isArray(q.options) ? q.options : [];
    const multi = !!q.multiSelect;
    const type = multi ? "checkbox" : "radio";
    /** @type {Part} */
    const part = { box, earlier, skipped, hint, inputs: [], rows: [], other: null, noteSynced: "", wroteSynced: "", ticked: "" };
    if (options.length) {
      const filter = document.createElement("input");
      filter.type = "search";
      filter.className = "filter";
      filter.placeholder = t("HELP_FILTER");
      filter.setAttribute("aria-label", t("HELP_FILTER"));
      filter.autocomplete = "off";
      // Each pause in typing sends the filter; the engine says which options it lets through.
      filter.addEventListener("input", () => {
        clearTimeout(card.filterTimer);
        card.filterTimer = setTimeout(() => act(card, [["filter", filter.value]]), 200);
      });
      box.append(filter);
      part.filter = filter;
    }
    options.forEach((o, k) => {
      const row = make("label", "option");
      const input = document.createElement("input");
      input.type = type;
      input.name = "q" + n;
      input.value = String(k);
      part.inputs.push(input);
      // A tick counts at once (the engine's rule); a radio button is only the cursor until Submit.
      if (multi) input.addEventListener("change", () => act(card, [["toggle", k, input.checked]]));
      row.append(input, make("span", "label", o.label));
      if (o.description) row.append(make("span", "desc", o.description));
      box.append(row);
      const group = [row];
      if (o.preview) {
        const d = make("details");
        d.append(make("summary", "", t("WEB_PREVIEW")), make("pre", "", o.preview));
        const holder = make("div", "option");
        holder.append(make("span"), d);
        box.append(holder);
        group.push(holder);
      }
      part.rows.push(group);
    });
    part.noMatch = make("p", "no-match", t("NO_MATCHES"));
    part.noMatch.hidden = true;
    if (options.length) box.append(part.noMatch);
    // A secret question: a password field (masked, one line); the page never shows its text again.
    const wrote = q.secret ? make("input", "wrote secret") : make("textarea", "wrote");
    if (q.secret) {
      wrote.type = "password";
      wrote.autocomplete = "new-password"; // no browser offers to save it
    }
    wrote.placeholder = t("DIALOG_PLACEHOLDER");
    wrote.setAttribute("aria-label", q.otherLabel || t("SOMETHING_ELSE"));
    if (options.length) {
      const row = make("label", "option");
      const other = document.createElement("input");
      other.type = type;
      other.name = "q" + n;
      other.value = "other";
      row.append(other, make("span", "label", q.otherLabel || t("SOMETHING_ELSE")));
      box.append(row);
      part.other = other;
      wrote.hidden = true;
      const sync = () => {
        wrote.hidden = !other.checked;
        if (other.checked) wrote.focus();
      };
      for (const i of [...part.inputs, other]) i.addEventListener("change", sync);
      wrote.addEventListener("input", () => {
        if (wrote.value && !other.checked) {
          other.checked = true;
          wrote.hidden = false;
        }
      });
    } else {
      wrote.classList.remove("wrote");
    }
    box.append(wrote);
    part.wrote = wrote;
    const noteLabel = make("label", "note-label", t("WEB_NOTE"));
    const note = make("textarea", "note");
    noteLabel.append(note);
    box.append(noteLabel);
    part.note = note;

    /** Follows the view of this question. */
    part.update = (qv) => {
      const shown = new Set(Array.isArray(qv.shown) ? qv.shown : []);
      const filtering = !!qv.filter;
      qv.options.forEach((o, k) => {
        for (const e of part.rows[k] || []) e.hidden = filtering && !shown.has(k);
        if (multi && part.inputs[k]) part.inputs[k].checked = !!o.ticked;
      });
      part.noMatch.hidden = !(filtering && shown.size === 0);
      if (part.filter && document.activeElement !== part.filter && !card.filterTimer) part.filter.value = qv.filter || "";
      // Typed text and the note follow the engine unless the person has changed them since: the
      // answer given, else the draft the engine holds (another page's, or this one's before a reload).
      const given = q.secret ? "" : (qv.wrote ?? (qv.typed || "")); // a secret's view holds bullets only
      const edited = wrote.value !== part.wroteSynced;
      if (!edited) wrote.value = given;
      if (wrote.value === given) part.wroteSynced = given;
      if (note.value === part.noteSynced) note.value = qv.note;
      if (note.value === qv.note) part.noteSynced = qv.note;
      // The answer given: the radio buttons show it when it changes (until then the checked one
      // is the person's cursor); a multi-select question's typed part is ticked while it counts.
      const held = !multi && qv.wrote === null && !!qv.typed && !qv.options.some((o) => o.ticked);
      const ticked = JSON.stringify([qv.options.map((o) => o.ticked), qv.wrote, held]);
      if (!multi && ticked !== part.ticked) {
        part.ticked = ticked;
        qv.options.forEach((o, k) => {
          if (o.ticked) part.inputs[k].checked = true;
        });
        if (part.other && (qv.wrote !== null || held)) part.other.checked = true;
      }
      if (multi && part.other && !edited) part.other.checked = qv.wrote !== null;
      if (part.other) wrote.hidden = !part.other.checked;
    };
    /** The note as a step, when it differs from the engine's. */
    part.noteSteps = () => (note.value !== part.noteSynced ? [["note", note.value]] : []);
    /** What this question's fields hold that the engine does not have yet: the note, a
     * multi-select question's typed part (it counts at once, as ticks do), and an unsubmitted
     * typed answer (held, not given). Sent before the
     * person leaves the question (a tab, decline, talk first, cancel), so nothing they wrote is
     * left out unasked: the engine asks "Discard …?" where leaving would drop it. */
    part.pendingSteps = (qv) => {
      const steps = part.noteSteps();
      if (multi && part.other) {
        const want = part.other.checked ? wrote.value : "";
        if (want !== (qv.wrote ?? "")) steps.push(["type", want]);
      } else if (!multi && (!part.other || part.other.checked) && wrote.value !== part.wroteSynced && wrote.value !== (qv.typed ?? "")) {
        // A typed answer not submitted: held by the engine as the TUI's field holds it (not an
        // answer), so that leaving asks "Discard what you typed?" instead of dropping it.
        steps.push(["draft", wrote.value]);
      }
      return steps;
    };
    /** Submit on this question: the steps its fields mean (the engine decides what they do; a
     * pick naming no option is its to refuse, with its reason). */
    part.submitSteps = (qv) => {
      const steps = part.noteSteps();
      if (!options.length) return [...steps, ["type", wrote.value]];
      if (multi) return [...part.pendingSteps(qv), ["submit"]];
      if (part.other && part.other.checked) return [...steps, ["type", wrote.value]];
      const k = part.inputs.findIndex((x) => x.checked);
      return [...steps, k < 0 ? ["pick"] : ["pick", k]];
    };
    return part;
  }

  function addCard(w) {
    const section = make("section", "card");
    section.dataset.qid = w.qid;
    if (w.askedBy) section.append(make("p", "by", w.askedBy));
    /** @type {Card} */
    const card = {
      qid: w.qid,
      section,
      closed: false,
      view: null,
      viewJson: "",
      busy: false,
      chain: Promise.resolve(),
      filterTimer: 0,
      touched: false,
    };
    // The person's first keystroke or click in the card tells pi they are answering here: the
    // person's timeout stops wherever the question is shown, as at a key in pi's terminal.
    // Sent on its own, beside the card's steps: it changes nothing the card shows.
    const touch = () => {
      if (card.touched || card.closed) return;
      card.touched = true;
      const body = JSON.stringify({ qid: card.qid, step: "touch", index: null, text: null, question: null, ticked: null });
      // lost (offline a moment, refused): the next keystroke or click sends it again
      const again = () => (card.touched = false);
      fetch("/q/" + encodeURIComponent(token) + "/step", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        credentials: "omit",
        cache: "no-store",
      }).then((r) => r.ok || again(), again);
    };
    section.addEventListener("input", touch, true);
    section.addEventListener("change", touch, true);
    const questions = w.questions || [];
    // Several questions: one tab each and the review, as the TUI's tab bar.
    const tabs = make("nav", "tabs");
    card.tabs = questions.map((q, i) => button("tab", q.label || q.id, () => act(card, [...pendingSteps(card), ["go", i]])));
    card.reviewTab = button("tab", t("TAB_REVIEW"), () => act(card, [...pendingSteps(card), ["go", questions.length]]));
    tabs.append(...card.tabs, card.reviewTab);
    tabs.hidden = questions.length < 2;
    section.append(tabs);
    card.parts = questions.map((q, i) => questionPart(card, q, i));
    for (const p of card.parts) section.append(p.box);

    // The review, the engine's own question ("Discard 1 answer?"), and "talk first".
    card.review = make("div", "panel review");
    card.confirm = make("div", "panel confirm");
    card.discuss = make("div", "panel discuss");
    const discussText = make("textarea", "discussion");
    const discussLabel = make("label", "note-label", t("DISCUSS_PROMPT"));
    discussLabel.append(discussText);
    card.discussText = discussText;
    const discussButtons = make("div", "buttons");
    discussButtons.append(
      button("send", t("HELP_SEND"), () => act(card, [...pendingSteps(card), ["discuss", discussText.value]])),
      button("back", t("HELP_BACK_TO_QUESTION"), () => act(card, [["back"]])),
    );
    card.discuss.append(discussLabel, discussButtons);
    // The review's one note on the whole call (sent with Submit, as a question's note is).
    card.callNote = make("textarea", "call-note");
    card.callNoteSynced = "";
    card.callNoteLabel = make("label", "note-label", t("CALL_NOTE_PROMPT"));
    card.callNoteLabel.append(card.callNote);
    section.append(card.review, card.confirm, card.discuss);

    const buttons = make("div", "buttons");
    card.submit = button("submit", t("WEB_SUBMIT"), () => submit(card));
    card.decline = button("decline", t("DIALOG_DECLINE"), () => act(card, [...pendingSteps(card), ["decline"]]));
    // Talk first is the engine's mode (a step): every face shows the field while it is open.
    card.talk = button("talk", t("DIALOG_DISCUSS"), () =>
      act(card, [...pendingSteps(card), ["discuss"]]).then(() => {
        if (card.view && card.view.state === "discuss") discussText.focus();
      }),
    );
    card.cancel = button("cancel", t("WEB_CANCEL"), () => act(card, [...pendingSteps(card), ["cancel"]]));
    // Skipping the question shown (a call of several): the agent decides it, or the person says
    // it in the chat; then on to the next question without an answer, as an answer goes on.
    const skip = (why) => {
      const v = card.view;
      if (!v) return;
      let next = v.current + 1;
      while (next < v.questions.length && v.questions[next].answered) next++;
      act(card, [...pendingSteps(card), ["skip", why], ...(why === "none" ? [] : [["go", next]])]);
    };
    card.skip = button("skip", t("DIALOG_SKIP"), () => skip("skipped"));
    card.skipChat = button("skip", t("DIALOG_SKIP_CHAT"), () => skip("chat"));
    card.unskip = button("skip", t("DIALOG_UNSKIP"), () => skip("none"));
    buttons.append(card.submit, card.skip, card.skipChat, card.unskip, card.decline, card.talk, card.cancel);
    card.buttons = buttons;
    card.message = make("p", "message");
    card.message.setAttribute("role", "alert");
    section.append(buttons, card.message);
    cards.set(w.qid, card);
    $("list").append(section);
    card.viewJson = JSON.stringify(w.view);
    update(card, w.view);
  }

  /** The current question's note as a step, if the person changed it. */
  function pendingSteps(card) {
    const v = card.view;
    // on the review: the note on all the answers, when it differs from the engine's (kept on a
    // decline or talk first as in the TUI; a cancel asks before it goes)
    if (v && (v.state === "review" || v.state === "callNote"))
      return card.callNote.value !== card.callNoteSynced ? [["note", card.callNote.value]] : [];
    const p = v && card.parts[v.current];
    return p && ASKING.has(v.state) ? p.pendingSteps(v.questions[v.current]) : [];
  }

  function submit(card) {
    const v = card.view;
    if (!v) return;
    if (v.state === "review" || v.state === "callNote")
      return act(card, [...pendingSteps(card), ...(v.state === "callNote" ? [["back"]] : []), ["submit"]]);
    const p = card.parts[v.current];
    if (!p) return;
    act(card, p.submitSteps(v.questions[v.current]));
  }

  /** Shows the card as its flow's view says. */
  function update(card, v) {
    if (card.closed) return;
    if (!v || typeof v !== "object" || !Array.isArray(v.questions)) {
      for (const b of card.buttons.querySelectorAll("button")) b.disabled = true;
      return;
    }
    card.view = v;
    const live = new Set(Array.isArray(v.actions) ? v.actions : []);
    const discussing = v.state === "discuss"; // talk first: the engine's mode
    const asking = ASKING.has(v.state);
    card.parts.forEach((p, i) => {
      if (v.questions[i]) p.update(v.questions[i]);
      p.box.hidden = !(asking && i === v.current);
      p.earlier.textContent = i === v.current && typeof v.earlierLine === "string" ? v.earlierLine : "";
      p.earlier.hidden = !p.earlier.textContent;
      p.skipped.textContent = v.questions[i] && v.questions[i].skipped ? v.questions[i].reading : "";
      p.skipped.hidden = !p.skipped.textContent;
      p.hint.textContent = v.questions[i] && typeof v.questions[i].hint === "string" ? v.questions[i].hint : "";
      p.hint.hidden = !p.hint.textContent;
    });
    card.tabs.forEach((b, i) => {
      const q = v.questions[i];
      if (q) b.textContent = q.label + (q.skipped ? " –" : q.answered ? " ✓" : "");
      if (i === v.current) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
      b.disabled = card.busy || !live.has("go");
    });
    if (v.current >= v.questions.length) card.reviewTab.setAttribute("aria-current", "step");
    else card.reviewTab.removeAttribute("aria-current");
    card.reviewTab.disabled = card.busy || !live.has("go");

    const reviewing = v.state === "review" || v.state === "callNote";
    card.review.hidden = !reviewing;
    card.review.replaceChildren(make("h2", "", t("REVIEW_TITLE")));
    for (const q of v.questions) {
      card.review.append(make("p", "", q.label + ": " + q.reading)); // the engine's reading, as every face
      if (q.note) card.review.append(make("p", "desc", t("NOTE_PREFIX") + q.note));
    }
    // one note on the whole call: the person's field, following the engine unless edited here
    if (card.callNote.value === card.callNoteSynced) card.callNote.value = v.callNote || "";
    if (card.callNote.value === (v.callNote || "")) card.callNoteSynced = v.callNote || "";
    card.callNoteLabel.hidden = !reviewing || !live.has("note");
    card.review.append(card.callNoteLabel);

    const confirming = v.state === "confirm" && v.confirm;
    card.confirm.hidden = !confirming;
    if (confirming) {
      const list = make("ul");
      for (const it of v.confirm.items || []) list.append(make("li", "", it.label ? it.label + ": " + it.text : it.text));
      const yesNo = make("div", "buttons");
      yesNo.append(
        button("yes", t("HELP_YES"), () => act(card, [["yes"]])),
        button("no", t("HELP_NO"), () => act(card, [["no"]])),
      );
      for (const b of yesNo.children) b.disabled = card.busy;
      card.confirm.replaceChildren(make("p", "", v.confirm.title), ...(list.children.length ? [list] : []), yesNo);
    }

    card.discuss.hidden = !discussing;
    if (v.state === "discuss" && !card.discussText.value) card.discussText.value = v.discussion || "";
    for (const b of card.discuss.querySelectorAll("button")) b.disabled = card.busy;

    card.buttons.hidden = confirming || discussing;
    card.submit.disabled = card.busy;
    card.decline.disabled = card.busy || !live.has("decline");
    card.talk.disabled = card.busy || !live.has("discuss");
    card.talk.hidden = !live.has("discuss");
    card.cancel.disabled = card.busy || !live.has("cancel");
    const was = live.has("skip") && v.questions[v.current] ? v.questions[v.current].skipped || "none" : "";
    for (const [b, why] of [
      [card.skip, "skipped"],
      [card.skipChat, "chat"],
      [card.unskip, "none"],
    ]) {
      b.hidden = !was || was === why;
      b.disabled = card.busy || !was;
    }
    if (v.message) say(card, v.message, false);
  }

  function setBusy(card, busy) {
    card.busy = busy;
    if (!card.closed) update(card, card.view);
  }

  /** Applies steps in order (one card's steps never overtake each other); stops at the first
   * that is refused or not sent. */
  function act(card, steps) {
    card.chain = card.chain.then(async () => {
      for (const s of steps) {
        if (card.closed || !(await post(card, s))) return;
      }
    });
    return card.chain;
  }

  /** One step to pi. Whatever happens to it, the fields keep what the person wrote: nothing
   * here ever clears them, and a refusal only adds a message. */
  async function post(card, [step, arg, ticked]) {
    if (step === "filter") card.filterTimer = 0;
    // The token goes in the path, where pi checks it before it reads the body.
    const shown = card.view && Number.isInteger(card.view.current) ? card.view.current : null;
    const payload = JSON.stringify({
      qid: card.qid,
      step,
      index: typeof arg === "number" ? arg : null,
      text: typeof arg === "string" ? arg : null,
      question: shown,
      ticked: typeof ticked === "boolean" ? ticked : null,
    });
    if (new TextEncoder().encode(payload).length > bodyBytes) {
      say(card, t("WEB_TOO_LARGE").replace("{n}", String(bodyBytes)), false);
      return false;
    }
    setBusy(card, true);
    let response,
      body = {};
    try {
      response = await fetch("/q/" + encodeURIComponent(token) + "/step", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: payload,
        credentials: "omit",
        cache: "no-store",
      });
      body = await response.json().catch(() => ({}));
    } catch {
      setBusy(card, false);
      say(card, t("WEB_NOT_SENT"), false);
      return false;
    }
    setBusy(card, false);
    // The live update that the question closed may come before this reply: the reply says
    // whose answer was taken, so it has the last word on this card.
    if (response.ok && body.done) {
      if (card.closed) say(card, t("ELSEWHERE_TAKEN"), true);
      else closeCard(card, t("ELSEWHERE_TAKEN"), true);
      return false;
    }
    if (response.ok) {
      say(card, "", false);
      card.viewJson = JSON.stringify(body.view);
      update(card, body.view);
      return true;
    }
    if (response.status === 409 && body.code === "moved" && body.view) {
      // The flow moved to another question (another page): show it; the fields keep their text.
      card.viewJson = JSON.stringify(body.view);
      update(card, body.view);
      return false;
    }
    if (response.status === 409) {
      closeCard(card, typeof body.reason === "string" ? body.reason : t("ELSEWHERE_NOT_WAITING"), false);
      return false;
    }
    say(card, typeof body.reason === "string" ? body.reason : String(response.status), false);
    return false;
  }

  function apply(state) {
    if (state.strings && typeof state.strings === "object") S = state.strings;
    if (Number.isFinite(state.bodyBytes) && state.bodyBytes > 0) bodyBytes = state.bodyBytes;
    document.documentElement.lang = state.language || "en";
    // Which pi asks: its project in the heading and the tab's title, its path and session below.
    const pi = state.pi && typeof state.pi === "object" ? state.pi : null;
    const heading = (t("WEB_TITLE") || "pi") + (pi && pi.project ? " — " + pi.project : "");
    document.title = heading;
    $("title").textContent = heading;
    $("where").textContent = pi
      ? [pi.path, pi.session ? (t("WEB_SESSION") || "{s}").replace("{s}", pi.session) : ""].filter(Boolean).join(" · ")
      : "";
    const open = new Set();
    for (const w of state.questions || []) {
      open.add(w.qid);
      const card = cards.get(w.qid);
      if (!card) addCard(w);
      else if (!card.closed && !card.busy) {
        // Another page (or this one) moved the flow on: every page shows the one state.
        const json = JSON.stringify(w.view);
        if (json !== card.viewJson) {
          card.viewJson = json;
          update(card, w.view);
        }
      }
    }
    for (const [qid, card] of cards) if (!open.has(qid) && !card.closed) closeCard(card, t("WEB_CLOSED"), false);
    refreshNone();
  }

  // The live updates. Whenever the stream is lost or refused, the page says it is offline and
  // follows again after a growing pause (1 s, doubling, at most 30 s), at once when the person
  // comes back to it. Pushed out by a newer page (pi follows only so many), it waits 30 s, or
  // until it is looked at again. Every update is the whole state, so nothing is missed meanwhile.
  let events = null;
  let timer = 0;
  let pause = 1000;
  let off = false;
  function follow() {
    clearTimeout(timer);
    timer = 0;
    if (off || events) return;
    const source = new EventSource("/q/" + encodeURIComponent(token) + "/events");
    events = source;
    source.onmessage = (e) => {
      pause = 1000;
      setStatus("");
      try {
        apply(JSON.parse(e.data));
      } catch {
        // a malformed update changes nothing
      }
    };
    source.addEventListener("off", () => {
      off = true;
      lost();
      setStatus(t("WEB_OFF"));
      for (const card of cards.values()) closeCard(card, t("WEB_OFF"), false);
    });
    source.addEventListener("displaced", () => {
      lost(30000);
      setStatus(t("WEB_DISPLACED"));
    });
    source.onerror = () => lost();
  }
  function lost(wait) {
    if (events) events.close();
    events = null;
    if (off) return;
    setStatus(t("WEB_OFFLINE"));
    clearTimeout(timer);
    timer = setTimeout(follow, wait || pause);
    if (!wait) pause = Math.min(pause * 2, 30000);
  }
  const again = () => {
    if (!events && !off && document.visibilityState !== "hidden") follow();
  };
  document.addEventListener("visibilitychange", again);
  window.addEventListener("focus", again);
  window.addEventListener("online", again);
  $("title").textContent = document.title = t("WEB_TITLE") || "pi";
  follow();
})();
