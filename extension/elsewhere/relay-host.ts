// relay-host.ts — the endpoint side of the relay (relay.ts has the protocol): when this pi can
// ask a person — pi's TUI, RPC dialogs, or print mode on its own terminal — it offers the
// endpoint to its child processes and asks what arrives there in its one-at-a-time queue,
// exactly as it asks its own questions. A pi that cannot ask keeps the variable it inherited,
// so its children's questions go further up. The endpoint is also registered for other
// terminals (`pi-question pending` / `answer`) with its control secret: they list the waiting
// questions and answer one through the board (board.ts), exactly once, whoever is first.
// Children get only the secret that asks. An answer from a process this pi or another pi started
// (the agent's own `pi-question answer`) is refused; one from a process the OS does not let pi
// check is taken as "unverified", never as the person's (peer.ts, docs/elsewhere.md).
//
// Registered in index.ts; this module (and the relay's own) is loaded when a session starts.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Socket } from "node:net";
import { addon } from "../addon.ts";
import { type ArgsJson, terminalReachable } from "../addon-types.ts";
import type { Board } from "../board/board.ts";
import type { QuestionResult } from "../board/result.ts";
import type { Settings } from "../text/settings.ts";
import {
  isOwnRelay,
  parseRelayVariable,
  passAskerNames,
  RELAY_ENV,
  type RelayAnswer,
  type RelayRequest,
  type RelayServer,
  relayBounds,
  startRelayServer,
  structuredAnswers,
} from "./relay.ts";
import { listEndpoints, registerEndpoint } from "./relay-wire.mjs";
import { callerOf, peerOf, processTree, type Standing, standingOf } from "./peer.ts";
import type { NormalizedQuestion, RelayAsker } from "../question-types.ts";
import { sessionOf } from "./session.ts";
import type { SubagentOutcomes } from "./subagent-outcome.ts";

export interface RelayHost {
  /** session_start: offers the endpoint when this pi can ask a person. */
  start(ctx: ExtensionContext): Promise<void>;
  /** session_shutdown: withdraws it. */
  stop(): void;
}

/** What the relay needs of the asker (ask.ts Asker; this folder never imports ask/, which sits
 * above it). */
export interface RelayAskerHost {
  readonly board: Board;
  settings(ctx: ExtensionContext): Settings;
  checkLimits(questions: NormalizedQuestion[], settings: Settings): void;
  ask(
    json: ArgsJson,
    questions: NormalizedQuestion[],
    ctx: ExtensionContext,
    signal: AbortSignal | undefined,
    from?: RelayAsker,
  ): Promise<QuestionResult>;
}

