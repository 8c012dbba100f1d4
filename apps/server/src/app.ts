import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { APP_VERSION } from '@mixroom/shared';
import type { AppContext } from './context';
import { registerAuthentication } from './http/authentication';
import { registerErrorHandler } from './http/error-handler';
import { registerInputGuard } from './http/input-guard';
import { registerSecurityHeaders } from './http/security-headers';
import { GRANT_CLAIM } from './platform/identity/session-revocations';
import { RealtimeHub } from './platform/realtime/realtime-hub';
import { watchReactions } from './modules/reactions';

const webDist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

export interface HttpApp {
  app: FastifyInstance;
  hub: RealtimeHub;
}

/** The HTTP surface: thin routes over the context's services, the web app, OIDC and realtime. */
export async function createHttpApp(context: AppContext): Promise<HttpApp> {
  const { config, services } = context;
  // pino's Logger is a FastifyBaseLogger; naming the wider type keeps Fastify's generics default.
  const logger: FastifyBaseLogger = context.log;
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    // One line per request only when debugging; failures are logged by the error handler anyway.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    // Client addresses (sign-in limits, logs) come from X-Forwarded-For only when told to trust a proxy.
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerSecurityHeaders(app, config);
  registerInputGuard(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Mixroom API',
        version: APP_VERSION,
        description: 'The REST API of Mixroom. Authenticate with an OIDC access token (Bearer).',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const hasWeb = existsSync(join(webDist, 'index.html'));
  const serveApp = async (reply: FastifyReply) => {
    if (!hasWeb)
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built: run `npm start` from the repository root.');
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html', webDist);
  };
  registerErrorHandler(app, hasWeb ? serveApp : null);
  registerAuthentication(app, context.verifyToken, services.users);

  // Every node answers health checks; only API nodes serve the API, the web app, OIDC and realtime.
  const { parts } = context;
  const surface = { serveApp };
  for (const register of parts.anyNodeRoutes) await register(app, surface);
  if (config.roles.api) {
    for (const register of parts.routes) await register(app, surface);
    if (hasWeb) await registerWebApp(app, serveApp);
  }

  const hub = new RealtimeHub({
    bus: context.bus,
    authorizer: context.topics,
    authenticate: async (token) => {
      const verified = await context.verifyToken(token);
      const actor = await services.users.resolveActor(verified);
      return {
        actor,
        expiresAt: typeof verified.claims.exp === 'number' ? verified.claims.exp * 1000 : null,
        photoUrl: await services.users.photoUrlOf(actor.userId),
        sessionId: typeof verified.claims[GRANT_CLAIM] === 'string' ? verified.claims[GRANT_CLAIM] : null,
      };
    },
    grants: context.grants,
    handlers: parts.clientMessages,
    log: context.log,
    clock: context.clock,
  });
  const stopReactions = watchReactions(context.bus, parts.reactions, context.log);
  app.server.on('upgrade', (request, socket, head) => {
    if (config.roles.api && request.url?.split('?')[0] === '/api/realtime') hub.handleUpgrade(request, socket, head);
    else socket.destroy();
  });
  // While closing, in-flight requests finish, and their keep-alive connections must not outlive
  // them (Fastify only sweeps the connections that are idle when close starts).
  let closing = false;
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('Connection', 'close');
    return payload;
  });
  // WebSockets would hold the HTTP server open: close them before Fastify waits for connections.
  app.addHook('preClose', async () => {
    closing = true;
    stopReactions();
    await hub.close();
  });
  return { app, hub };
}

/** The built web app: hashed assets cached for a year, the page itself revalidated. */
async function registerWebApp(
  app: FastifyInstance,
  serveApp: (reply: FastifyReply) => Promise<unknown>,
): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDist,
    index: false,
    setHeaders: (res, path) => {
      if (path.includes(`${join(webDist, 'assets')}`))
        void res.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  app.get('/', { schema: { hide: true } }, (_request, reply) => serveApp(reply));
}
