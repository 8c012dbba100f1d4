import { randomUUID } from 'node:crypto';
import type { EndpointDefinition } from '@mixroom/contracts';
import type { z } from 'zod';

/**
 * Requests for the fuzz suite, built from the endpoint table alone: a plausible value for every
 * declared input (so a request can get past its schema), then one input at a time made hostile.
 */

type Def = {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  defaultValue?: unknown;
  checks?: { _zod: { def: { check: string; minimum?: number; value?: number } } }[];
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The keys of an object schema, through optional/default/pipe wrappers; none for anything else. */
export function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  for (let at = schema, hops = 0; at && hops < 8; hops++) {
    const def = defOf(at);
    if (def.type === 'object') return def.shape ?? {};
    at = def.innerType ?? def.in;
  }
  return {};
}

const minimum = (def: Def) =>
  Math.max(
    0,
    ...(def.checks ?? [])
      .map((check) => check._zod.def)
      .filter((check) => check.check === 'min_length' || check.check === 'greater_than')
      .map((check) => check.minimum ?? check.value ?? 0),
  );

/** A value the schema would likely accept (formats, enums, literals, minimum lengths), depth-bounded. */
export function plausible(schema: z.ZodType, depth = 0): unknown {
  const def = defOf(schema);
  if (depth > 6) return null;
  switch (def.type) {
    case 'string':
      if (def.format === 'uuid' || def.format === 'guid') return randomUUID();
      if (def.format === 'email') return `fuzz-${depth}@fuzz.test`;
      if (def.format === 'url') return 'https://fuzz.test/x';
      if (def.format === 'datetime') return '2027-01-01T00:00:00Z';
      return 'f'.repeat(Math.max(1, Math.min(minimum(def), 64))) + (minimum(def) > 64 ? 'f'.repeat(minimum(def)) : '');
    case 'number':
    case 'int':
      return Math.max(1, minimum(def));
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0] ?? 'x';
    case 'literal':
      return def.values?.[0] ?? null;
    case 'array':
      return def.element && minimum(def) > 0 ? [plausible(def.element, depth + 1)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
    case 'record':
      return {};
    case 'union':
      return def.options?.[0] ? plausible(def.options[0], depth + 1) : null;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? plausible(def.innerType, depth + 1) : null;
    case 'pipe':
      return def.in ? plausible(def.in, depth + 1) : null;
    default:
      return null;
  }
}

let nested: unknown = 'deep\u0000';
for (let i = 0; i < 2000; i++) nested = [nested];

/** Values of the wrong kind, malformed, huge, or carrying NUL, controls, bidi marks or broken text. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  -1e308,
  true,
  [],
  { nested: { deeper: ['x'] } },
  'a\u0000b',
  'x\uD800y',
  'evil\u202Egnp.exe',
  'ad\u200Bmin\u3164',
  '\u0085\u009B[31m',
  '. .',
  '../../etc/passwd',
  'x'.repeat(100_000),
  '+275760-09-13T00:00:00Z',
  Number.MAX_SAFE_INTEGER + 2,
  nested,
];

/** Hostile URL segments and query values, already encoded (some are not valid UTF-8 on purpose). */
export const HOSTILE_URL_VALUES: readonly string[] = [
  '%00',
  'ab%00cd',
  '%E2%80%AE',
  '%ED%A0%80',
  '%FF%FE',
  '%C2%85',
  'x'.repeat(3000),
  '..%2F..%2Fetc',
  '-1',
  '1e309',
];

export interface FuzzRequest {
  method: string;
  url: string;
  body?: string;
  contentType?: string;
  what: string;
}

const segment = (value: unknown) => encodeURIComponent(String(value));

/** The URL of an endpoint with plausible params and query, one of them replaced by an encoded value. */
function urlWith(definition: EndpointDefinition, override?: { where: 'params' | 'query'; key: string; raw: string }) {
  const params = shapeOf(definition.params);
  const path = definition.path.replace(/:(\w+)/g, (_m, name: string) =>
    override?.where === 'params' && override.key === name
      ? override.raw
      : segment(params[name] ? plausible(params[name]) : 'x'),
  );
  const query = Object.entries(shapeOf(definition.query)).map(([key, schema]) =>
    override?.where === 'query' && override.key === key
      ? `${key}=${override.raw}&${key}=${override.raw}`
      : `${key}=${segment(plausible(schema))}`,
  );
  if (override?.where === 'query' && !(override.key in shapeOf(definition.query)))
    query.push(`${override.key}=${override.raw}`);
  return query.length ? `${path}?${query.join('&')}` : path;
}

/**
 * The requests for one endpoint: hostile path parameters and query values, a plausible body with
 * one field at a time hostile, bodies of the wrong kind and malformed JSON. `limit` caps how many,
 * spreading the hostile values over the inputs rather than trying every pair.
 */
export function fuzzRequests(definition: EndpointDefinition, limit: number): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  const method = definition.method;
  const bodyShape = shapeOf(definition.body);
  const baseBody = definition.body ? plausible(definition.body) : undefined;
  const json = (body: unknown) => JSON.stringify(body);
  const withBody = definition.body !== undefined;
  const plainBody = withBody ? json(baseBody) : undefined;
  let pick = 0;
  const nextUrlValue = () => HOSTILE_URL_VALUES[pick++ % HOSTILE_URL_VALUES.length]!;
  const nextValue = () => HOSTILE_VALUES[pick++ % HOSTILE_VALUES.length];

  for (const key of Object.keys(shapeOf(definition.params)))
    for (let i = 0; i < 3; i++) {
      const raw = nextUrlValue();
      requests.push({
        method,
        url: urlWith(definition, { where: 'params', key, raw }),
        body: plainBody,
        what: `params.${key}=${raw.slice(0, 20)}`,
      });
    }
  for (const key of [...Object.keys(shapeOf(definition.query)), 'unexpected'])
    for (let i = 0; i < 2; i++) {
      const raw = nextUrlValue();
      requests.push({
        method,
        url: urlWith(definition, { where: 'query', key, raw }),
        body: plainBody,
        what: `query.${key}=${raw.slice(0, 20)}`,
      });
    }
  if (withBody) {
    const url = urlWith(definition);
    for (const key of Object.keys(bodyShape))
      for (let i = 0; i < 3; i++) {
        const value = nextValue();
        const body = { ...(baseBody as Record<string, unknown>), [key]: value };
        requests.push({ method, url, body: json(body), what: `body.${key}=${json(value)?.slice(0, 20)}` });
      }
    requests.push({ method, url, body: plainBody, what: 'plausible body' });
    for (const body of ['null', '[]', '"text"', '{"a":', '{"__proto__":{"admin":true}}', json({ x: nested })])
      requests.push({ method, url, body, what: `body ${body.slice(0, 20)}` });
    requests.push({ method, url, body: 'name=x', contentType: 'application/x-www-form-urlencoded', what: 'form body' });
  } else {
    requests.push({ method, url: urlWith(definition), what: 'plausible' });
  }
  // Spread over the kinds of request rather than keeping only the first ones.
  if (requests.length <= limit) return requests;
  const step = requests.length / limit;
  return Array.from({ length: limit }, (_, i) => requests[Math.floor(i * step)]!);
}
