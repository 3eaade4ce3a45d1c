// Starts the server: reads the environment, opens the store, listens, and shuts down cleanly on a signal.
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createSignupStore } from './storage/create-signup-store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const store = createSignupStore(config.database);
  const app = await createApp({ config, store });

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down: finishing requests in flight');
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  app.log.info(`ScamSavvy is running at http://${shownHost}:${config.port} (sign-ups in ${config.database.file})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    process.stderr.write(
      `Could not start: the port is already in use. Stop the other server, or set PORT to another port.\n`,
    );
  } else {
    process.stderr.write(`Could not start the server: ${(error as Error).stack ?? String(error)}\n`);
  }
  process.exit(1);
});
