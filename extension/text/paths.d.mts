// paths.d.mts — the types of paths.mjs.
export declare function shortDirectory(dir: string, home?: string, platform?: NodeJS.Platform): string;
