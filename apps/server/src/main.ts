import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

/** Starts the server: config, database, seeding, listen, graceful shutdown. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const { app, ctx } = await buildApp({ config });
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(`Bathylog (${config.mode}, ${ctx.database.dialect}) listening on ${address}; data in ${config.dataDir}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
