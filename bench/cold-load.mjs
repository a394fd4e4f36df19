// cold-load.mjs — run in a fresh process by run.mjs: the time pi takes to load one extension.
// What pi has already loaded before it loads any extension (jiti, pi-tui, typebox) is loaded
// first and not counted; then the extension is imported with jiti as pi's loader does and its
// factory is called (ours loads the native addon there). Prints one line of JSON: wall-clock
// times and the CPU time of the same span (ms); on a busy machine the CPU time is the steadier.
//   node bench/cold-load.mjs ours|example [fsCacheDir|off]
import { pathToFileURL } from "node:url";
import { fakePi, importExtension, importPi, piAliases, EXAMPLE_EXTENSION, OUR_EXTENSION } from "./harness.mjs";

const which = process.argv[2] === "example" ? "example" : "ours";
const cacheArg = process.argv[3];
const fsCache = cacheArg === undefined ? undefined : cacheArg === "off" ? false : cacheArg;

await import("jiti/static");
await importPi("pi-tui");
await import(pathToFileURL(piAliases().typebox).href);

const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const factory = await importExtension(which === "ours" ? OUR_EXTENSION : EXAMPLE_EXTENSION, { fsCache });
const t1 = process.hrtime.bigint();
const { pi, registered } = fakePi();
factory(pi);
const t2 = process.hrtime.bigint();
const cpu = process.cpuUsage(c0);
if (!registered.tools.size) throw new Error("the factory registered no tool");
const ms = (a, b) => Number(b - a) / 1e6;
process.stdout.write(
  `${JSON.stringify({ importMs: ms(t0, t1), factoryMs: ms(t1, t2), totalMs: ms(t0, t2), cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
