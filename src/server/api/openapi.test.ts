// The API's description is a valid OpenAPI 3.1 document (checked with a standard validator against
// the OpenAPI schema), names every route the app serves under /api/v1 and nothing else, and every
// route answers as it says: each documented answer a walk can reach is checked against its schema.
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import { buildTestApp } from '../test/build-test-app.js';
import { makeApiKey } from './api-keys.js';
import { openApiDocument } from './openapi.js';
import { machineClock } from '../test/clock.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const formats = {
  'date-time': (value: string) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value),
  uuid: UUID,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
};

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };
type Document = ReturnType<typeof openApiDocument>;

describe('/api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(
      openApiDocument('https://scamsavvy.example') as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names every route the app serves under /api/v1, and each answers as it says', async () => {
    const routes: string[] = [];
    const onRoute = (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.url.startsWith('/api/v1/') && route.url !== '/api/v1/openapi.json')
        for (const method of methods)
          if (method !== 'HEAD') routes.push(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    };
    const { app, db } = await buildTestApp({
      config: { messaging: { secretKey: 'a test secret that is at least 32 characters long' } },
      onRoute,
    });
    const served = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(served.statusCode).toBe(200);
    const document = served.json() as Document;
    expect(document.servers[0]?.url).toBe('https://scamsavvy.example/api/v1');
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['get', 'post', 'delete', 'put', 'patch'].includes(key))
        .map((method) => `${method.toUpperCase()} /api/v1${path}`),
    );
    expect(documented.sort()).toEqual([...new Set(routes)].sort());

    const ajv = new Ajv2020({ strict: false, formats });
    ajv.addSchema({ $id: 'api', components: document.components });
    const check = (operation: Operation, status: number, body: unknown, contentType: string | undefined) => {
      const declared = operation.responses[String(status)];
      expect(declared, `status ${status} is documented`).toBeDefined();
      const media = Object.keys(declared?.content ?? {})[0];
      if (!media) return expect(body).toBe('');
      expect(contentType).toContain(media);
      const schema = JSON.parse(
        JSON.stringify(declared!.content![media]!.schema).replaceAll('"#/components', '"api#/components'),
      );
      const valid = ajv.validate(schema, body);
      expect(ajv.errors ?? [], `${status} ${JSON.stringify(body).slice(0, 200)}`).toEqual([]);
      expect(valid).toBe(true);
    };

    const writer = await makeApiKey(db, { name: 'Walk', scope: 'write', by: 'owner@example.com' });
    if (writer === 'name_taken') throw new Error('taken');
    const headers = { authorization: `Bearer ${writer.key}` };
    const paths = document.paths as unknown as Record<string, Record<string, Operation>>;
    const walk = async (method: string, path: string, url: string, payload?: object) => {
      const answer = await app.inject({
        method: method as 'GET',
        url: `/api/v1${url}`,
        headers,
        ...(payload ? { payload } : {}),
      });
      check(
        paths[path]![method.toLowerCase()]!,
        answer.statusCode,
        answer.body === '' ? '' : answer.json(),
        answer.headers['content-type'] as string | undefined,
      );
      return answer;
    };
    const signup = {
      name: 'Walk Person',
      email: 'walk@example.com',
      phone: '+12125550142',
      language: 'es',
      consent: { words: 'Yes, tell me.', at: machineClock.now().toISOString(), source: 'a tablet at the library' },
    };
    expect((await walk('POST', '/signups', '/signups', signup)).statusCode).toBe(202);
    expect((await walk('POST', '/signups', '/signups', { ...signup, consent: {} })).statusCode).toBe(400);
    const list = await walk('GET', '/signups', '/signups?limit=1');
    const id = list.json().data[0].id as string;
    expect((await walk('GET', '/signups', '/signups?limit=nope')).statusCode).toBe(400);
    expect((await walk('GET', '/signups/{id}', `/signups/${id}`)).statusCode).toBe(200);
    expect((await walk('GET', '/signups/{id}/export', `/signups/${id}/export`)).statusCode).toBe(200);
    expect((await walk('DELETE', '/signups/{id}', `/signups/${id}`)).statusCode).toBe(204);
    expect((await walk('GET', '/signups/{id}', `/signups/${id}`)).statusCode).toBe(404);
    expect((await walk('GET', '/signups/{id}/export', `/signups/${id}/export`)).statusCode).toBe(404);
    expect((await walk('DELETE', '/signups/{id}', `/signups/${id}`)).statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/signups' });
    check(paths['/signups']!.get!, anonymous.statusCode, anonymous.json(), anonymous.headers['content-type'] as string);
  });
});
