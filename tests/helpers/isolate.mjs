// isolate.mjs — imported for its effect by every helper that loads the extension or starts pi:
// the tests must never reach a real pi around them. A developer running `npm test` from pi's
// own shell inherits its question relay; without this, a test's question would pop up there.
delete process.env.PI_QUESTION_RELAY;
delete process.env.PI_QUESTION_ASKER;
delete process.env.PI_QUESTION_ASKER_CHAIN;
