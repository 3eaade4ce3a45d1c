// How long each piece of "where they came from" may be. Free of zod: the page's first script uses it.

/** Longer values are cut, not refused. */
export const attributionLimits = {
  utmSource: 100,
  utmMedium: 100,
  utmCampaign: 150,
  utmTerm: 150,
  utmContent: 150,
  referrer: 500,
  landingPath: 300,
} as const;
