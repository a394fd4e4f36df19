// cold-load-cpuprofile.mjs — CPU profile of only the timed part of cold-load.mjs (importing an
// extension with jiti as pi does and calling its factory), written to the path given.
//   node bench/profile/cold-load-cpuprofile.mjs ours|example out.cpuprofile
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { EXAMPLE_EXTENSION, OUR_EXTENSION, fakePi, importExtension } from "../harness.mjs";

const which = process.argv[2] === "example" ? "example" : "ours";
await import("jiti/static");
await import("@mariozechner/pi-tui");
await import("typebox");
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 25 });
await session.post("Profiler.start");
const t0 = process.hrtime.bigint();
const factory = await importExtension(which === "ours" ? OUR_EXTENSION : EXAMPLE_EXTENSION);
factory(fakePi().pi);
const t1 = process.hrtime.bigint();
const { profile } = await session.post("Profiler.stop");
writeFileSync(process.argv[3] ?? `${which}.cpuprofile`, JSON.stringify(profile));
console.log(`${which}: ${(Number(t1 - t0) / 1e6).toFixed(2)} ms`);