export function relayHost(pi: ExtensionAPI, getAsker: () => Promise<RelayAskerHost>, outcomes: () => Promise<SubagentOutcomes>): RelayHost {
  let asker: RelayAskerHost;
  let server: RelayServer | undefined;
  let unregister: (() => void) | undefined;
  let inherited: string | undefined;
  let ctx: ExtensionContext | undefined;

  /** One relayed question: re-validated here (the child is untrusted), then asked in the queue. */
  const handle = async ({ args, asker: from, signal }: RelayRequest): Promise<RelayAnswer> => {
    const current = ctx;
    if (!current) return { type: "unavailable" };
    let canonical: string;
    try {
      canonical = addon().normalize({ prepared: args });
    } catch (error) {
      return { type: "error", message: (error as Error).message };
    }
    const questions = (JSON.parse(canonical) as { questions: NormalizedQuestion[] }).questions;
    try {
      // The person's own limits (settings) too, exactly as for this pi's own calls.
      asker.checkLimits(questions, asker.settings(current));
    } catch (error) {
      return { type: "error", message: (error as Error).message };
    }
    const result = await asker.ask({ prepared: canonical }, questions, current, signal, from);
    const d = result.details;
    // Esc on a subagent's question stops this pi's turn too, as on its own (unless the person's
    // settings say Esc lets the agent continue); the model is told which question it was.
    if (d.status === "cancelled" && result.terminate) await (await outcomes()).cancelledBelow(ctx ?? current, questions, from);
    if (d.status === "unavailable") return { type: "unavailable" };
    if (d.status === "timed_out") {
      // The person's timeout ran out here: the child is told what it applied ("then") and only the
      // answers the person gave; its own result builder applies the recommended options again,
      // marked as applied by the timeout (never as the person's choice).
      const given = { ...d, answers: d.answers.filter((a) => !a.appliedByTimeout) };
      return { type: "answer", outcome: d.status, answers: structuredAnswers(given), timeout: d.timeout ?? "cancel" };
    }
    const answer: RelayAnswer = { type: "answer", outcome: d.status, answers: d.status === "cancelled" ? null : structuredAnswers(d) };
    if (d.status === "discuss") answer.discussion = d.discussion ?? ""; // what the person wrote goes down to the child
    return answer;
  };

  /** Which session this is, for `pi-question pending`. */
  const sessionNow = () => sessionOf(pi, ctx);

  const handlers = {
    ask: handle,
    list: () => ({
      type: "pending",
      cwd: ctx?.cwd ?? process.cwd(),
      pid: process.pid,
      session: sessionNow(),
      questions: [...asker.board.waiting.values()].map((w) => ({
        qid: w.qid,
        askedAt: w.askedAt,
        ...(w.askedBy ? { askedBy: w.askedBy } : {}),
        args: w.args,
      })),
      ended: [...asker.board.ended.values()],
    }),
    caller: (socket: Socket) => {
      const peer = peerOf(socket);
      const tree = peer.pid === null || peer.pid === process.pid ? undefined : processTree();
      return tree ? callerOf(peer, tree) : undefined;
    },
    standing: (socket: Socket): Standing => {
      const others = new Set<number>();
      try {
        for (const e of listEndpoints()) if (e.pid !== process.pid) others.add(e.pid);
      } catch {
        // no registry to read: this pi's own children are still told apart
      }
      const peer = peerOf(socket);
      const tree = peer.pid !== null && peer.pid !== process.pid ? processTree() : undefined;
      // a pid without a way to read its parents tells nothing: the answer is unverified
      const known = tree || peer.pid === process.pid ? peer : { ...peer, pid: null };
      return standingOf(known, { pid: process.pid, uid: process.getuid?.() ?? null }, others, tree);
    },
    answer: (qid: string, outcome: string, answers: unknown, discussion: unknown, standing: Standing) => {
      let json: string | null = null;
      if (answers !== null && answers !== undefined) {
        try {
          json = JSON.stringify(answers); // throws on answers nested too deep for the stack
        } catch (error) {
          return { ok: false as const, code: "invalid", reason: `the answers cannot be read: ${(error as Error).message}` };
        }
      }
      if (standing.kind === "refused") return { ok: false as const, code: "refused", reason: standing.reason };
      const unverified = standing.kind === "unverified";
      return asker.board.answer(
        qid,
        outcome,
        json,
        unverified ? "unverified" : "remote",
        discussion,
        undefined,
        unverified ? standing.why : undefined,
      );
    },
    watch: (qid: string, closed: () => void) => asker.board.watch(qid, closed),
  };

  const stop = () => {
    unregister?.();
    unregister = undefined;
    if (!server) return;
    if (process.env[RELAY_ENV] === server.variable) {
      if (inherited === undefined) delete process.env[RELAY_ENV];
      else process.env[RELAY_ENV] = inherited;
    }
    server.close();
    server = undefined;
  };

  const start = async (eventCtx: ExtensionContext) => {
    ctx = eventCtx;
    if (!server) await offer(eventCtx);
    // This pi's children are named from here when it asks the person itself, else below its own
    // name ("worker › helper"); the name its launcher gave it is never theirs.
    passAskerNames(server !== undefined);
  };

  const offer = async (eventCtx: ExtensionContext) => {
    const variable = process.env[RELAY_ENV];
    // Can this pi ask a person? Its UI, or (print mode, not itself a subagent) its terminal.
    const above = parseRelayVariable(variable) && !isOwnRelay(variable);
    const canAsk = eventCtx.hasUI || (!above && terminalReachable(addon()));
    if (!canAsk) return;
    asker = await getAsker();
    if (server) return; // another session_start got here first
    server = await startRelayServer(relayBounds(addon().limits), handlers);
    if (!server) return;
    inherited = isOwnRelay(variable) ? undefined : variable;
    process.env[RELAY_ENV] = server.variable;
    // The registry gets the control secret (list, answer, watch); children only the ask secret.
    unregister = registerEndpoint({ variable: server.control, pid: process.pid, cwd: eventCtx.cwd, startedAt: Date.now() });
  };

  return { start, stop };
}
