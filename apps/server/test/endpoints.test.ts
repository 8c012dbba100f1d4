import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, successStatus, type EndpointDefinition } from '@mixroom/contracts';
import pino from 'pino';
import { startTestServer, type TestServer } from './helpers/test-server';

const webSrc = join(import.meta.dirname, '..', '..', 'web', 'src');

/** A hand-written request in the web's source: its method and path, `*` for each interpolated segment. */
interface WebCall {
  file: string;
  method: string;
  path: string;
}

/** The end of a template literal that starts at `start` (just after its backtick), skipping `${…}`. */
function templateEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const char = source[i];
    if (depth === 0 && char === '`') return i;
    if (char === '$' && source[i + 1] === '{') {
      depth++;
      i++;
    } else if (char === '}' && depth > 0) depth--;
    else if (char === '\\') i++;
  }
  return source.length;
}

/** A template literal's text with each `${…}` (nested braces included) replaced by `*`. */
function withPlaceholders(literal: string): string {
  let text = '';
  let depth = 0;
  for (let i = 0; i < literal.length; i++) {
    if (literal[i] === '$' && literal[i + 1] === '{') {
      if (depth === 0) text += '*';
      depth++;
      i++;
    } else if (depth > 0 && literal[i] === '{') depth++;
    else if (depth > 0 && literal[i] === '}') depth--;
    else if (depth === 0) text += literal[i];
  }
  return text;
}

/** The argument list of the call that opens at `open` (its `(`), up to the matching `)`. */
function callArguments(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(open, i + 1);
  }
  return source.slice(open);
}

/**
 * Every string or template literal that starts with /api/ or /oidc/ and is the first argument of a
 * call (`api(…)`, `fetch(…)`, `api<T>(…)`), with the method written in that call (GET when none).
 */
