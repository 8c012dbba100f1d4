import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '@mixroom/shared';
import { authEndpoints as endpoints, type AuthConfig } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { AccountsService } from './accounts.service';

export const accountsRoutes: FastifyPluginAsyncZod<{
  accounts: AccountsService | null;
  authConfig: AuthConfig;
}> = async (app, { accounts, authConfig }) => {
  route(app, endpoints.config, () => authConfig);

  // Local passwords exist only with the embedded provider; an external issuer handles its own.
  if (!accounts) return;

  route(app, endpoints.passwordReset, async (request) => {
    await accounts.requestPasswordReset(request.body.email);
    return { message: MESSAGES.passwordResetSent };
  });
  route(app, endpoints.passwordResetConfirm, async (request) => {
    await accounts.confirmPasswordReset(request.body.token, request.body.password);
    return { message: MESSAGES.passwordChanged };
  });
};
