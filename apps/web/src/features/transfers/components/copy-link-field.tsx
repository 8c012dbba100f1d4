import { ActionIcon, TextInput, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { notify } from '../../../lib/notify';
import { TRANSFER_TEXTS } from '../transfer-rules';

/** Copies a transfer's link and says so. */
export async function copyTransferLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    notify('success', 'Transfer', TRANSFER_TEXTS.linkCopied);
  } catch {
    notify('warning', 'Transfer', 'The link could not be copied: select it and copy it by hand.');
  }
}

/** A read-only field with the recipient link and a copy button. */
export function CopyLinkField({ url, label = 'Link' }: { url: string; label?: string }) {
  return (
    <TextInput
      label={label}
      value={url}
      readOnly
      onFocus={(e) => e.currentTarget.select()}
      rightSection={
        <Tooltip label="Copy link">
          <ActionIcon variant="subtle" aria-label="Copy link" onClick={() => void copyTransferLink(url)}>
            <IconCopy size={16} />
          </ActionIcon>
        </Tooltip>
      }
    />
  );
}
