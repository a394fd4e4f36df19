import { fakePi, importExtension, OUR_EXTENSION } from "./harness.mjs";
await import("jiti/static");
await import("@mariozechner/pi-tui");
await import("typebox");
const factory = await importExtension(OUR_EXTENSION, {});
const addonMod = await importExtension(OUR_EXTENSION.replace("index.ts", "addon.ts"), {}).catch((e) => null);
