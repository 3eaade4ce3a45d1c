// Thousands of generated bodies against the schema and the real endpoint: what is valid is stored
// exactly once and reads back equal; what is not is refused and changes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupE164 } from '../messaging/phone.js';
import { emailKey, signupInputSchema, signupMessages, type SignupRecord } from '../../shared/signup-schema.js';
import { buildTestApp } from '../test/build-test-app.js';
import { openDatabase, type Db } from '../db/open-database.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text in any script (accents, CJK, emoji), without control characters. */
const anyScriptText = (min: number, max: number) =>
  fc
    .string({ unit: 'grapheme', minLength: min, maxLength: max })
    .map((text) => text.replace(CONTROL, '').trim())
    .filter((text) => Array.from(text).length >= min && Array.from(text).length <= max);

const validName = anyScriptText(2, 100);
const validPhone = fc
  .tuple(
    fc.boolean(),
    fc.integer({ min: 1, max: 9 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 15 }),
    fc.constantFrom('', ' ', '-', '.'),
  )
  .map(([plus, first, rest, separator]) => `${plus ? '+' : ''}${first}${rest.join(separator)}`);
const label = fc.stringMatching(/^[a-z0-9éèàüöçñ\u4e00-\u4e20]{1,12}$/);
const validEmail = fc
  .tuple(label, label, fc.stringMatching(/^[a-z\u4e00-\u4e20]{2,6}$/), fc.constantFrom('', ' '))
  .map(([local, domain, top, pad]) => `${pad}${local}@${domain}.${top}${pad}`);

const validBody = fc.record({
  name: validName,
  phone: validPhone,
  email: validEmail,
  betaTesting: fc.boolean(),
  openedForMs: fc.integer({ min: 1500, max: 600_000 }),
});

/** A valid body broken in one of the ways a body can be wrong. */
const invalidBody = fc.oneof(
  validBody.map((body) => ({ ...body, name: '' })),
  validBody.chain((body) => fc.string({ maxLength: 1 }).map((name) => ({ ...body, name }))),
  validBody.map((body) => ({ ...body, name: 'x'.repeat(101) })),
  validBody.chain((body) =>
    fc.constantFrom('\u0000', '\u0007', '\n', '\u009b').map((bad) => ({ ...body, name: `Ro${bad}sa` })),
  ),
  validBody.chain((body) => fc.stringMatching(/^0[0-9]{3,10}$/).map((phone) => ({ ...body, phone }))),
  validBody.chain((body) => fc.stringMatching(/^[1-9][0-9]{16,20}$/).map((phone) => ({ ...body, phone }))),
  validBody.chain((body) => fc.stringMatching(/^[a-z]{1,10}(@|@[a-z]{1,5})?$/).map((email) => ({ ...body, email }))),
  validBody.chain((body) => fc.constantFrom(1, null, [], {}, 'yes').map((betaTesting) => ({ ...body, betaTesting }))),
  validBody.chain((body) => fc.constantFrom(42, null, true, ['Rosa']).map((name) => ({ ...body, name }))),
  validBody.chain((body) =>
    fc.constantFrom('id', 'timestamp', 'admin', '__proto__x', 'signupCount').map((key) => ({ ...body, [key]: 'x' })),
  ),
  validBody.map(({ email: _omitted, ...body }) => body),
);

/** Thousands of runs take a few seconds alone, more beside the other suites on two cores: not a speed test. */
const PROPERTY_TIMEOUT_MS = 60_000;

describe('the sign-up schema, on generated bodies', () => {
  it(
    'accepts every valid body, keeping names and emails exactly (trimmed)',
    () => {
      fc.assert(
        fc.property(validBody, (body) => {
          const parsed = signupInputSchema.parse(body);
          expect(parsed.name).toBe(body.name);
          expect(parsed.email).toBe(body.email.trim());
          expect(parsed.phone).toBe(body.phone.replace(/[\s.-]/g, ''));
        }),
        { numRuns: 3000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuses every broken body',
    () => {
      fc.assert(
        fc.property(invalidBody, (body) => {
          expect(signupInputSchema.safeParse(body).success).toBe(false);
        }),
        { numRuns: 3000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('POST /api/signups, on generated bodies', () => {
  let app: FastifyInstance;
  let store: Db;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'scamsavvy-property-'));
    const database = { kind: 'sqlite' as const, file: path.join(dir, 'signups.db') };
    store = await openDatabase(database);
    ({ app } = await buildTestApp({ existing: { db: store, database }, keepOpen: true }));
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function storedByKey(): Promise<Map<string, SignupRecord>> {
    const records = new Map<string, SignupRecord>();
    for await (const record of store.signups.list()) records.set(emailKey(record.email), record);
    return records;
  }

  it('stores each valid body exactly once and reads it back equal; refuses each broken one and changes nothing', async () => {
    let sequence = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          validBody.map((body) => ({ valid: true as const, body })),
          invalidBody.map((body) => ({ valid: false as const, body })),
        ),
        async ({ valid, body }) => {
          const before = await store.signups.count();
          if (!valid) {
            const response = await app.inject({ method: 'POST', url: '/api/signups', payload: body as object });
            expect(response.statusCode).toBe(400);
            expect(await store.signups.count()).toBe(before);
            return;
          }
          sequence += 1;
          // A unique address per run, so "exactly once" is about this body alone.
          const unique = { ...body, email: body.email.replace('@', `.${sequence}@`) };
          const response = await app.inject({ method: 'POST', url: '/api/signups', payload: unique });
          const expected = signupInputSchema.parse(unique);
          // Kept in E.164 (US for numbers without a country code); one the numbering plan cannot read is
          // refused beside the number, and nothing is stored.
          const e164 = signupE164(expected.phone);
          if (e164 === undefined) {
            expect(response.statusCode).toBe(400);
            expect(response.json().error.fields).toEqual({ phone: signupMessages.phoneNeedsAreaCode });
            expect(await store.signups.count()).toBe(before);
            return;
          }
          expect(response.statusCode).toBe(201);
          expect(await store.signups.count()).toBe(before + 1);
          const record = (await storedByKey()).get(emailKey(expected.email));
          expect(record).toMatchObject({
            name: expected.name,
            phone: e164,
            email: expected.email,
            betaTesting: expected.betaTesting,
            signupCount: 1,
          });
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});
