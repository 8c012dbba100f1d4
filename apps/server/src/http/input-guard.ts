import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scanInput, type InputIssue } from '@mixroom/shared';
import { AppError } from './app-error';

/**
 * The first refused string of a request: a control character or half a surrogate pair in a path
 * parameter, a query value or the parsed body (where free text keeps tabs and line breaks).
 */
export function requestInputIssue(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): InputIssue | null {
  return (
    scanInput(request.params, 'params', false) ??
    scanInput(request.query, 'querystring', false) ??
    scanInput(request.body, 'body', true)
  );
}

/**
 * Refuses such a request with a 400 before any schema or handler sees it. One hook on the root
 * instance covers every route, declared in the endpoint table or not (short links, OIDC, blob
 * URLs), so a new endpoint cannot forget it; a NUL reaching Postgres would answer 500.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const issue = requestInputIssue(request);
    if (issue) throw new AppError(400, 'VALIDATION', issue.message, [issue]);
  });
}
