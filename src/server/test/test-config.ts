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
