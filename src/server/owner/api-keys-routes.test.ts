// /owner/api-keys in-process: a key made on the dashboard is shown once (in the POST's answer only),
// reads the list, and stops working when revoked; changes come only from our own pages.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/build-test-app.js';
import { signInAsOwner } from '../test/sign-in-as-owner.js';
import { SITE } from '../test/site.js';

describe('/owner/api-keys', () => {
  it('makes a key shown once that reads the list, and revokes it', async () => {
    const { app, db } = await buildTestApp({ config: { siteUrl: SITE } });
    const cookie = await signInAsOwner(app, db);
    const post = (url: string, payload: string, origin = SITE) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    expect((await app.inject({ method: 'GET', url: '/owner/api-keys' })).statusCode).toBe(303);
    const empty = await app.inject({ method: 'GET', url: '/owner/api-keys', headers: { cookie } });
    expect(empty.body).toContain('No keys yet.');
    expect(empty.body).toContain(`${SITE}/api/v1/openapi.json`);

    expect((await post('/owner/api-keys', 'name=Zapier&scope=read', 'https://elsewhere.example')).statusCode).toBe(403);
    const made = await post('/owner/api-keys', 'name=Zapier&scope=read');
    expect(made.statusCode).toBe(201);
    expect(made.headers['cache-control']).toBe('no-store');
    const key = /(ssk_[A-Za-z0-9_]{43})/.exec(made.body)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(made.body).toContain('it is shown only this once');
    const read = await app.inject({
      method: 'GET',
      url: '/api/v1/signups',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(read.statusCode).toBe(200);

    const later = await app.inject({ method: 'GET', url: '/owner/api-keys', headers: { cookie } });
    expect(later.body).not.toContain(key);
    expect(later.body).toContain(`<td>${key.slice(-4)}</td>`);
    expect(later.body).toContain('Revoke “Zapier”');

    const taken = await post('/owner/api-keys', 'name=Zapier&scope=write');
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('A key named &quot;Zapier&quot; already exists');
    expect((await post('/owner/api-keys', 'name=&scope=read')).body).toContain('A name is 1 to 60');
    expect((await post('/owner/api-keys', 'name=CRM&scope=admin')).body).toContain('The scope is one of');

    const revoked = await post('/owner/api-keys/revoke', 'name=Zapier');
    expect(revoked.statusCode).toBe(303);
    expect(revoked.headers.location).toBe('/owner/api-keys?revoked=Zapier');
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/signups', headers: { authorization: `Bearer ${key}` } }))
        .statusCode,
    ).toBe(401);
    const log = await db.owners.auditLog(10);
    expect(log.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['api_key_made', 'api_key_revoked', 'api_read']),
    );
    expect(JSON.stringify(log)).not.toContain(key);
  });
});
