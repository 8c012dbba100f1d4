import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentEndpoints, pushEndpoints, storageEndpoints } from '@mixroom/contracts';
import { MESSAGES } from '@mixroom/shared';
import { route } from '../src/http/endpoint';
import { registerErrorHandler } from '../src/http/error-handler';

/** What the handlers below answer; each test sets it, the way a service would return it. */
let usage: unknown;
let app: FastifyInstance;
const replies: { id: string; text: string }[] = [];
const id = '2b8f3f4e-8c1a-4d0e-9f55-7f0a1c2d3e4f';
const headers = { authorization: 'Bearer test' };

beforeAll(async () => {
  // The same compilers and error handler as the real server, without its database.
  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, null);
  // Stands in for the bearer authentication: a request with a token has a signed-in user.
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    if (request.headers.authorization)
      request.actor = { userId: id, isAdmin: false, email: 'ana@example.test', displayName: 'Ana' };
  });
  route(app, storageEndpoints.usage, () => usage as { usedBytes: number; limitBytes: number });
  route(app, commentEndpoints.reply, (request) => {
    replies.push({ id: request.params.id, text: request.body.text });
    return { id };
  });
  route(app, commentEndpoints.edit, () => undefined);
  route(app, pushEndpoints.publicKey, () => ({ publicKey: 'BPublicKey' }));
  await app.ready();
});
afterAll(() => app.close());

describe('responses are checked against their declared schema', () => {
  it('sends a declared shape, without fields the contract does not name', async () => {
    usage = { usedBytes: 10, limitBytes: 100, internalBucket: 'secret' };
    const response = await app.inject({ method: 'GET', url: '/api/storage', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ usedBytes: 10, limitBytes: 100 });
  });

  it('fails a wrong shape with a 500 and the generic message, never sending it', async () => {
    usage = { usedBytes: 'ten', limitBytes: 100 };
    const wrongType = await app.inject({ method: 'GET', url: '/api/storage', headers });
    expect(wrongType.statusCode).toBe(500);
    expect(wrongType.json()).toEqual({ error: { code: 'INTERNAL', message: MESSAGES.genericError } });

    usage = { usedBytes: 10 };
    const missing = await app.inject({ method: 'GET', url: '/api/storage', headers });
    expect(missing.statusCode).toBe(500);
    expect(missing.body).not.toContain('usedBytes');
  });
});

describe('requests follow the declaration', () => {
  it('answers with the declared success status: 201 for a created reply, 204 for an edit', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `/api/comments/${id}/replies`,
      headers,
      payload: { text: 'Nice mix' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id });
    expect(replies).toEqual([{ id, text: 'Nice mix' }]);
    const edited = await app.inject({
      method: 'PATCH',
      url: `/api/comments/${id}`,
      headers,
      payload: { text: 'Nicer mix' },
    });
    expect(edited.statusCode).toBe(204);
    expect(edited.body).toBe('');
  });

  it('refuses params and bodies that do not match, before the handler runs', async () => {
    const badId = await app.inject({
      method: 'POST',
      url: '/api/comments/not-a-uuid/replies',
      headers,
      payload: { text: 'x' },
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.code).toBe('VALIDATION');
    const badBody = await app.inject({
      method: 'POST',
      url: `/api/comments/${id}/replies`,
      headers,
      payload: { words: 'x' },
    });
    expect(badBody.statusCode).toBe(400);
    expect(replies).toHaveLength(1);
  });

  it('answers 401 to a caller without a token on an endpoint declared as needing one, whatever the inputs', async () => {
    for (const url of [`/api/comments/${id}/replies`, '/api/comments/not-a-uuid/replies']) {
      const anonymous = await app.inject({ method: 'POST', url, payload: { text: 'x' } });
      expect(anonymous.statusCode).toBe(401);
    }
    expect(replies).toHaveLength(1);
    expect((await app.inject({ method: 'GET', url: '/api/storage' })).statusCode).toBe(401);
    // An endpoint declared open needs no token.
    const open = await app.inject({ method: 'GET', url: '/api/push/public-key' });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ publicKey: 'BPublicKey' });
  });
});
