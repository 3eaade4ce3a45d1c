// The API's description (OpenAPI 3.1), served at /api/v1/openapi.json: what no-code tools and a CRM
// read to call it. CI validates it against the OpenAPI 3.1 schema and walks every route it names
// (openapi.test.ts), checking each answer against the schema it declares here.
import { LANGUAGES } from '../../shared/languages.js';
import { CONSENT_KINDS, CONSENT_SOURCES } from '../db/consent-events.table.js';
import { MESSAGE_KINDS, MESSAGE_STATES } from '../db/outbox.table.js';
import { CHANNELS } from '../db/message-channels.js';
import { exportColumns } from '../signups/signup-export.js';

const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const time = { type: 'string', format: 'date-time' } as const;
const nullableTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** Each export column's schema (the list's fields, as the CSV export has them). */
const columnSchemas: Record<(typeof exportColumns)[number], object> = {
  id: { type: 'string', format: 'uuid' },
  name: text,
  phone: { ...text, description: 'E.164, as +12125550142' },
  email: { ...text, format: 'email' },
  betaTesting: { type: 'boolean' },
  timestamp: { ...time, description: 'When this email first signed up' },
  lastSeenAt: time,
  signupCount: { type: 'integer', minimum: 1 },
  utmSource: nullableText,
  utmMedium: nullableText,
  utmCampaign: nullableText,
  utmTerm: nullableText,
  utmContent: nullableText,
  referrer: nullableText,
  landingPath: nullableText,
  button: { type: ['string', 'null'], enum: ['hero_section', 'cta_section', null] },
  consentVersion: nullableText,
  confirmedAt: nullableTime,
  emailOptOutAt: nullableTime,
  smsOptOutAt: nullableTime,
  smsConfirmedAt: nullableTime,
  leftAt: nullableTime,
  referralCode: nullableText,
  referredBy: nullableText,
  language: { type: 'string', enum: [...LANGUAGES] },
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const jsonBody = (schema: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const common = {
  '401': problem('No API key, or one that is not known or was revoked.'),
  '403': problem('The key was sent over plain http from another computer, or a write needs a key of scope write.'),
  '429': problem(
    'The key made too many requests this minute (API_RATE_LIMIT_PER_MINUTE); Retry-After says when to try again.',
  ),
};
const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The person's id (the export's id column).",
  schema: { type: 'string' },
};

