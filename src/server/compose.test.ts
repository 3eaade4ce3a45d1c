// The composition root builds every part once in a server process: the server's app over the
// product, its dashboard's launch-day control, its webhooks and its bounce mailbox all use the same
// subscriptions, link signer, message tokens and log. Each builder is counted where it is defined.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from './app.js';
import { compose } from './compose.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/open-database.js';
import { tempDatabaseFile } from './test/temp-database.js';

const built = vi.hoisted(() => new Map<string, number>());
const count = (name: string) => built.set(name, (built.get(name) ?? 0) + 1);

vi.mock('./messaging/message-tokens.js', async (original) => {
  const module = await original<typeof import('./messaging/message-tokens.js')>();
  return {
    ...module,
    createMessageTokens: (...args: Parameters<typeof module.createMessageTokens>) => {
      count('message tokens');
      return module.createMessageTokens(...args);
    },
  };
});
vi.mock('./messaging/link-tokens.js', async (original) => {
  const module = await original<typeof import('./messaging/link-tokens.js')>();
  return {
    ...module,
    createLinkSigner: (...args: Parameters<typeof module.createLinkSigner>) => {
      count('link signer');
      return module.createLinkSigner(...args);
    },
    createAddressHasher: (...args: Parameters<typeof module.createAddressHasher>) => {
      count('address hasher');
      return module.createAddressHasher(...args);
    },
  };
});
vi.mock('./messaging/transports.js', async (original) => {
  const module = await original<typeof import('./messaging/transports.js')>();
  return {
    ...module,
    createTransports: (...args: Parameters<typeof module.createTransports>) => {
      count('transports');
      return module.createTransports(...args);
    },
    createMessageLog: (...args: Parameters<typeof module.createMessageLog>) => {
      count('message log');
      return module.createMessageLog(...args);
    },
  };
});
vi.mock('./compose-reports.js', async (original) => {
  const module = await original<typeof import('./compose-reports.js')>();
  return {
    ...module,
    configuredWebhooks: (...args: Parameters<typeof module.configuredWebhooks>) => {
      count('webhooks');
      return module.configuredWebhooks(...args);
    },
  };
});

afterEach(() => built.clear());

describe('compose', () => {
  it('builds each part once for the whole server: app, dashboard control, webhooks and messaging share them', async () => {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${tempDatabaseFile()}`,
      SITE_URL: 'https://scamsavvy.example',
      SECRET_KEY: 'k'.repeat(40),
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'ScamSavvy <news@scamsavvy.example>',
      MAIL_POSTAL_ADDRESS: '100 Example Street, Springfield, IL 62701',
      TWILIO_ACCOUNT_SID: `AC${'1'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'a'.repeat(32),
      TWILIO_FROM: '+15550000000',
      POSTMARK_WEBHOOK_USER: 'postmark',
      POSTMARK_WEBHOOK_PASSWORD: 'p'.repeat(24),
      LOG_LEVEL: 'silent',
    });
    const db = await openDatabase(config.database);
    const product = compose(config, db);
    const app = await createApp({
      ...product,
      config: { ...product.config, distDir: '/nonexistent' },
      serveSite: false,
    });
    try {
      await app.ready();
      // The dashboard's launch-day control, as the app built it, uses the product's own messaging parts.
      const control = product.owner.broadcastControl!(app.log);
      expect(control.broadcasts.subscriptions).toBe(product.messaging.subscriptions);
      expect(control.broadcasts.links).toBe(product.messaging.links);
      expect(control.broadcasts.log).toBe(product.messaging.log);
      expect(product.feedback?.webhooks.map((hook) => hook.source)).toEqual(['postmark']);

      expect(Object.fromEntries(built)).toEqual({
        'message tokens': 1,
        'link signer': 1,
        'address hasher': 1,
        transports: 1,
        'message log': 1,
        webhooks: 1,
      });
    } finally {
      await app.close();
    }
  });
});
