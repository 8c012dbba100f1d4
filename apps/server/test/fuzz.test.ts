import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, type EndpointDefinition } from '@mixroom/contracts';
import { fuzzRequests, type FuzzRequest } from './helpers/fuzz-inputs';
import { signInThroughOidc } from './helpers/oidc-flow';
import { startTestServer, type TestServer } from './helpers/test-server';

/**
 * Every declared endpoint (the table in packages/contracts, so a new one is covered by itself) gets
 * malformed, huge, wrong-kind and NUL/control/bidi values in its params, query and body, signed in
 * and anonymously: none may answer 5xx, and the server answers its health check afterwards.
 */
let server: TestServer;
let token: string;

/** Per endpoint and caller: enough to touch each input, few enough to stay well under a minute. */
const SIGNED_IN_PER_ENDPOINT = 10;
const ANONYMOUS_PER_ENDPOINT = 3;
const IN_FLIGHT = 4;

// Calls that end the session or the account go last, so the rest run signed in.
const endsTheSession = (e: EndpointDefinition) => /deletion|sign-out|logout|session\/end/.test(e.path);
const endpoints = [...allEndpoints].sort((a, b) => Number(endsTheSession(a)) - Number(endsTheSession(b)));

beforeAll(async () => {
  server = await startTestServer();
  token = (await signInThroughOidc(server.url, { email: 'fuzz@input.test', password: 'fuzz-input-password' }))
    .access_token;
}, 120_000);
afterAll(() => server?.close());

interface Outcome {
  request: FuzzRequest;
  signedIn: boolean;
  status: number;
  body: string;
}

async function send(request: FuzzRequest, signedIn: boolean): Promise<Outcome> {
  const response = await fetch(`${server.url}${request.url}`, {
    method: request.method,
    redirect: 'manual',
    headers: {
      ...(signedIn ? { authorization: `Bearer ${token}` } : {}),
      ...(request.body !== undefined ? { 'content-type': request.contentType ?? 'application/json' } : {}),
    },
    body: request.body ?? null,
    signal: AbortSignal.timeout(20_000),
  });
  const body = await response.text();
  return { request, signedIn, status: response.status, body: body.slice(0, 300) };
}

describe('hostile input to every declared endpoint', () => {
  it('never answers 5xx, signed in or not, and the server stays up', { timeout: 170_000 }, async () => {
    const plan = endpoints.flatMap((endpoint) => [
      ...fuzzRequests(endpoint, SIGNED_IN_PER_ENDPOINT).map((request) => ({ request, signedIn: true })),
      ...fuzzRequests(endpoint, ANONYMOUS_PER_ENDPOINT).map((request) => ({ request, signedIn: false })),
    ]);
    const failures: Outcome[] = [];
    let next = 0;
    const worker = async () => {
      for (let at = next++; at < plan.length; at = next++) {
        const { request, signedIn } = plan[at]!;
        const outcome = await send(request, signedIn);
        if (outcome.status >= 500) failures.push(outcome);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    console.info(`fuzz: ${plan.length} requests to ${endpoints.length} endpoints`);

    expect(
      failures.map(
        (f) =>
          `${f.status} ${f.request.method} ${f.request.url.slice(0, 120)} [${f.request.what}]${f.signedIn ? ' signed in' : ''}: ${f.body}`,
      ),
    ).toEqual([]);
    const health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(1000) });
    expect(health.status).toBe(200);
  });
});
