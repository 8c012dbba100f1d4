import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  DEFAULT_OUTBOUND_MESSAGES,
  fetchOutbound,
  OutboundUrlError,
  type OutboundPolicy,
} from '../src/platform/net/outbound-fetch';

/**
 * User-supplied URLs (link downloads, connectors, push) must never reach this host or its networks,
 * not directly, not through a name, and not through a redirect from a public page (SSRF).
 */
const noAllowList: OutboundPolicy = { protocols: ['http:', 'https:'], allowHosts: [], extraCa: null, timeoutMs: 5000 };

// The redirecting "public" server listens on 127.0.0.2, which only the test's allow-list exempts;
// the secret server on 127.0.0.1 stands for an internal service and is never exempt.
const allowed: OutboundPolicy = { ...noAllowList, allowHosts: ['127.0.0.2'] };
const loopbackAllowed: OutboundPolicy = { ...noAllowList, allowHosts: ['127.0.0.1'] };

const payload = Buffer.from('RIFF....WAVEfmt a small but fine download');
let secret: Server;
let secretPort: number;
const secretHits: string[] = [];
let outside: Server;
let outsidePort: number;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );
}

beforeAll(async () => {
  secret = createServer((request, response) => {
    secretHits.push(request.url ?? '');
    if (request.url === '/file') response.writeHead(200, { 'content-type': 'audio/wav' }).end(payload);
    else if (request.url === '/declared-large')
      response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
    else if (request.url === '/streamed-large') {
      // Chunked, no Content-Length: only counting the streamed bytes can catch it.
      response.writeHead(200);
      for (let i = 0; i < 10; i += 1) response.write('y'.repeat(1000));
      response.end();
    } else response.writeHead(404).end();
  });
  secretPort = await listen(secret, '127.0.0.1');
  outside = createServer((request, response) => {
    const to: Record<string, string> = {
      '/to-loopback': `http://127.0.0.1:${secretPort}/file`,
      '/to-localhost': `http://localhost:${secretPort}/file`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data',
      '/to-file': 'file:///etc/passwd',
      '/loop': '/loop',
      '/to-own-file': '/file',
    };
    const location = to[request.url ?? ''];
    if (location) response.writeHead(302, { location }).end();
    else if (request.url === '/file') response.writeHead(200).end(payload);
    else response.writeHead(404).end();
  });
  outsidePort = await listen(outside, '127.0.0.2');
});

afterAll(async () => {
  await new Promise<void>((resolve) => secret.close(() => resolve()));
  await new Promise<void>((resolve) => outside.close(() => resolve()));
});

async function refusal(promise: Promise<unknown>): Promise<OutboundUrlError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundUrlError);
  return error as OutboundUrlError;
}

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('checkOutboundUrl', () => {
  it.each([
    ['localhost', 'http://localhost/x'],
    ['127.0.0.1', 'http://127.0.0.1/x'],
    ['::1', 'http://[::1]/x'],
    ['10/8', 'http://10.1.2.3/x'],
    ['172.16/12', 'http://172.20.0.1/x'],
    ['192.168/16', 'http://192.168.1.1/x'],
    ['169.254 (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['fc00::/7', 'http://[fd00::1]/x'],
    ['fe80::/10', 'http://[fe80::1]/x'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/x'],
    ['0.0.0.0', 'http://0.0.0.0/x'],
    ['a decimal spelling of loopback', 'http://2130706433/x'],
  ])('refuses %s as not public', async (_name, url) => {
    const error = await refusal(checkOutboundUrl(url, noAllowList));
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.notPublic);
    expect(error.permanent).toBe(true);
  });

  it.each([
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:text/plain,hello'],
    ['ftp:', 'ftp://ftp.example.com/x'],
    ['a URL with credentials', 'https://user:secret@example.com/x'],
    ['a URL with a user name only', 'https://user@example.com/x'],
    ['something that is no URL', 'not a url'],
  ])('refuses %s', async (_name, url) => {
    const error = await refusal(checkOutboundUrl(url, noAllowList));
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.notAllowed);
  });

  it('allows only the protocols of the policy', async () => {
    const httpsOnly: OutboundPolicy = { ...loopbackAllowed, protocols: ['https:'] };
    const error = await refusal(checkOutboundUrl(`http://127.0.0.1:${secretPort}/file`, httpsOnly));
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.notAllowed);
  });

  it('accepts a public address and names the address it checked', async () => {
    const checked = await checkOutboundUrl('https://8.8.8.8/x', noAllowList);
    expect(checked).toMatchObject({ address: '8.8.8.8', family: 4, allowListed: false });
  });

  it('speaks a feature’s own words', async () => {
    const worded: OutboundPolicy = { ...noAllowList, messages: { notPublic: 'Not here.' } };
    expect((await refusal(checkOutboundUrl('http://10.0.0.1/', worded))).message).toBe('Not here.');
  });
});

describe('fetchOutbound', () => {
  it('returns the bytes of a fine download', async () => {
    const answer = await fetchOutbound(`http://127.0.0.1:${secretPort}/file`, loopbackAllowed, { maxBytes: 1000 });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('audio/wav');
    expect(await readAll(answer.body)).toEqual(payload);
  });

  it('follows a redirect that stays on allowed ground', async () => {
    const answer = await fetchOutbound(`http://127.0.0.2:${outsidePort}/to-own-file`, allowed, { maxBytes: 1000 });
    expect(answer.status).toBe(200);
    expect(answer.url.pathname).toBe('/file');
    expect(await readAll(answer.body)).toEqual(payload);
  });

  it('refuses loopback before connecting', async () => {
    secretHits.length = 0;
    const error = await refusal(fetchOutbound(`http://127.0.0.1:${secretPort}/file`, noAllowList, { maxBytes: 1000 }));
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.notPublic);
    expect(secretHits).toEqual([]);
  });

  it.each([
    ['127.0.0.1', '/to-loopback', DEFAULT_OUTBOUND_MESSAGES.notPublic],
    ['a name that resolves to loopback', '/to-localhost', DEFAULT_OUTBOUND_MESSAGES.notPublic],
    ['the cloud metadata address', '/to-metadata', DEFAULT_OUTBOUND_MESSAGES.notPublic],
    ['file:', '/to-file', DEFAULT_OUTBOUND_MESSAGES.notAllowed],
  ])('refuses a redirect from an allowed host into %s', async (_name, path, message) => {
    secretHits.length = 0;
    const error = await refusal(fetchOutbound(`http://127.0.0.2:${outsidePort}${path}`, allowed, { maxBytes: 1000 }));
    expect(error.message).toBe(message);
    expect(secretHits).toEqual([]);
  });

  it('gives up after five redirects', async () => {
    const error = await refusal(fetchOutbound(`http://127.0.0.2:${outsidePort}/loop`, allowed, { maxBytes: 1000 }));
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.tooManyRedirects);
  });

  it('refuses an answer that declares more than maxBytes', async () => {
    const error = await refusal(
      fetchOutbound(`http://127.0.0.1:${secretPort}/declared-large`, loopbackAllowed, { maxBytes: 1000 }),
    );
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.tooLarge(1000));
  });

  it('cuts a streamed body at maxBytes with a clear error', async () => {
    const answer = await fetchOutbound(`http://127.0.0.1:${secretPort}/streamed-large`, loopbackAllowed, {
      maxBytes: 2500,
    });
    expect(answer.status).toBe(200);
    const error = await refusal(readAll(answer.body));
    expect(error.message).toBe(DEFAULT_OUTBOUND_MESSAGES.tooLarge(2500));
  });
});
