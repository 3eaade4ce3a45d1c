// Reads the settings the server wrote into the page (a JSON data block), without loading any provider code.
import {
  NO_ANALYTICS,
  parsePublicConfig,
  PUBLIC_CONFIG_ELEMENT_ID,
  type PublicConfig,
} from '../../shared/public-config.js';

/** The settings the server wrote into the page; none (no analytics) if they are missing or damaged. */
export function readPublicConfig(): PublicConfig {
  const element = document.getElementById(PUBLIC_CONFIG_ELEMENT_ID);
  if (!element?.textContent) return NO_ANALYTICS;
  let value: unknown;
  try {
    value = JSON.parse(element.textContent);
  } catch (error) {
    console.warn('Analytics: the page settings are not valid JSON, so no provider loads.', error);
    return NO_ANALYTICS;
  }
  const parsed = parsePublicConfig(value);
  if ('config' in parsed) return parsed.config;
  console.warn(`Analytics: the page settings are not valid (${parsed.problem}), so no provider loads.`);
  return NO_ANALYTICS;
}
