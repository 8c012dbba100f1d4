import type { PushSubscription } from 'web-push';
import { AppError } from '../../http/app-error';
import { PushEndpointError } from '../../platform/push/push-endpoint';
import type { PushService } from '../../platform/push/push.service';

/** Where device subscriptions are kept (the push repository). */
export interface PushDeviceStore {
  save(userId: string, deviceId: string, subscription: PushSubscription): Promise<void>;
  remove(userId: string, deviceId: string): Promise<void>;
}

/**
 * A user's devices for Web Push. The server will POST to a saved endpoint, so only https push
 * services on public addresses are kept (a clear 400 otherwise).
 */
export class PushDevicesService {
  constructor(
    private readonly push: PushService,
    private readonly store: PushDeviceStore,
  ) {}

  async save(userId: string, deviceId: string, subscription: PushSubscription): Promise<void> {
    try {
      await this.push.assertSendable(subscription.endpoint);
    } catch (error) {
      if (error instanceof PushEndpointError) throw AppError.badRequest(error.message, 'PUSH_ENDPOINT_REFUSED');
      throw error;
    }
    await this.store.save(userId, deviceId, subscription);
  }

  remove(userId: string, deviceId: string): Promise<void> {
    return this.store.remove(userId, deviceId);
  }
}
