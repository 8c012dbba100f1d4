import { Pill, PillsInput } from '@mantine/core';
import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { notify } from '../../../lib/notify';
import { addEmailChips, TRANSFER_TEXTS } from '../transfer-rules';

/**
 * 'Email to': addresses become chips on Enter, on a comma and when the field is left; a pasted list
 * is split. What is not an address stays in the field with a warning, so it can be fixed.
 */
export function RecipientsInput({
  value,
  onChange,
  disabled,
}: {
  value: string[];
  onChange: (emails: string[]) => void;
  disabled?: boolean;
}) {
  const [typed, setTyped] = useState('');

  const commit = (text: string) => {
    if (!text.trim()) {
      setTyped('');
      return;
    }
    const { chips, invalid } = addEmailChips(value, text);
    if (chips.length !== value.length) onChange(chips);
    setTyped(invalid.join(', '));
    if (invalid.length) notify('warning', TRANSFER_TEXTS.invalidEmailTitle, TRANSFER_TEXTS.invalidEmail);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commit(typed);
      return;
    }
    if (event.key === 'Backspace' && typed === '' && value.length) onChange(value.slice(0, -1));
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!/[,;\s]/.test(text.trim())) return;
    event.preventDefault();
    commit(`${typed}${text}`);
  };

  return (
    <PillsInput label="Email to" description="Press Enter or a comma after each address" disabled={disabled}>
      <Pill.Group>
        {value.map((email) => (
          <Pill
            key={email}
            withRemoveButton
            onRemove={() => onChange(value.filter((e) => e !== email))}
            removeButtonProps={{ 'aria-label': `Remove ${email}`, 'aria-hidden': false }}
            maw="100%"
          >
            {email}
          </Pill>
        ))}
        <PillsInput.Field
          aria-label="Email to"
          placeholder={value.length ? '' : 'name@example.com'}
          value={typed}
          inputMode="email"
          onChange={(event) => setTyped(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => commit(typed)}
        />
      </Pill.Group>
    </PillsInput>
  );
}
