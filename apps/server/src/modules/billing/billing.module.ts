import type { AppModule, CoreDeps } from '../module';
import { adminAssignedProvider, type BillingProvider } from './billing-provider';
import { BillingRepository } from './billing.repository';
import { billingRoutes } from './billing.routes';
import { ShopWebhookService } from './billing.service';
import { PlanEndings } from './plan-endings';

export type BillingModule = AppModule<{ provider: BillingProvider; planEndings: PlanEndings }>;

/**
 * How users obtain plans: from an administrator (the default), or from an external shop whose
 * signed webhook events turn subscriptions into plan grants (when BILLING_WEBHOOK_SECRET is set).
 */
export function createBillingModule(core: CoreDeps): BillingModule {
  const { webhookSecret, shopUrl } = core.config.billing;
  const repository = new BillingRepository(core.db);
  const planEndings = new PlanEndings({ repository, clock: core.clock, bus: core.bus });
  const provider = webhookSecret
    ? new ShopWebhookService({
        repository,
        clock: core.clock,
        bus: core.bus,
        secret: webhookSecret,
        shopUrl,
      }).provider()
    : adminAssignedProvider;
  return {
    name: 'billing',
    routes: [(app) => app.register(billingRoutes, { provider })],
    jobs: [planEndings.job()],
    services: { provider, planEndings },
  };
}
