// Decides, once the page is interactive, which providers may load: configuration, Global Privacy Control, storage and consent.
import type { PublicConfig } from '../../shared/public-config.js';
import type { AnalyticsProvider } from './analytics-provider';
import {
  globalPrivacyControl,
  initialiseConsent,
  onConsentChoice,
  readStoredChoice,
  type ConsentChoice,
} from './consent';
import type { AnalyticsQueue } from './event-queue';

export { AnalyticsQueue } from './event-queue';
import { googleAnalytics } from './google-analytics';
import { metaPixel } from './meta-pixel';
import { posthogProvider } from './posthog';
import { readPublicConfig } from './read-public-config';

/** The providers that may run here: those configured, less the pixel and the recorder under Global Privacy Control. */
export function allowedProviders(config: PublicConfig, gpc: boolean): AnalyticsProvider[] {
  const providers: AnalyticsProvider[] = [];
  if (config.ga4) providers.push(googleAnalytics(config.ga4.measurementId));
  if (config.posthog && !gpc) providers.push(posthogProvider(config.posthog.key, config.posthog.host));
  if (config.metaPixel && !gpc) providers.push(metaPixel(config.metaPixel.pixelId));
  return providers;
}

/** Display names of the providers switched on for this site, whatever the visitor's browser says. */
export function configuredProviders(config: PublicConfig): string[] {
  return allowedProviders(config, false).map((provider) => provider.name);
}

export function bootAnalytics(
  queue: AnalyticsQueue,
  config: PublicConfig = readPublicConfig(),
  /** Tests pass stand-ins here; the page uses the real providers. */
  providersFor: typeof allowedProviders = allowedProviders,
): void {
  const gpc = globalPrivacyControl();
  const providers = providersFor(config, gpc);
  const configured = configuredProviders(config);
  const stored = readStoredChoice();
  const usable = providers.length > 0 && stored !== 'unavailable';
  initialiseConsent({
    configured,
    providers: usable ? providers.map((provider) => provider.name) : [],
    choice: stored === 'unavailable' ? null : stored,
    mode: config.consentMode,
  });
  if (providers.length === 0) {
    queue.turnOff(
      configured.length > 0
        ? 'Global Privacy Control is on, and it turns off every provider configured here'
        : 'no analytics provider is configured',
    );
    return;
  }
  if (stored === 'unavailable') {
    queue.turnOff('this browser blocks storage, so no cookie choice can be kept');
    return;
  }

  let started = false;
  const start = () => {
    started = true;
    void queue.start(providers);
  };
  const refuse = (reason: string) => {
    if (started) {
      for (const provider of providers) {
        try {
          provider.disable?.();
        } catch (error) {
          console.warn(`Analytics: ${provider.name} could not be switched off cleanly.`, error);
        }
      }
    }
    queue.turnOff(reason);
  };

  onConsentChoice((choice: ConsentChoice) => {
    if (choice === 'accepted') start();
    else refuse('the visitor rejected cookies');
  });
  if (stored === 'accepted' || (stored === null && config.consentMode === 'opt-out')) start();
  else if (stored === 'rejected') refuse('the visitor rejected cookies');
  // else (opt-in, no answer yet): events wait in the queue for 'Accept'.
}
