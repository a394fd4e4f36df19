// own-home.mjs — imported first by a test file that answers questions through the tool without a
// HOME of its own: a temporary HOME for the whole process (removed at exit), so the person's
// remembered answers (~/.pi/agent/question-answers) and settings of whoever runs the tests are
// never read or written. The caches under ~/.cache (scripts/current-pi.mjs) stay where they were.
import { mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

process.env.XDG_CACHE_HOME ||= join(homedir(), ".cache");
export const OWN_HOME = mkdtempSync(join(tmpdir(), "pq-test-home-"));
process.env.HOME = OWN_HOME;
process.on("exit", () => rmSync(OWN_HOME, { recursive: true, force: true }));
