import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { creditEndpoints as endpoints } from '@mixroom/contracts';
import { requireActor } from '../../http/authentication';
import { route } from '../../http/endpoint';
import type { CreditsService } from './credits.service';

export const creditsRoutes: FastifyPluginAsyncZod<{ credits: CreditsService }> = async (app, { credits }) => {
  route(app, endpoints.mine, (request) => credits.mine(requireActor(request), request.query));
};
