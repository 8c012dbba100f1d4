import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP endpoint, declared once: the server registers its route from it (validation, response
 * serialization, OpenAPI) and the web client builds its URL and types from it.
 */
export interface EndpointDefinition {
  method: HttpMethod;
  /** Fastify-style path; `:name` segments are filled from `params`. */
  path: `/${string}`;
  summary: string;
  tags: readonly string[];
  /** Whether the caller must be signed in (a bearer token); shown as the OpenAPI security. */
  auth: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** One schema per status: the success status (the lowest 2xx) and the error statuses it can answer. */
  responses: { readonly [status: number]: z.ZodType };
  /**
   * Answers that are not a JSON document: a redirect to a signed blob URL, or a file streamed with
   * its own content type. Such endpoints declare their inputs; the handler writes the reply itself.
   */
  raw?: 'redirect' | 'file';
  /** For a redirect the web follows and reads: the JSON document found at its target. */
  target?: z.ZodType;
  /** Left out of the OpenAPI document (sign-in interaction steps, blob URLs). */
  hidden?: boolean;
}

/** Declares an endpoint, keeping its literal types for the server and the client. */
export function endpoint<const E extends EndpointDefinition>(definition: E): E {
  return definition;
}

/** A status that carries a successful answer. */
const SUCCESS = [200, 201, 202, 204, 302] as const;

/** The status a successful call answers with: the lowest success status declared (200 by default). */
export function successStatus(definition: EndpointDefinition): number {
  return (
    SUCCESS.find((status) => definition.responses[status] !== undefined) ?? (definition.raw === 'redirect' ? 302 : 200)
  );
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Responses<E extends EndpointDefinition> = E['responses'];

/** What the web receives on success: the 200/201/202 document, nothing for 204, the target of a redirect. */
export type EndpointResponse<E extends EndpointDefinition> =
  Responses<E> extends { 200: infer S }
    ? Output<S>
    : Responses<E> extends { 201: infer S }
      ? Output<S>
      : Responses<E> extends { 202: infer S }
        ? Output<S>
        : E['target'] extends z.ZodType
          ? z.output<E['target']>
          : void;

/** What a handler returns on success (the response schema encodes and checks it before it is sent). */
export type EndpointReply<E extends EndpointDefinition> =
  Responses<E> extends { 200: infer S }
    ? Output<S>
    : Responses<E> extends { 201: infer S }
      ? Output<S>
      : Responses<E> extends { 202: infer S }
        ? Output<S>
        : void;

/** The inputs of a call, each present only when the endpoint declares it. */
export type EndpointInput<E extends EndpointDefinition> = (E extends { params: infer P extends z.ZodType }
  ? { params: z.input<P> }
  : { params?: never }) &
  (E extends { query: infer Q extends z.ZodType } ? { query: z.input<Q> } : { query?: never }) &
  (E extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : { body?: never });

/** Whether a call needs an input object at all. */
export type EndpointTakesInput<E extends EndpointDefinition> = E extends
  { params: z.ZodType } | { query: z.ZodType } | { body: z.ZodType }
  ? true
  : false;

/** The validated inputs a handler receives. */
export interface EndpointRequestShape<E extends EndpointDefinition> {
  Params: E extends { params: infer P extends z.ZodType } ? z.output<P> : undefined;
  Querystring: E extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
  Body: E extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
}

type QueryValue = string | number | boolean | null | undefined;

/** The URL of a call: `:name` segments filled (encoded) from params, defined query values appended. */
export function endpointUrl(definition: EndpointDefinition, params?: object, query?: object): string {
  const values = (params ?? {}) as Record<string, QueryValue>;
  const path = definition.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null)
      throw new Error(`${definition.method} ${definition.path}: missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, QueryValue>)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const encoded = search.toString();
  return encoded ? `${path}?${encoded}` : path;
}
