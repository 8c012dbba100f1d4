import type { Me } from '@mixroom/contracts';

/** Plans that carry data (storage and transfers); the live plans do not lift transfer limits. */
const DATA_PLANS = new Set(['ESSENTIAL', 'STUDIO']);

/** Whether the user holds an active paid data plan (then the upgrade hint is not shown). */
export const hasDataPlan = (me: Pick<Me, 'plans'>) => me.plans.some((p) => p.active && DATA_PLANS.has(p.sku));
