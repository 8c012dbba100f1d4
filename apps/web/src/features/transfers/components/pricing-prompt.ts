import { modals } from '@mantine/modals';
import { TRANSFER_TEXTS } from '../transfer-rules';

/** Where plans are compared: the settings for a signed-in user, the landing's pricing for a visitor. */
export const pricingPath = (signedIn: boolean) => (signedIn ? '/settings' : '/public/landing#pricing');

/** A limit a bigger plan lifts: says it, and offers to look at the plans. */
export function askToViewPricing(message: string, signedIn: boolean, go: (path: string) => void): void {
  modals.openConfirmModal({
    title: 'Warning',
    centered: true,
    children: `${message} ${TRANSFER_TEXTS.viewPricing}`,
    labels: { confirm: 'View pricing plans', cancel: 'Not now' },
    onConfirm: () => go(pricingPath(signedIn)),
  });
}
