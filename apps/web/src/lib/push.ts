import { api } from './api-client';

const DEVICE_KEY = 'mixroom.deviceId';

function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** Asks permission, subscribes this browser to Web Push and saves the subscription as this device's token. */
export async function enablePush(): Promise<'enabled' | 'denied' | 'unsupported'> {
  if (!pushSupported()) return 'unsupported';
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const registration = await navigator.serviceWorker.register('/sw.js');
  const { publicKey } = await api<{ publicKey: string }>('/api/push/public-key');
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  await api(`/api/push/devices/${deviceId()}`, { method: 'PUT', body: { subscription: subscription.toJSON() } });
  return 'enabled';
}

export async function disablePush(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration('/sw.js');
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
  await api(`/api/push/devices/${deviceId()}`, { method: 'DELETE' });
}

export async function pushEnabled(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  const registration = await navigator.serviceWorker.getRegistration('/sw.js');
  return Boolean(await registration?.pushManager.getSubscription());
}
