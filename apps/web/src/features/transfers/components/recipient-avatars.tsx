import { Avatar, Tooltip } from '@mantine/core';

/** How many recipients a tile shows; the others are counted in a '+N'. */
const SHOWN = 3;

/** The recipients of a transfer as initials: at most three, then '+N' for the rest. */
export function RecipientAvatars({ emails, size = 28 }: { emails: string[]; size?: number }) {
  if (emails.length === 0) return null;
  const shown = emails.slice(0, SHOWN);
  const hidden = emails.slice(SHOWN);
  return (
    // A small overlap keeps each avatar's initials readable.
    <Avatar.Group spacing={size / 8} aria-label={`Sent to ${emails.join(', ')}`} data-testid="recipients">
      {shown.map((email) => (
        <Tooltip key={email} label={email} withinPortal>
          <Avatar size={size} radius="xl" name={email} color="initials" alt={email} />
        </Tooltip>
      ))}
      {hidden.length > 0 && (
        <Tooltip label={hidden.join(', ')} withinPortal multiline maw={280}>
          <Avatar size={size} radius="xl">
            +{hidden.length}
          </Avatar>
        </Tooltip>
      )}
    </Avatar.Group>
  );
}