function findWebCalls(file: string, source: string): WebCall[] {
  const calls: WebCall[] = [];
  for (const match of source.matchAll(/\(\s*(['"`])\/(api|oidc)\//g)) {
    const quote = match[1]!;
    const start = match.index + match[0].length - `/${match[2]}/`.length;
    const end = quote === '`' ? templateEnd(source, start) : source.indexOf(quote, start);
    const literal = source.slice(start, end);
    const path = withPlaceholders(literal).split('?')[0]!;
    const method = /method:\s*['"](\w+)['"]/.exec(callArguments(source, match.index))?.[1] ?? 'GET';
    calls.push({ file, method: method.toUpperCase(), path });
  }
  return calls;
}

/** Whether a called segment (`*` where a value is interpolated) can be a declared segment (`:param` takes any value). */
function segmentMatches(called: string, declared: string): boolean {
  if (declared.startsWith(':')) return true;
  const pattern = called.split('*').map((part) => part.replace(/[.+?^$()[\]{}|\\]/g, '\\$&'));
  return new RegExp(`^${pattern.join('.*')}$`).test(declared);
}

/** Whether a called path can be a declared path (a `*` may also carry an interpolated query string). */
function pathMatches(called: string, declared: string): boolean {
  const a = called.split('/');
  const b = declared.split('/');
  return a.length === b.length && a.every((segment, i) => segmentMatches(segment, b[i]!));
}

function declaredFor(call: WebCall, endpoints: readonly EndpointDefinition[]): EndpointDefinition | undefined {
  return endpoints.find((e) => e.method === call.method && pathMatches(call.path, e.path));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the endpoint table', () => {
  it('declares each method and path once', () => {
    const keys = allEndpoints.map((e) => `${e.method} ${e.path}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('is served: every declared endpoint has its route, with the declared method', () => {
    const unserved = allEndpoints
      .filter((e) => !server.app.hasRoute({ method: e.method, url: e.path }))
      .map((e) => `${e.method} ${e.path}`);
    expect(unserved).toEqual([]);
  });

  it('declares a success schema for every JSON endpoint, so each answer is checked before it leaves', () => {
    const undeclared = allEndpoints
      .filter((e) => !e.raw && !e.responses[successStatus(e)])
      .map((e) => `${e.method} ${e.path}`);
    expect(undeclared).toEqual([]);
  });

  it('generates /api/docs from the declarations, and documents no route the table lacks', async () => {
    const response = await fetch(`${server.url}/api/docs/json`);
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { summary?: string; responses?: Record<string, unknown> }>>;
    };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        path: path.replace(/\{(\w+)\}/g, ':$1'),
        method: method.toUpperCase(),
        operation,
      })),
    );
    const visible = allEndpoints.filter((e) => !e.hidden);
    for (const endpoint of visible) {
      const entry = documented.find((d) => d.method === endpoint.method && d.path === endpoint.path);
      expect(entry?.operation.summary, `${endpoint.method} ${endpoint.path}`).toBe(endpoint.summary);
      expect(Object.keys(entry?.operation.responses ?? {})).toEqual(Object.keys(endpoint.responses));
    }
    const undeclared = documented.filter(
      (d) => d.method !== 'HEAD' && !allEndpoints.some((e) => e.method === d.method && e.path === d.path),
    );
    expect(undeclared.map((d) => `${d.method} ${d.path}`)).toEqual([]);
  });
});

describe('a handler that writes its reply itself', () => {
  it('is answered once: the health check logs no "Reply was already sent"', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const own = await startTestServer({}, { logger });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${own.url}/api/health`)).status).toBe(200);
      expect(lines.filter((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

/**
 * Requests the tests write by hand: calls (`api(…)`, `call(base, …)`, `fetch(…)`) and the
 * authorization tables' `path: (w) => …` entries. A deliberate probe of a path nobody serves is
 * named here; anything else must be a declared endpoint, so a renamed path can't leave a test
 * asking the old one.
 */
const DELIBERATE_PROBES = new Set(['GET /api/nope', 'GET /api/docs/json']);

function findTestCalls(file: string, source: string): WebCall[] {
  const calls = findWebCalls(file, source);
  // `call(server.url, '/api/…')`: the path is the second argument.
  for (const match of source.matchAll(/\bcall\(\s*[\w.]+,\s*(['"`])\/api\//g)) {
    const quote = match[1]!;
    const start = match.index + match[0].length - '/api/'.length;
    const end = quote === '`' ? templateEnd(source, start) : source.indexOf(quote, start);
    const path = withPlaceholders(source.slice(start, end)).split('?')[0]!;
    const method =
      /method:\s*['"](\w+)['"]/.exec(callArguments(source, source.indexOf('(', match.index)))?.[1] ?? 'GET';
    calls.push({ file, method: method.toUpperCase(), path });
  }
  for (const match of source.matchAll(/method:\s*'(\w+)',\s*path:\s*\(\w+\)\s*=>\s*`(\/api\/[^`]*)`/g)) {
    calls.push({ file, method: match[1]!, path: withPlaceholders(match[2]!).split('?')[0]! });
  }
  return calls;
}

describe('calls the tests write by hand', () => {
  const testRoots = [join(import.meta.dirname), join(import.meta.dirname, '..', '..', '..', 'e2e')];
  const testFiles = testRoots.flatMap((dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !entry.parentPath.includes('node_modules'))
      .map((entry) => join(entry.parentPath, entry.name)),
  );

  it('reach declared endpoints (or are a named probe of a path nobody serves)', () => {
    const calls = testFiles
      // This file's own samples are paths nobody serves on purpose.
      .filter((f) => f !== import.meta.filename)
      .flatMap((f) => findTestCalls(relative(join(import.meta.dirname, '..'), f), readFileSync(f, 'utf8')))
      // A title, a pattern or a path glued with `+`: not a request path written whole.
      .filter((call) => /^\/api\/[\w/:*.-]*$/.test(call.path) && !call.path.endsWith('/'));
    expect(calls.length).toBeGreaterThan(200);
    const undeclared = calls
      .filter((call) => !DELIBERATE_PROBES.has(`${call.method} ${call.path}`) && !declaredFor(call, allEndpoints))
      .map((call) => `${call.method} ${call.path} (${call.file})`);
    expect([...new Set(undeclared)]).toEqual([]);
  });

  it('are caught when they ask a path the table lacks', () => {
    const source = [
      "await call(server.url, `/api/versions/${id}/presence`, { method: 'PUT', body: {} });",
      "{ name: 'x', method: 'GET', path: (w) => `/api/groups/${w.folder}/nothing`, allow: [] },",
      "await call(server.url, '/api/me');",
    ].join('\n');
    const calls = findTestCalls('sample.ts', source);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /api/versions/*/presence',
      'GET /api/me',
      'GET /api/groups/*/nothing',
    ]);
    expect(calls.filter((c) => !declaredFor(c, allEndpoints)).map((c) => c.path)).toEqual([
      '/api/versions/*/presence',
      '/api/groups/*/nothing',
    ]);
  });
});

describe('web calls', () => {
  const files = sourceFiles(webSrc);

  it('go through the typed client in the feature API modules: no hand-written /api/ path there', () => {
    const apiModules = files.filter((f) => /features\/[\w-]+\/api\.ts$/.test(f));
    expect(apiModules.length).toBeGreaterThan(3);
    const handWritten = apiModules
      .filter((f) => /['"`]\/api\//.test(readFileSync(f, 'utf8')))
      .map((f) => relative(webSrc, f));
    expect(handWritten).toEqual([]);
  });

  it('written by hand elsewhere still reach a declared endpoint the server serves', () => {
    const calls = files.flatMap((f) => findWebCalls(relative(webSrc, f), readFileSync(f, 'utf8')));
    expect(calls.length).toBeGreaterThan(0);
    const unserved = calls
      .filter((call) => {
        const endpoint = declaredFor(call, allEndpoints);
        return !endpoint || !server.app.hasRoute({ method: endpoint.method, url: endpoint.path });
      })
      .map((call) => `${call.method} ${call.path} (${call.file})`);
    expect(unserved).toEqual([]);
  });

  it('are caught when they name a path nobody serves (the folder picker once called GET /api/folders)', () => {
    const source = [
      "folders: (signal?: AbortSignal) => api<{ folders: unknown[] }>('/api/folders', signal ? { signal } : {}),",
      "renameVersion: (versionId: string, name: string) => api<Version>(`/api/versions/${versionId}`, { method: 'PATCH', body: { name } }),",
      "cancel: (id: string) => api(`/api/versions/${id ?? 'none'}/cancel${query({ a: 'b' })}`, { method: 'POST' }),",
      "list: (id: string) => api(`/api/groups/${id ?? 'root'}/items?${new URLSearchParams({ sort: 'newest' }).toString()}`),",
    ].join('\n');
    const calls = findWebCalls('sample.ts', source);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/folders',
      'PATCH /api/versions/*',
      'POST /api/versions/*/cancel*',
      'GET /api/groups/*/items',
    ]);
    const withoutFolders = allEndpoints.filter((e) => e.path !== '/api/folders');
    expect(declaredFor(calls[0]!, withoutFolders)).toBeUndefined();
    expect(declaredFor(calls[1]!, withoutFolders)?.path).toBe('/api/versions/:id');
    expect(declaredFor({ ...calls[1]!, method: 'PUT' }, withoutFolders)).toBeUndefined();
    expect(declaredFor(calls[2]!, withoutFolders)?.path).toBe('/api/versions/:id/cancel');
    expect(declaredFor(calls[3]!, withoutFolders)?.path).toMatch(/^\/api\/groups\/[^/]+\/items$/);
  });
});
