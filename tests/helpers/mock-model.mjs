// mock-model.mjs — a scripted model: an OpenAI chat-completions server on 127.0.0.1 that
// streams the replies it is given, one per request, and records every request it receives
// (the last message of the request after a tool call is exactly what the model would read).
import { createServer } from "node:http";

/** reply: { text } | { toolCalls: [{ name, arguments (object or raw string) }] }. `replies` is a
 * list served in order, or a function (request body, index) => reply, for several pi processes
 * (a parent and its subagents) talking to one model at once. */
export async function startMockModel(replies) {
  const requests = [];
  const waiters = [];
  let served = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body);
      requests.push(parsed);
      for (const w of waiters.splice(0)) w();
      const reply = (typeof replies === "function" ? replies(parsed, served) : replies[Math.min(served, replies.length - 1)]) ?? {
        text: "done",
      };
      served++;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta, finish = null) =>
        res.write(
          `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "mock-1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      if (reply.toolCalls) {
        chunk({ role: "assistant", content: "" });
        reply.toolCalls.forEach((call, index) =>
          chunk({
            tool_calls: [
              {
                index,
                id: call.id ?? `call_${served}_${index}`,
                type: "function",
                function: {
                  name: call.name,
                  arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
                },
              },
            ],
          }),
        );
        chunk({}, "tool_calls");
      } else {
        chunk({ role: "assistant", content: reply.text ?? "done" });
        chunk({}, "stop");
      }
      res.write(
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "mock-1", choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`,
      );
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    port,
    requests,
    /** Resolves once `n` requests have arrived. */
    async waitForRequests(n, timeoutMs = 60000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < n) {
        if (Date.now() > until) throw new Error(`mock model: ${requests.length} of ${n} requests arrived`);
        await new Promise((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    /** The tool messages of request i (what the model read after its tool calls). */
    toolMessages(i) {
      return (requests[i]?.messages ?? []).filter((m) => m.role === "tool");
    },
    /** Stops the server, ending the connections of any pi still holding one. */
    close: () =>
      new Promise((r) => {
        server.close(r);
        server.closeAllConnections();
      }),
  };
}
