// Test helper: the configuration createApp needs, with rate limits off unless a test asks for them.
import { NO_ANALYTICS } from '../../shared/public-config.js';
import type { Config } from '../config.js';

export function testConfig(
  overrides: Partial<Config> = {},
): Pick<Config, 'distDir' | 'logLevel' | 'rateLimit' | 'trustProxy' | 'publicConfig' | 'siteUrl' | 'launch'> {
  return {
    distDir: '/nonexistent',
    logLevel: 'silent',
    rateLimit: { perMinute: 0, perHour: 0, redisUrl: undefined, eventsPerMinute: 0 },
    trustProxy: false,
    publicConfig: NO_ANALYTICS,
    siteUrl: 'https://scamsavvy.example',
    launch: { mode: 'coming-soon' },
    ...overrides,
  };
}

/** Messaging settings the confirmation tests share: email confirmation on, one reminder after 7 days, deletion after 30. */
export const CONFIRMING = {
  secretKey: 'test-secret-key-that-is-long-enough-123',
  emailConfirmation: true,
  unconfirmedRetentionDays: 30,
  confirmationReminderDays: 7,
} as const;
