// POST /api/signups in-process, on each database engine: what it stores, what it refuses, and how it fails.
import { isReferralCode } from '../../shared/referral.js';
import { describe, expect, it } from 'vitest';
import { MIN_FORM_TIME_MS, signupMessages } from '../../shared/signup-schema.js';
import type { Db } from '../db/open-database.js';
import { buildTestApp } from '../test/build-test-app.js';
import { rosaForm as valid } from '../test/people.js';
import { storeEngines } from '../test/store-engines.js';
import { machineClock, testClock } from '../test/clock.js';

async function stored(store: Db) {
  const records = [];
  for await (const record of store.signups.list()) records.push(record);
  return records;
}

for (const engine of storeEngines) {
  describe.skipIf(!engine.available)(`POST /api/signups on ${engine.name}`, () => {
    // SQLite's writer takes the product's clock; PostgreSQL stamps a sign-up with its own now() (spec section 3).
    const clock = testClock();
    async function setup() {
      const { app, db } = await buildTestApp({ engine, database: { now: clock } });
      return { app, store: db };
    }

    it('answers 201 and stores the normalised sign-up with an id and the server time', async () => {
      const { app, store } = await setup();
      const before = machineClock.ms();
      const response = await app.inject({ method: 'POST', url: '/api/signups', payload: valid });
      const after = machineClock.ms();
      expect(response.statusCode).toBe(201);
      // Success, and the person's own link code for "Tell a family member": nothing else.
      const { referralCode } = response.json<{ referralCode: string }>();
      expect(response.json()).toEqual({ status: 'ok', referralCode: expect.stringMatching(/^[0-9a-z]{12}$/) });
      const records = await stored(store);
      expect(records).toHaveLength(1);
      expect(records[0]?.referralCode).toBe(referralCode);
      expect(records[0]).toMatchObject({
        name: 'Rosa Díaz',
        phone: '+15551234567',
        email: 'rosa@example.com',
        betaTesting: true,
      });
      expect(records[0]?.id).toBeTruthy();
      const stamped = Date.parse(records[0]?.timestamp ?? '');
      if (engine.name === 'sqlite') expect(stamped).toBe(clock.ms());
      else expect([before <= stamped, stamped <= after]).toEqual([true, true]);
    });

    it('keeps every number in E.164, however it was typed', async () => {
      const { app, store } = await setup();
      const typed: [string, string, string][] = [
        ['212 555 0142', 'ana@example.com', '+12125550142'],
        ['1-212-555-0143', 'bo@example.com', '+12125550143'],
        ['+44 7700 900123', 'cy@example.com', '+447700900123'],
      ];
      for (const [phone, email] of typed) {
        const response = await app.inject({ method: 'POST', url: '/api/signups', payload: { ...valid, phone, email } });
        expect(response.statusCode).toBe(201);
      }
      const numbers = new Map((await stored(store)).map((record) => [record.email, record.phone]));
      expect(Object.fromEntries(numbers)).toEqual(Object.fromEntries(typed.map(([, email, e164]) => [email, e164])));
    });

    it('stores where the sign-up came from and the consent version', async () => {
      const { app, store } = await setup();
      const payload = {
        ...valid,
        attribution: { utmSource: 'newsletter', utmMedium: 'email', landingPath: '/spring', button: 'cta_section' },
        consentVersion: '2026-11-22',
      };
      expect((await app.inject({ method: 'POST', url: '/api/signups', payload })).statusCode).toBe(201);
      expect((await stored(store))[0]).toMatchObject({
        utmSource: 'newsletter',
        utmMedium: 'email',
        landingPath: '/spring',
        button: 'cta_section',
        consentVersion: '2026-11-22',
      });
    });

    it('answers a repeated email as a new one, handing out nothing the record holds, and keeps one record', async () => {
      const { app, store } = await setup();
      const first = await app.inject({ method: 'POST', url: '/api/signups', payload: valid });
      const again = await app.inject({
        method: 'POST',
        url: '/api/signups',
        payload: { ...valid, email: 'ROSA@example.com', betaTesting: false },
      });
      expect(again.statusCode).toBe(first.statusCode);
      // The same answer but for its code: a fresh one, never the person's own (anyone can type an address).
      const code = (response: typeof first) => (response.json() as { referralCode: string }).referralCode;
      expect(again.body).toBe(first.body.replace(code(first), code(again)));
      expect(isReferralCode(code(again))).toBe(true);
      expect(code(again)).not.toBe(code(first));
      const headerNames = (response: typeof first) =>
        Object.keys(response.headers)
          .filter((name) => name !== 'date')
          .sort();
      expect(headerNames(again)).toEqual(headerNames(first));
      expect(again.headers['content-length']).toBe(first.headers['content-length']);
      const records = await stored(store);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ betaTesting: true, signupCount: 2, referralCode: code(first) });
    });

    for (const [what, payload] of [
      ['the hidden trap field is filled in', { ...valid, comments: 'Buy cheap watches' }],
      ['the form was submitted faster than a person could', { ...valid, openedForMs: MIN_FORM_TIME_MS - 1 }],
      ['it says nothing of how long the form was open', { ...valid, openedForMs: undefined }],
    ] as const) {
      it(`refuses it (never a success for something thrown away), and stores nothing, when ${what}`, async () => {
        const { app, store } = await setup();
        await app.inject({ method: 'POST', url: '/api/signups', payload: { ...valid, email: 'person@example.com' } });
        const doubted = await app.inject({ method: 'POST', url: '/api/signups', payload });
        expect(doubted.statusCode).toBe(422);
        expect(doubted.json()).toMatchObject({
          error: { code: 'not_accepted', message: 'We could not take this sign-up. Please press the button again.' },
        });
        expect((await stored(store)).map((record) => record.email)).toEqual(['person@example.com']);
      });
    }

    it('takes a sign-up submitted right at the minimum time, with the trap empty', async () => {
      const { app, store } = await setup();
      await app.inject({
        method: 'POST',
        url: '/api/signups',
        payload: { ...valid, openedForMs: MIN_FORM_TIME_MS, comments: '' },
      });
      expect(await store.signups.count()).toBe(1);
    });

    it('defaults beta testing to false when it is left out', async () => {
      const { app, store } = await setup();
      const { betaTesting: _omitted, ...withoutBeta } = valid;
      expect((await app.inject({ method: 'POST', url: '/api/signups', payload: withoutBeta })).statusCode).toBe(201);
      expect((await stored(store))[0]?.betaTesting).toBe(false);
    });

    const invalidBodies: [string, unknown, Record<string, string>][] = [
      ['a missing name', { ...valid, name: undefined }, { name: signupMessages.nameRequired }],
      ['a one-letter name', { ...valid, name: 'R' }, { name: signupMessages.nameTooShort }],
      ['a phone starting with 0', { ...valid, phone: '0555123456' }, { phone: signupMessages.phoneInvalid }],
      ['a 17-digit phone', { ...valid, phone: '12345678901234567' }, { phone: signupMessages.phoneInvalid }],
      // Numbers the form's rule lets through that no phone could have: refused, never kept and promised
      // texts that never come (issue 54, "every number is one number").
      [
        'a local number without its area code',
        { ...valid, phone: '5550142' },
        { phone: signupMessages.phoneNeedsAreaCode },
      ],
      [
        'a North American number whose area code starts with 1',
        { ...valid, phone: '+11125550142' },
        { phone: signupMessages.phoneNeedsAreaCode },
      ],
      ['a bad email', { ...valid, email: 'rosa@' }, { email: signupMessages.emailInvalid }],
      [
        'a beta flag that is text',
        { ...valid, betaTesting: 'yes' },
        { betaTesting: signupMessages.betaTestingInvalid },
      ],
      ['a number for a name', { ...valid, name: 42 }, { name: signupMessages.notText }],
    ];

    for (const [what, payload, fields] of invalidBodies) {
      it(`answers 400 with the field message for ${what}, storing nothing`, async () => {
        const { app, store } = await setup();
        const response = await app.inject({ method: 'POST', url: '/api/signups', payload: payload as object });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'validation_failed', fields });
        expect(await store.signups.count()).toBe(0);
      });
    }

    it('answers 400 for unknown keys (a visitor cannot choose the id or time), storing nothing', async () => {
      const { app, store } = await setup();
      const response = await app.inject({
        method: 'POST',
        url: '/api/signups',
        payload: { ...valid, id: 'chosen', timestamp: '2000-01-01T00:00:00Z' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.other).toEqual(['Unknown fields: id, timestamp']);
      expect(await store.signups.count()).toBe(0);
    });

    it('answers 400 for a body that is not an object, or not JSON at all', async () => {
      const { app, store } = await setup();
      const array = await app.inject({ method: 'POST', url: '/api/signups', payload: [valid] });
      expect(array.statusCode).toBe(400);
      const malformed = await app.inject({
        method: 'POST',
        url: '/api/signups',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "Rosa",',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.code).toBe('invalid_json');
      expect(malformed.body).not.toMatch(/at |node_modules|SyntaxError/);
      expect(await store.signups.count()).toBe(0);
    });

    it('answers 415 for a body that is not JSON', async () => {
      const { app, store } = await setup();
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/signups',
          headers: { 'content-type': contentType },
          payload: 'name=Rosa',
        });
        expect(response.statusCode, contentType).toBe(415);
      }
      expect(await store.signups.count()).toBe(0);
    });

    it('answers 413 for a body over 10 KB', async () => {
      const { app, store } = await setup();
      const response = await app.inject({
        method: 'POST',
        url: '/api/signups',
        payload: { ...valid, name: 'R'.repeat(11 * 1024) },
      });
      expect(response.statusCode).toBe(413);
      expect(await store.signups.count()).toBe(0);
    });

    it('answers 500 without internals when the store fails, and the sign-up is not claimed as saved', async () => {
      const { app, store } = await setup();
      await store.close();
      const response = await app.inject({ method: 'POST', url: '/api/signups', payload: valid });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
      });
    });
  });
}
