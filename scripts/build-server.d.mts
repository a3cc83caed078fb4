// Types of scripts/build-server.mjs for the TypeScript that imports it (tests, benchmarks).
export declare const serverBuild: {
  entry: string;
  outfile: string;
  threadEntry: string;
  cliEntry: string;
  clifile: string;
  sources: string[];
};
export declare function newest(p: string): number;
export declare function serverBuildIsFresh(): boolean;
export declare function buildServer(): Promise<void>;
export declare function ensureServerBuild(): Promise<void>;
