import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { MESSAGES, TOOLS_MESSAGES } from '@mixroom/shared';

/** A titled alert with one OK button (the spec's 'Processing tasks', 'Error', 'Warning'). */
export function alertDialog(title: string, message: string): void {
  modals.openConfirmModal({
    title,
    centered: true,
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: 'OK', cancel: '' },
    cancelProps: { display: 'none' },
  });
}

export const busyAlert = () => alertDialog(TOOLS_MESSAGES.busyTitle, TOOLS_MESSAGES.busy);

/** 'Not enough credits' … 'Show subscriptions?': Yes goes to the subscriptions. */
export function noCreditsDialog(onYes: () => void): void {
  modals.openConfirmModal({
    title: TOOLS_MESSAGES.noCreditsTitle,
    centered: true,
    children: <Text size="sm">{TOOLS_MESSAGES.noCredits}</Text>,
    labels: { confirm: 'Yes', cancel: 'No' },
    onConfirm: onYes,
  });
}

export const errorAlert = (message: string = MESSAGES.genericError) => alertDialog(TOOLS_MESSAGES.failedTitle, message);
