import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server';
import { Cookies, startInteraction } from './helpers/oidc-interaction';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The CSP as a map of directive → sources. */
function csp(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectBaseline(response: Response) {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toMatch(/^(strict-origin-when-cross-origin|no-referrer)$/);
  expect(csp(response).get('frame-ancestors')).toEqual(["'none'"]);
}

describe('security headers', () => {
  it('the web app: its own scripts only, media from itself and blob: URLs, the WebSocket on its origin', async () => {
    for (const path of ['/public/landing', '/groups/some-folder']) {
      const response = await fetch(`${server.url}${path}`);
      expectBaseline(response);
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      const policy = csp(response);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('media-src')).toEqual(expect.arrayContaining(["'self'", 'blob:']));
      expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:']));
      expect(policy.get('connect-src')).toContain("'self'");
      expect(policy.get('object-src')).toEqual(["'none'"]);
    }
  });

  it('pages whose URL carries a token send no referrer', async () => {
    const pages = [
      '/public/share?shared_group=abc',
      '/public/share?transferId=abc&email=a%40b.test',
      '/public/transfer?transferId=abc',
      '/public/request?requestId=abc',
      '/public/reset-password?token=abc',
      '/public/confirm-email?token=abc',
      '/public/live/abc',
      '/j/abcdefgh',
      '/join?id=x&type=group&t=1&invite=abcdefgh',
      '/bootstrap?invite=abc',
      '/auth/callback?code=x',
    ];
    for (const path of pages) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expectBaseline(response);
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    // The sign-in screen's address holds the interaction's id.
    const interaction = await startInteraction(server.url);
    const screen = await fetch(`${server.url}/oidc/interaction/${interaction.uid}`, {
      headers: { cookie: interaction.cookies.header() },
    });
    expect(screen.headers.get('referrer-policy')).toBe('no-referrer');
    // Pages without a secret keep the default.
    for (const path of ['/public/landing', '/public/sign-in', '/settings']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });

  it('the API: nothing may load or run from its answers', async () => {
    for (const path of ['/api/health', '/api/nope', '/api/me']) {
      const response = await fetch(`${server.url}${path}`);
      expectBaseline(response);
      expect(csp(response).get('default-src')).toEqual(["'none'"]);
    }
  });

  it('the API documentation gets its own, looser policy', async () => {
    const response = await fetch(`${server.url}/api/docs/`);
    expect(response.status).toBe(200);
    expectBaseline(response);
    expect(csp(response).get('script-src')).toEqual(expect.arrayContaining(["'self'"]));
  });

  it('the OIDC pages: the sign-in screen, the provider’s own answers and the sign-out page', async () => {
    const interaction = await startInteraction(server.url);
    const screen = await fetch(`${server.url}/oidc/interaction/${interaction.uid}`, {
      headers: { cookie: interaction.cookies.header() },
    });
    expectBaseline(screen);
    expect(csp(screen).get('script-src')).toEqual(["'self'"]);
    const details = await fetch(`${server.url}/oidc/interaction/${interaction.uid}/details`, {
      headers: { cookie: interaction.cookies.header() },
    });
    expectBaseline(details);
    const discovery = await fetch(`${server.url}/oidc/.well-known/openid-configuration`);
    expectBaseline(discovery);
    const error = await fetch(`${server.url}/oidc/auth?client_id=unknown`);
    expect(error.headers.get('content-type')).toContain('text/html');
    expectBaseline(error);
    expect(csp(error).get('default-src')).toEqual(["'none'"]);
    const logout = await fetch(`${server.url}/oidc/session/end`, { headers: { cookie: new Cookies().header() } });
    expectBaseline(logout);
  });

  it('file URLs: the file’s name, nosniff, and a sandbox when opened on their own', async () => {
    await server.context.blobs.put('security/page.html', Buffer.from('<script>alert(1)</script>'));
    const url = await server.context.blobs.signDownloadUrl('security/page.html', {
      expiresInSeconds: 60,
      fileName: 'page.html',
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expectBaseline(response);
    expect(response.headers.get('content-disposition')).toContain('page.html');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const policy = csp(response);
    expect(policy.has('sandbox')).toBe(true);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.has('script-src')).toBe(false);
  });

  it('the static assets of the web app', async () => {
    const response = await fetch(`${server.url}/favicon.svg`);
    expectBaseline(response);
  });
});
