// Starts the server: reads the settings (the environment and its files), composes the product
// (compose.ts), listens, and shuts down cleanly on a signal.
import { createApp } from './app.js';
import { composeServer } from './compose.js';
import { ConfigError, loadConfig } from './config.js';
import { SecretKeyMismatchError } from './messaging/secret-key-check.js';
import { loadSettingsFiles } from './settings-files.js';
import { UnconfirmedStatisticsError } from './site-facts.js';
import { unknownSettingWords } from './unknown-settings.js';

/**
 * How long a stop waits for connections to finish. Requests in flight take milliseconds; past this,
 * a connection is one that will not end by itself (a client holding a half-sent request, or a
 * keep-alive socket that turned busy just as the server closed), and it is cut.
 */
const SHUTDOWN_GRACE_MS = 5000;

async function main(): Promise<void> {
  // The environment, over .env, over SETTINGS_FILE: as every owner command reads them.
  const inFiles = new Set<string>();
  loadSettingsFiles(process.env, process.cwd(), inFiles);
  const config = loadConfig(process.env, process.cwd(), inFiles);
  // Every part, built once (compose.ts): the database, messaging, feedback, the owner's parts.
  const product = await composeServer(config);
  const { redis, releaseInUse } = product;
  const app = await createApp(product);
  redis?.on('error', (error: Error) =>
    app.log.warn({ err: error.message }, 'Redis unreachable: rate limits are not shared'),
  );

  app.addHook('onClose', async () => {
    await releaseInUse();
  });

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down: finishing requests in flight');
      setTimeout(() => {
        app.log.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'shutting down: closing connections that did not finish');
        app.server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS).unref();
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
  const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
  app.log.info(`ScamSavvy is running at http://${shownHost}:${config.port} (sign-ups in ${where})`);
  for (const unknown of config.unknownSettings ?? []) app.log.warn(unknownSettingWords(unknown));
  if (config.siteUrlIsDefault) {
    app.log.warn(
      `SITE_URL is not set, so the canonical link, the share tags and the sitemap name ${config.siteUrl}: set it to the address visitors use`,
    );
  }
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof SecretKeyMismatchError ||
    error instanceof UnconfirmedStatisticsError
  ) {
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
