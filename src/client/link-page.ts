// The script of the pages links in messages open (confirm, preferences, unsubscribe): the Text size
// control, and the share panel's phone share sheet and Copy. Each page works without it (decisions/019).
// Its one event, `share`, goes to our own count only: these pages load no analytics provider.
import { EVENTS_ENDPOINT } from '../shared/analytics-constants.js';
import type { EventBatch } from '../shared/analytics-events.js';
import { beaconTransport } from './analytics/first-party-events';
import { wireShare } from './share';
import { wireTextSize } from './text-size';

wireTextSize();

const panel = document.querySelector('[data-share]');
if (panel) {
  wireShare(panel, (method) => {
    const page_language = document.documentElement.lang === 'es' ? 'es' : 'en';
    const batch: EventBatch = {
      events: [{ name: 'share', params: { page_name: 'preferences', page_language, method } }],
    };
    beaconTransport.send(EVENTS_ENDPOINT, JSON.stringify(batch));
  });
}
