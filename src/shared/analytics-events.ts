// The analytics events of spec section 7: their names, their parameters, and the first-party beacon body.
import { z } from 'zod';

import {
  BUTTON_SECTIONS,
  DOWNLOAD_PLATFORMS,
  DOWNLOAD_SOURCE,
  EVENT_TEXT_PATTERN,
  SCROLL_THRESHOLDS,
  SHARE_METHODS,
  SIGNUP_FORM_NAME,
  SIGNUP_INTEREST_BUTTON,
  SIGNUP_METHOD,
} from './analytics-constants.js';

import { LANGUAGES } from './languages.js';

export * from './analytics-constants.js';

/** Longest page name or section id we keep: longer ones are someone probing, not a page of ours. */
export const EVENT_TEXT_MAX_LENGTH = 120;
/** A beacon carries at most this many events (the page sends a handful per visit). */
export const EVENT_BATCH_MAX = 50;

const text = z.string().min(1).max(EVENT_TEXT_MAX_LENGTH).regex(EVENT_TEXT_PATTERN);

/**
 * What every event says of its page: its name, and (issue 45) its language, so the funnel splits by
 * language. A page loaded before languages came sends no `page_language`: it was English.
 */
const page = { page_name: text, page_language: z.enum(LANGUAGES).optional() };

/**
 * Each event with the parameters that may leave the visitor's browser for any destination. None of
 * them is personal: the sign-up's name, email and phone travel separately (see client/analytics),
 * and only to the providers allowed to receive them. `page_name` rides on every event so the
 * first-party funnel can tell the landing page from the 404 page, and `page_language` so it can tell
 * the English page from the Spanish one.
 */
export const analyticsEventSchema = z.discriminatedUnion('name', [
  z.strictObject({
    name: z.literal('page_view'),
    params: z.strictObject({ ...page }),
  }),
  z.strictObject({
    name: z.literal('scroll_depth'),
    params: z.strictObject({
      ...page,
      scroll_percentage: z.union(SCROLL_THRESHOLDS.map((value) => z.literal(value))),
      section: text,
    }),
  }),
  z.strictObject({
    name: z.literal('button_click'),
    params: z.strictObject({
      ...page,
      button_name: z.literal(SIGNUP_INTEREST_BUTTON),
      section: z.enum(BUTTON_SECTIONS),
      // Added after the first release: a page loaded before it sends neither, and is still counted.
      location: z.enum(BUTTON_SECTIONS).optional(),
      element_name: z.literal('signup_button').optional(),
    }),
  }),
  z.strictObject({
    name: z.literal('sign_up_start'),
    params: z.strictObject({ ...page, method: z.literal(SIGNUP_METHOD) }),
  }),
  z.strictObject({
    name: z.literal('sign_up'),
    params: z.strictObject({ ...page, method: z.literal(SIGNUP_METHOD), beta_testing: z.boolean() }),
  }),
  z.strictObject({
    name: z.literal('form_submission'),
    params: z.strictObject({ ...page, form_name: z.literal(SIGNUP_FORM_NAME), success: z.boolean() }),
  }),
  z.strictObject({
    name: z.literal('download_intent'),
    params: z.strictObject({
      ...page,
      platform: z.enum(DOWNLOAD_PLATFORMS),
      source: z.literal(DOWNLOAD_SOURCE),
      location: z.enum(BUTTON_SECTIONS).optional(),
      element_name: z.enum(['store_badge', 'store_button']).optional(),
    }),
  }),
  // "Tell a family member": how, never the link or its code.
  z.strictObject({
    name: z.literal('share'),
    params: z.strictObject({ ...page, method: z.enum(SHARE_METHODS) }),
  }),
]);

export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
export type AnalyticsEventName = AnalyticsEvent['name'];
export const ANALYTICS_EVENT_NAMES = analyticsEventSchema.options.map(
  (option) => option.shape.name.value,
) as AnalyticsEventName[];

/** The body of `POST /api/events` (sent with navigator.sendBeacon). */
export const eventBatchSchema = z.strictObject({
  events: z.array(analyticsEventSchema).min(1).max(EVENT_BATCH_MAX),
});
export type EventBatch = z.infer<typeof eventBatchSchema>;
