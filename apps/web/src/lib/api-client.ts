import { MESSAGES } from '@mixroom/shared';
import type { ErrorResponse } from '@mixroom/contracts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type TokenSource = () => Promise<string | null>;
let tokenSource: TokenSource = async () => null;

/** The auth layer registers how to obtain the current access token. */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

/** The current access token, or null when signed out. */
export function getAccessToken(): Promise<string | null> {
  return tokenSource();
}

/** JSON over fetch with the bearer token; failures become ApiError with the server's message. */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const token = await getAccessToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : null,
      signal: init.signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', MESSAGES.genericError);
  }
  if (response.status === 204) return undefined as T;
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as ErrorResponse | null)?.error;
    throw new ApiError(response.status, error?.code ?? 'HTTP_ERROR', response.status >= 500 || !error ? MESSAGES.genericError : error.message);
  }
  return body as T;
}

/** A binary response (a rendered PDF, say) with the file name the server gave it. */
export async function apiBlob(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ blob: Blob; fileName: string | null }> {
  const token = await getAccessToken();
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: init.body !== undefined ? JSON.stringify(init.body) : null,
  }).catch(() => {
    throw new ApiError(0, 'NETWORK', MESSAGES.genericError);
  });
  if (!response.ok) {
    const error = ((await response.json().catch(() => null)) as ErrorResponse | null)?.error;
    throw new ApiError(response.status, error?.code ?? 'HTTP_ERROR', response.status >= 500 || !error ? MESSAGES.genericError : error.message);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  return { blob: await response.blob(), fileName: encoded ? decodeURIComponent(encoded) : null };
}
