import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { interactionEndpoints as endpoints } from '@mixroom/contracts';
import { AppError } from '../../http/app-error';
import { route } from '../../http/endpoint';
import type { SignInService } from './sign-in.service';

/**
 * The embedded provider's interaction endpoints. They live under /oidc/interaction/{uid} because
 * the provider's interaction cookie is scoped to that path. The sign-in screen itself is the web
 * app (served for the GET), so it has Mixroom's look.
 */
export const interactionRoutes: FastifyPluginAsyncZod<{
  provider: Provider;
  signIn: SignInService;
  serveApp: (reply: FastifyReply) => Promise<unknown>;
}> = async (app, { provider, signIn, serveApp }) => {
  const details = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      throw new AppError(410, 'INTERACTION_EXPIRED', 'This sign-in page has expired. Please start again.');
    }
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, accountId: string) => {
    const redirectTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId, remember: true } },
      { mergeWithLastSubmission: false },
    );
    return { redirectTo };
  };

  // Consent for our own client is implied: grant what it asks and continue without a screen.
  route(app, endpoints.page, async (request, reply) => {
    const interaction = await details(request, reply).catch(() => null);
    if (interaction?.prompt.name !== 'consent') {
      await serveApp(reply);
      return reply;
    }
    const { prompt, params: authParams, session } = interaction;
    const grant = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : new provider.Grant({ accountId: session?.accountId ?? '', clientId: String(authParams.client_id) });
    if (!grant) throw AppError.badRequest('Unknown grant.');
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    reply.hijack();
    await provider.interactionFinished(
      request.raw,
      reply.raw,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    return reply;
  });

  route(app, endpoints.details, async (request, reply) => {
    const interaction = await details(request, reply);
    return {
      uid: interaction.uid,
      prompt: interaction.prompt.name,
      clientName: 'Mixroom',
      signedInEmail: null,
      screen: interaction.params.screen === 'signup' ? ('signup' as const) : ('signin' as const),
    };
  });

  route(app, endpoints.login, async (request, reply) => {
    await details(request, reply);
    const user = await signIn.signIn(request.body, request.ip);
    return finish(request, reply, user.id);
  });

  route(app, endpoints.signup, async (request, reply) => {
    await details(request, reply);
    const outcome = await signIn.signUp(request.body, request.ip);
    if (outcome.kind === 'check-mail') return { message: outcome.message };
    return finish(request, reply, outcome.user.id);
  });

  route(app, endpoints.abort, async (request, reply) => {
    await details(request, reply);
    const redirectTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { error: 'access_denied', error_description: 'Sign-in cancelled' },
      { mergeWithLastSubmission: false },
    );
    return { redirectTo };
  });
};
