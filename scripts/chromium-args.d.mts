// Types of scripts/chromium-args.mjs for the TypeScript that imports it (browser tests, benchmarks).
export declare const chromiumPath: string;
export declare const chromiumArgs: string[];
