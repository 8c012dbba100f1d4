import { MESSAGES } from '@mixroom/shared';
import {
  endpointUrl,
  type EndpointDefinition,
  type EndpointInput,
  type EndpointResponse,
  type EndpointTakesInput,
  type ErrorResponse,
} from '@mixroom/contracts';

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

type RequestInit = { method?: string; body?: unknown; signal?: AbortSignal | undefined };

/** One authenticated request; a failure becomes ApiError with the server's message (the generic one for 5xx). */
async function send(path: string, init: RequestInit): Promise<Response> {
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
  if (!response.ok) {
    const error = ((await response.json().catch(() => null)) as ErrorResponse | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'HTTP_ERROR',
      response.status >= 500 || !error ? MESSAGES.genericError : error.message,
    );
  }
  return response;
}

async function json<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  return (await response.json().catch(() => null)) as T;
}

/**
 * JSON over fetch with the bearer token, to a path written by hand. Prefer `call` with a declared
 * endpoint: its path, inputs and answer are typed from the contract the server registers.
 */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  return json<T>(await send(path, init));
}

export type CallOptions<E extends EndpointDefinition> = EndpointInput<E> & { signal?: AbortSignal | undefined };

/**
 * Calls a declared endpoint: the URL comes from its path and params, the query and body from its
 * schemas, and the answer has its declared success type (the JSON behind a redirect it follows).
 */
export async function call<E extends EndpointDefinition>(
  endpoint: E,
  ...[options]: EndpointTakesInput<E> extends true ? [CallOptions<E>] : [CallOptions<E>?]
): Promise<EndpointResponse<E>> {
  const input = (options ?? {}) as { params?: object; query?: object; body?: unknown; signal?: AbortSignal };
  const response = await send(endpointUrl(endpoint, input.params, input.query), {
    method: endpoint.method,
    body: input.body,
    signal: input.signal,
  });
  return json<EndpointResponse<E>>(response);
}

/** A declared endpoint that answers with a file (a rendered PDF, say), with the file name the server gave it. */
export async function callFile<E extends EndpointDefinition>(
  endpoint: E,
  options: CallOptions<E>,
): Promise<{ blob: Blob; fileName: string | null }> {
  const input = options as { params?: object; query?: object; body?: unknown; signal?: AbortSignal };
  const response = await send(endpointUrl(endpoint, input.params, input.query), {
    method: endpoint.method,
    body: input.body,
    signal: input.signal,
  });
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  return { blob: await response.blob(), fileName: encoded ? decodeURIComponent(encoded) : null };
}
