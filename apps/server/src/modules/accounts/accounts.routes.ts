import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '@mixroom/shared';
import { authConfigResponse, errorResponse, messageResponse, passwordResetConfirmBody, passwordResetRequestBody, type AuthConfig } from '@mixroom/contracts';
import type { AccountsService } from './accounts.service';

export const accountsRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService | null; authConfig: AuthConfig }> = async (app, { accounts, authConfig }) => {
  app.get(
    '/api/auth/config',
    { schema: { tags: ['auth'], summary: 'Identity settings for the web client', response: { 200: authConfigResponse } } },
    () => authConfig,
  );

  // Local passwords exist only with the embedded provider; an external issuer handles its own.
  if (!accounts) return;

  app.post(
    '/api/auth/password-reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a password-reset link by e-mail',
        body: passwordResetRequestBody,
        response: { 202: messageResponse, 400: errorResponse },
      },
    },
    async (request, reply) => {
      await accounts.requestPasswordReset(request.body.email);
      return reply.status(202).send({ message: MESSAGES.passwordResetSent });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password with a reset token',
        body: passwordResetConfirmBody,
        response: { 200: messageResponse, 400: errorResponse },
      },
    },
    async (request) => {
      await accounts.confirmPasswordReset(request.body.token, request.body.password);
      return { message: MESSAGES.passwordChanged };
    },
  );
};