export function openApiDocument(siteUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'ScamSavvy launch list API',
      version: '1.0.0',
      description:
        'The launch list for the owner’s other tools (docs/api.md). Every request carries an API key the owner made (Authorization: Bearer ssk_…), over https. Errors are RFC 9457 problem details. Nothing is cached.',
    },
    servers: [{ url: `${siteUrl}/api/v1` }],
    security: [{ apiKey: [] }],
    paths: {
      '/signups': {
        get: {
          operationId: 'listSignups',
          summary: 'The list, newest first, a page at a time',
          description: 'Pass the nextCursor of one page to get the next; the last page has nextCursor null.',
          'x-scope': 'read',
          parameters: [
            {
              name: 'since',
              in: 'query',
              description: 'Only people who first signed up at or after this date or time.',
              schema: { type: 'string' },
            },
            {
              name: 'cursor',
              in: 'query',
              description: 'The nextCursor of the page before.',
              schema: { type: 'string' },
            },
            {
              name: 'limit',
              in: 'query',
              description: 'How many per page (1 to 500; 100 if left out).',
              schema: { type: 'integer', minimum: 1, maximum: 500 },
            },
          ],
          responses: {
            '200': jsonBody('SignupPage', 'A page of the list.'),
            '400': problem('A parameter is not understood.'),
            ...common,
          },
        },
        post: {
          operationId: 'addSignup',
          summary: 'A sign-up from another channel, with the evidence of the consent',
          description:
            'Goes through every rule a sign-up on the page does: the confirmation email when it is on, nobody’s “no” undone, and the same answer for someone already on the list.',
          'x-scope': 'write',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewSignup' } } },
          },
          responses: {
            '202': jsonBody('Accepted', 'Taken, whether the person was new or already on the list.'),
            '400': problem('Some details need attention; fields says which.'),
            '413': problem('The body is larger than 16 KB.'),
            '415': problem('The body is not JSON.'),
            '503': problem('The list cannot be written just now; Retry-After says when to try again.'),
            ...common,
          },
        },
      },
      '/signups/{id}': {
        parameters: [idParameter],
        get: {
          operationId: 'getSignup',
          summary: 'One person’s record',
          'x-scope': 'read',
          responses: { '200': jsonBody('SignupOne', 'The record.'), '404': problem('Nobody with this id.'), ...common },
        },
        delete: {
          operationId: 'deleteSignup',
          summary: 'Delete a person, as the dashboard does (their “no” is kept, hashed)',
          'x-scope': 'write',
          responses: { '204': { description: 'Deleted.' }, '404': problem('Nobody with this id.'), ...common },
        },
      },
      '/signups/{id}/export': {
        parameters: [idParameter],
        get: {
          operationId: 'exportSignup',
          summary: 'Everything held about one person (a data-access request)',
          'x-scope': 'read',
          responses: {
            '200': jsonBody('PersonExport', 'The record, its consent history and its messages.'),
            '404': problem('Nobody with this id.'),
            ...common,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: ssk_ and 43 characters.' },
      },
      schemas: {
        Signup: {
          type: 'object',
          required: [...exportColumns, 'launchEmail', 'launchText'],
          additionalProperties: false,
          properties: {
            ...columnSchemas,
            launchEmail: {
              type: ['string', 'null'],
              description: '“yes”, or why the launch email will not reach them',
            },
            launchText: { type: ['string', 'null'], description: '“yes”, or why the launch text will not reach them' },
          },
        },
        SignupPage: {
          type: 'object',
          required: ['data', 'nextCursor'],
          additionalProperties: false,
          properties: {
            data: { type: 'array', items: { $ref: '#/components/schemas/Signup' } },
            nextCursor: nullableText,
          },
        },
        SignupOne: {
          type: 'object',
          required: ['data'],
          additionalProperties: false,
          properties: { data: { $ref: '#/components/schemas/Signup' } },
        },
        ConsentEvent: {
          type: 'object',
          required: ['kind', 'source', 'consentVersion', 'at', 'evidence'],
          additionalProperties: false,
          properties: {
            kind: { type: 'string', enum: [...CONSENT_KINDS] },
            source: { type: 'string', enum: [...CONSENT_SOURCES] },
            consentVersion: nullableText,
            at: time,
            evidence: { type: ['object', 'null'], description: 'What a sign-up through the API gave as proof' },
          },
        },
        Message: {
          type: 'object',
          required: ['id', 'kind', 'broadcast', 'channel', 'state', 'attempts', 'sentAt', 'nextAttemptAt', 'error'],
          additionalProperties: false,
          properties: {
            id: { type: 'integer' },
            kind: { type: 'string', enum: [...MESSAGE_KINDS] },
            broadcast: nullableText,
            channel: { type: 'string', enum: [...CHANNELS] },
            state: { type: 'string', enum: [...MESSAGE_STATES] },
            attempts: { type: 'integer', minimum: 0 },
            sentAt: nullableTime,
            nextAttemptAt: nullableTime,
            error: nullableText,
          },
        },
        PersonExport: {
          type: 'object',
          required: ['signup', 'consentHistory', 'messages', 'joinedThrough'],
          additionalProperties: false,
          properties: {
            signup: { $ref: '#/components/schemas/Signup' },
            consentHistory: { type: 'array', items: { $ref: '#/components/schemas/ConsentEvent' } },
            messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
            joinedThrough: { type: 'integer', minimum: 0, description: 'How many joined through their family link' },
          },
        },
        NewSignup: {
          type: 'object',
          required: ['name', 'phone', 'email', 'consent'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 2, maxLength: 100 },
            phone: {
              type: 'string',
              description: 'With its area code; + and the country code outside SMS_DEFAULT_COUNTRY',
            },
            email: { type: 'string', maxLength: 254 },
            betaTesting: { type: 'boolean', default: false },
            language: { type: 'string', enum: [...LANGUAGES], default: 'en' },
            attribution: {
              type: 'object',
              additionalProperties: false,
              properties: Object.fromEntries(
                ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'referrer', 'landingPath'].map(
                  (key) => [key, text],
                ),
              ),
            },
            consent: {
              type: 'object',
              required: ['at', 'source'],
              additionalProperties: false,
              properties: {
                words: {
                  type: 'string',
                  minLength: 1,
                  maxLength: 2000,
                  description:
                    'The exact words the person was shown when they agreed; left out, version must name a version of our own form’s words',
                },
                version: {
                  type: 'string',
                  pattern: '^[\\w.-]{1,40}$',
                  description:
                    'The channel’s own label for its words, or (without words) a version of our own form’s words',
                },
                at: { ...time, description: 'When they agreed' },
                source: {
                  type: 'string',
                  minLength: 1,
                  maxLength: 200,
                  description: 'Where: a page’s address, an event',
                },
                ip: { type: 'string', description: 'The address their request came from, where kept' },
              },
            },
          },
        },
        Accepted: {
          type: 'object',
          required: ['status'],
          additionalProperties: false,
          properties: { status: { const: 'accepted' } },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'code'],
          properties: {
            type: { type: 'string', format: 'uri' },
            title: text,
            status: { type: 'integer' },
            detail: text,
            code: text,
            fields: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      },
    },
  };
}
