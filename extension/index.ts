// index.ts — the pi extension entry point (package.json "pi.extensions"): loads the native
// core and registers the `question` tool.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { loadNative } from "./native.ts";
import { registerQuestionTool } from "./tool.ts";

export default function piQuestion(pi: ExtensionAPI): void {
  registerQuestionTool(pi, loadNative());
}
