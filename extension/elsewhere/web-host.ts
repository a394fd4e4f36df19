// web-host.ts — when the web page runs (web.ts has the server): turned on at session start by
// the setting `"web": { "enabled": true }`, toggled by `/questions web` (index.ts routes both
// here, loading this module at first use), stopped when the session ends or pi exits. Turning it on shows the one URL and its QR code (qr.ts) in pi.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { addon } from "../addon.ts";
import { fill, strings } from "../text/i18n.ts";
import { encodeQr, qrToHalfBlocks } from "./qr.ts";
import { screenOf } from "../text/screen.ts";
import { resolveLanguage, type Settings } from "../text/settings.ts";
import type { Board } from "../board/board.ts";
import { whereOf } from "./session.ts";
import { startWebServer, type WebServer } from "./web.ts";

export interface WebControl {
  /** The page's URL while it runs. */
  readonly url: string | undefined;
  /** Turns the page on (true), off (false) or over (undefined), and says so on the screen. */
  toggle(ctx: ExtensionContext, on?: boolean): Promise<void>;
  /** A session started with the setting on: start the page unless it runs. */
  sessionStart(ctx: ExtensionContext): Promise<void>;
  /** The session ends: stop the page. */
  stop(): void;
}

/** The lines announcing the page: the sentence with the URL, then its QR code — or, when pi's
 * terminal is known to be too narrow for it (a wrapped QR code scans as nothing), a sentence
 * saying how wide it must be. pi shows a notice one column in from each side. */
export function announcement(url: string, { columns, language }: { columns?: number; language?: string } = {}): string {
  const t = strings(language);
  let qr: string[] = [];
  try {
    qr = qrToHalfBlocks(encodeQr(url, "M"));
  } catch {
    // a URL too long for a QR code (a very long host name): the link alone
  }
  const need = qr.length ? [...qr[0]].length + 2 : 0;
  const fits = !columns || !Number.isFinite(columns) || need <= columns;
  const below = !qr.length ? [] : fits ? ["", ...qr] : ["", fill(t.WEB_QR_NARROW, { n: need })];
  return [fill(t.WEB_STARTED, { s: url }), ...below].join("\n");
}

/** The columns of pi's terminal when it draws a TUI there, else undefined (RPC, print). */
function tuiColumns(ctx: ExtensionContext): number | undefined {
  return ctx.hasUI && process.stdout.isTTY ? process.stdout.columns : undefined;
}

/** What the page needs of the asker (ask.ts Asker; this folder never imports ask/, which sits
 * above it). */
export interface WebAsker {
  readonly board: Board;
  settings(ctx: ExtensionContext): Settings;
  /** The page's link while it is on (set here; notice.command passes it on). */
  pageUrl?: () => string | undefined;
}

export function hostWeb(pi: ExtensionAPI, asker: WebAsker): WebControl {
  let server: WebServer | undefined;
  asker.pageUrl = () => server?.url;
  let starting: Promise<void> | undefined;
  let current: ExtensionContext | undefined;

  const language = () => (current ? resolveLanguage(asker.settings(current).language) : "en");

  const stop = () => {
    server?.close();
    server = undefined;
  };

  /** Never throws: whatever stops the page from starting is said on the screen. */
  const start = async (ctx: ExtensionContext) => {
    const screen = screenOf(ctx, process.stdout);
    try {
      const host = asker.settings(ctx).web.host;
      server = await startWebServer({
        board: asker.board,
        host,
        language,
        where: () => whereOf(pi, current ?? ctx),
      });
      screen.notify(announcement(server.url, { columns: tuiColumns(ctx), language: language() }), "info");
    } catch (error) {
      screen.notify(fill(strings(language()).WEB_FAILED, { s: (error as Error).message }), "error");
    }
  };

  const control: WebControl = {
    get url() {
      return server?.url;
    },
    async toggle(ctx, on) {
      current = ctx;
      await starting;
      const want = on ?? !server;
      if (want && !server) {
        starting = start(ctx);
        await starting;
        starting = undefined;
      } else if (!want && server) {
        stop();
        screenOf(ctx, process.stdout).notify(strings(language()).WEB_STOPPED, "info");
      } else if (want && server) {
        screenOf(ctx, process.stdout).notify(announcement(server.url, { columns: tuiColumns(ctx), language: language() }), "info");
      }
    },
    async sessionStart(ctx) {
      current = ctx;
      if (!server) await control.toggle(ctx, true);
    },
    stop,
  };

  return control;
}
