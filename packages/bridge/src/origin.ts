/**
 * Who may open the bridge's sockets. Browsers let any web page open a WebSocket to localhost, and
 * the same-origin policy does not apply to WebSockets: without this check, any tab the user has
 * open could listen to their DAW. Browsers always send the page's Origin on a WebSocket upgrade and
 * a page cannot forge it, so checking it is what keeps other sites out.
 */

/**
 * One allowed origin: an exact origin ("https://mixroom.example"), a scheme wildcard ("https://*")
 * or a port wildcard ("http://localhost:*", which also admits the origin without a port).
 */
export type OriginPattern = string;

export const DEFAULT_ORIGINS: readonly OriginPattern[] = ['https://*', 'http://localhost:*', 'http://127.0.0.1:*'];

function normalise(origin: string): URL | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Throws on a pattern that could never match, so a typo in --origin is caught at start. */
export function validateOriginPattern(pattern: string): OriginPattern {
  if (/^https?:\/\/\*$/.test(pattern)) return pattern;
  const withoutPortWildcard = pattern.replace(/:\*$/, '');
  const url = normalise(withoutPortWildcard);
  if (!url || url.origin !== withoutPortWildcard) {
    throw new Error(`--origin ${pattern}: expected an origin like https://mixroom.example or http://localhost:*`);
  }
  return pattern;
}

export function originAllowed(origin: string | undefined, allowed: readonly OriginPattern[]): boolean {
  // No Origin means the client is not a browser page: a local program, which could already record
  // the machine's audio itself, so keeping it out would protect nothing.
  if (origin === undefined) return true;
  // "null" comes from sandboxed frames, file:// pages and the like: no site to vouch for.
  const url = normalise(origin);
  if (!url) return false;
  return allowed.some((pattern) => {
    if (pattern === `${url.protocol}//*`) return true;
    if (pattern.endsWith(':*')) return `${url.protocol}//${url.hostname}` === pattern.slice(0, -2);
    return pattern === url.origin;
  });
}

/**
 * The Host header must name this machine: a page on a site whose DNS name was re-pointed at
 * 127.0.0.1 (DNS rebinding) would send its own name here. The origin check already refuses such a
 * page; this is the second lock on the same door.
 */
export function hostAllowed(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '');
  return name === 'localhost' || name === '127.0.0.1' || name === '[::1]';
}
