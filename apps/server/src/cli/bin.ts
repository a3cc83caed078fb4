import { runCli } from './main.js';

/** `bathylog …`: runs one command and exits with its code (0 ok, 1 failed, 2 bad usage). */
process.exitCode = await runCli(process.argv.slice(2));
