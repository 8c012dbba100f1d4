import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '@mixroom/shared';
import { authEndpoints as endpoints, type AuthConfig } from '@mixroom/contracts';
import { route } from '../../http/endpoint';
import type { SignInService } from './sign-in.service';

export const signInRoutes: FastifyPluginAsyncZod<{
  signIn: SignInService | null;
  authConfig: AuthConfig;
}> = async (app, { signIn, authConfig }) => {
  route(app, endpoints.config, () => authConfig);

  // Local passwords exist only with the embedded provider; an external issuer handles its own.
  if (!signIn) return;

  route(app, endpoints.passwordReset, async (request) => {
    await signIn.requestPasswordReset(request.body.email);
    return { message: MESSAGES.passwordResetSent };
  });
  route(app, endpoints.passwordResetConfirm, async (request) => {
    await signIn.confirmPasswordReset(request.body.token, request.body.password);
    return { message: MESSAGES.passwordChanged };
  });
};
