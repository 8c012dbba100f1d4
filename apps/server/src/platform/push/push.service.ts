import webpush, { type PushSubscription } from 'web-push';
import type { SecretsRepository } from '../secrets/secrets.repository';
import { checkPushEndpoint, PushEndpointError, postToPushEndpoint, type PushEndpointPolicy } from './push-endpoint';

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
 * Endpoints come from browsers, so each is checked (https, public addresses only) before any byte
 * is sent. Returns the devices whose subscription is gone or refused, so the caller can forget them.
 */
export class PushService {
  private constructor(
    readonly publicKey: string,
    private readonly privateKey: string,
    private readonly subject: string,
    private readonly policy: PushEndpointPolicy,
  ) {}

  static async create(secrets: SecretsRepository, subject: string, policy: PushEndpointPolicy): Promise<PushService> {
    const keys = await secrets.getOrCreate('push.vapid', () => webpush.generateVAPIDKeys());
    return new PushService(keys.publicKey, keys.privateKey, subject, policy);
  }

  /** Throws PushEndpointError (a message for the user) when the endpoint may not be contacted. */
  async assertSendable(endpoint: string): Promise<void> {
    await checkPushEndpoint(endpoint, this.policy);
  }

  async send(targets: PushTarget[], message: PushMessage): Promise<{ gone: string[] }> {
    const gone: string[] = [];
    for (const target of targets) {
      // Checked again at send time: a name's addresses may have changed since it was saved.
      let checked;
      try {
        checked = await checkPushEndpoint(target.subscription.endpoint, this.policy);
      } catch (error) {
        if (!(error instanceof PushEndpointError) || !error.permanent) throw error;
        gone.push(target.deviceId);
        continue;
      }
      const request = webpush.generateRequestDetails(target.subscription, JSON.stringify(message), {
        vapidDetails: { subject: this.subject, publicKey: this.publicKey, privateKey: this.privateKey },
        TTL: 3600,
        contentEncoding: 'aes128gcm',
      });
      const status = await postToPushEndpoint(checked, { headers: request.headers, body: request.body }, this.policy);
      if (status === 404 || status === 410) gone.push(target.deviceId);
      else if (status < 200 || status >= 300) throw new Error(`The push service answered ${status}`);
    }
    return { gone };
  }
}
