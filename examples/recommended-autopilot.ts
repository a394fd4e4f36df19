// recommended-autopilot.ts — an example of answering pi-question's questions from another
// extension through pi's event bus: when every question of a call has an option the agent marked
// "(Recommended)", it answers with those; otherwise it leaves the question to you. Load it next
// to pi-question: `pi -e ./examples/recommended-autopilot.ts`. The agent is told the answer came
// from an extension calling itself "autopilot", not from you, and it is never remembered as yours.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

type Asked = { id: string; questions: Array<{ id: string; multiSelect?: boolean; options?: Array<{ value: string; label: string }> }> };

export default function (pi: ExtensionAPI) {
  pi.events.on("question:asked", (data) => {
    const { id, questions } = data as Asked;
    const answers: Record<string, string | string[]> = {};
    for (const q of questions) {
      const pick = q.options?.find((o) => o.label.endsWith("(Recommended)"));
      if (!pick) return; // one without a recommendation: the person answers
      answers[q.id] = q.multiSelect ? [pick.value] : pick.value;
    }
    pi.events.emit("question:answer", { id, answers, source: "autopilot" }); // refused: "question:refused" says why
  });
}
