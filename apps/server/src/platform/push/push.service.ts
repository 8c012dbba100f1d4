import webpush, { type PushSubscription } from 'web-push';
import type { SecretsRepository } from '../secrets/secrets.repository';

export interface PushMessage {
  title: string;
  body: string;
  url: string;
}

export interface PushTarget {
  deviceId: string;
  subscription: PushSubscription;
}

/**
 * Web Push with VAPID keys generated on first start and kept in the database (shared by nodes).
 * Returns the devices whose subscription is gone, so the caller can forget them.
 */
export class PushService {
  private constructor(
    readonly publicKey: string,
    private readonly privateKey: string,
    private readonly subject: string,
  ) {}

  static async create(secrets: SecretsRepository, subject: string): Promise<PushService> {
    const keys = await secrets.getOrCreate('push.vapid', () => webpush.generateVAPIDKeys());
    return new PushService(keys.publicKey, keys.privateKey, subject);
  }

  async send(targets: PushTarget[], message: PushMessage): Promise<{ gone: string[] }> {
    const gone: string[] = [];
    for (const target of targets) {
      // web-push encrypts and signs; fetch sends (so any push service URL works, https or not).
      const request = webpush.generateRequestDetails(target.subscription, JSON.stringify(message), {
        vapidDetails: { subject: this.subject, publicKey: this.publicKey, privateKey: this.privateKey },
        TTL: 3600,
        contentEncoding: 'aes128gcm',
      });
      const response = await fetch(request.endpoint, { method: request.method, headers: request.headers, body: new Uint8Array(request.body) });
      if (response.status === 404 || response.status === 410) gone.push(target.deviceId);
      else if (!response.ok) throw new Error(`The push service answered ${response.status}`);
    }
    return { gone };
  }
}
