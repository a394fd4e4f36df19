// index.ts — the pi extension entry point (package.json "pi.extensions"): loads the native
// core and registers the `question` tool, the /questions and /answer commands, the --answers
// flag, the relay that brings subagents' questions to this pi, and the web page.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { loadNative } from "./native.ts";
import { createAsker } from "./ask.ts";
import { registerCommands } from "./commands.ts";
import { hostRelay } from "./relay-host.ts";
import { registerQuestionTool } from "./tool.ts";
import { hostWeb } from "./web-host.ts";

export default function piQuestion(pi: ExtensionAPI): void {
  const native = loadNative();
  const asker = createAsker(pi, native);
  registerQuestionTool(pi, native, asker);
  const web = hostWeb(pi, native, asker);
  registerCommands(pi, native, asker, web);
  hostRelay(pi, native, asker);
}
