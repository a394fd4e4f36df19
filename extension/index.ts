// index.ts — the pi extension entry point (package.json "pi.extensions"): loads the native
// core and registers the `question` tool, the /questions command and the --answers flag.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { loadNative } from "./native.ts";
import { registerCommands } from "./commands.ts";
import { registerQuestionTool } from "./tool.ts";

export default function piQuestion(pi: ExtensionAPI): void {
  const native = loadNative();
  const { history } = registerQuestionTool(pi, native);
  registerCommands(pi, native, history);
}
