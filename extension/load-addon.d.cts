// load-addon.d.cts — types of load-addon.cjs for the TypeScript side.
export declare const packageRoot: string;
export declare const addonCandidates: string[];
export declare function loadAddon(say?: (text: string) => void): unknown;
