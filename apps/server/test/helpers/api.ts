/** A tiny JSON client for medium tests: status and parsed body of one call. */
export async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; token?: string | null; body?: unknown } = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : null,
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return {
    status: response.status,
    headers: response.headers,
    body: body as Record<string, unknown> & { error?: { code: string; message: string } },
  };
}
