import type { BillingInfo } from '../../access/entitlements';

/** A request the shop sent: the raw body (what the signature covers) and its signature header. */
export interface ShopNotification {
  rawBody: string;
  signature: string | undefined;
}

/**
 * Where a server's plans come from. Either way plans end up as grants on the user, which the
 * entitlements merge; providers differ in how a grant is made and what the settings screen offers.
 */
export interface BillingProvider {
  readonly info: BillingInfo;
  /** Applies a notification from the provider; null when the provider sends none. */
  readonly receive: ((notification: ShopNotification) => Promise<{ outcome: string }>) | null;
}

/** The default: an administrator grants and revokes plans in the admin area; there is nothing to buy. */
export const adminAssignedProvider: BillingProvider = {
  info: { provider: 'admin', shopUrl: null },
  receive: null,
};
