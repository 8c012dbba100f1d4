import type { Me } from '@mixroom/contracts';
import { isGrantActive, type PlanSku } from '@mixroom/shared';
import type { PlanGrantRow } from './users.repository';

/** A plan grant as the signed-in user (`/api/me`) and the admin area both show it. */
export function presentGrant(grant: PlanGrantRow, now: Date): Me['plans'][number] {
  return {
    id: grant.id,
    sku: grant.sku as PlanSku,
    startsAt: grant.startsAt.toISOString(),
    endsAt: grant.endsAt?.toISOString() ?? null,
    active: isGrantActive(grant, now),
  };
}
