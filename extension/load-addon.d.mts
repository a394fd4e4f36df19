// load-addon.d.mts — types of load-addon.mjs for the TypeScript side.
export declare const packageRoot: string;
export declare const addonCandidates: string[];
export declare function loadAddon(): unknown;
