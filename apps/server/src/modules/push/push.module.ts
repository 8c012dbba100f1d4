import type { AppConfig } from '../../config/config';
import { PushService } from '../../platform/push/push.service';
import { pushEndpointPolicy } from '../../platform/push/push-endpoint';
import type { SecretsRepository } from '../../platform/secrets/secrets.repository';
import type { AppModule, CoreDeps } from '../module';
import { pushJobs } from './push.jobs';
import { PushRepository } from './push.repository';
import { pushRoutes } from './push.routes';

export type PushModule = AppModule<{ push: PushService; devices: PushRepository }>;

/** Web Push: devices a user registered, and the queued sends that reach them. */
export async function createPushModule(
  core: CoreDeps,
  deps: { secrets: SecretsRepository; wantsPush: (userId: string) => Promise<boolean> },
): Promise<PushModule> {
  const push = await PushService.create(
    deps.secrets,
    pushSubject(core.config),
    pushEndpointPolicy(core.config.pushTest),
  );
  const devices = new PushRepository(core.db, core.clock);
  return {
    name: 'push',
    routes: [(app) => app.register(pushRoutes, { push, devices })],
    jobs: pushJobs(push, devices, deps.wantsPush),
    services: { push, devices },
  };
}

/** VAPID needs a contact: the sender address of mails, else the public URL. */
function pushSubject(config: AppConfig): string {
  const address = /<([^>]+)>/.exec(config.mail.from)?.[1] ?? (config.mail.from.includes('@') ? config.mail.from : null);
  return address ? `mailto:${address}` : config.publicUrl;
}
