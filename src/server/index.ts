// Starts the server: reads the settings (the environment and its files), opens the store, listens, and shuts down cleanly on a signal.
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createMessaging } from './consent/create-messaging.js';
import { configuredWebhooks, createFeedbackParts, tagHeadersFor } from './bounces/reports-setup.js';
import { createBroadcastControl } from './broadcast/broadcast-control.js';
import { createSignInMailer } from './owner/sign-in-mailer.js';
import { openDatabase } from './db/open-database.js';
import { holdDatabaseInUse } from './db/database-in-use.js';
import { checkSecretKey, SecretKeyMismatchError } from './messaging/secret-key-check.js';
import { loadSettingsFiles } from './settings-files.js';

/**
 * How long a stop waits for connections to finish. Requests in flight take milliseconds; past this,
 * a connection is one that will not end by itself (a client holding a half-sent request, or a
 * keep-alive socket that turned busy just as the server closed), and it is cut.
 */
const SHUTDOWN_GRACE_MS = 5000;

async function main(): Promise<void> {
  // The environment, over .env, over SETTINGS_FILE: as every owner command reads them.
  loadSettingsFiles();
  const config = loadConfig();
  const store = await openDatabase(config.database, { confirmSignups: config.messaging.emailConfirmation });
  // The key and the data belong together: another SECRET_KEY would forget every "no" (decision 041).
  try {
    await checkSecretKey(store.secretKeys, config.messaging);
  } catch (error) {
    await store.close();
    throw error;
  }
  // A restore refuses while this is held (SQLite: the open connections are the lock).
  const releaseInUse = await holdDatabaseInUse(config.database);
  const redis = config.rateLimit.redisUrl ? connectRedis(config.rateLimit.redisUrl) : undefined;
  const webhooks = configuredWebhooks(config.messaging);
  const messaging = createMessaging(config.messaging, store, config.siteUrl, { tagHeaders: tagHeadersFor(webhooks) });
  const feedback = createFeedbackParts(config.messaging, store, messaging.subscriptions);
  const { email, secretKey } = config.messaging;
  const app = await createApp({
    config,
    db: store,
    redis,
    messaging,
    feedback,
    owner: {
      ...(email ? { mailer: createSignInMailer(email, config.siteUrl) } : {}),
      // Launch day from the dashboard needs SECRET_KEY, as the broadcast command does.
      ...(secretKey
        ? {
            broadcastControl: (logger) => createBroadcastControl(config, store, logger),
          }
        : {}),
    },
  });
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
  if (config.siteUrlIsDefault) {
    app.log.warn(
      `SITE_URL is not set, so the canonical link, the share tags and the sitemap name ${config.siteUrl}: set it to the address visitors use`,
    );
  }
}

/** Fails fast while Redis is away (limits are then skipped), and reconnects by itself. */
function connectRedis(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof SecretKeyMismatchError) {
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
