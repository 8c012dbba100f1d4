import { Avatar, Tooltip } from '@mantine/core';
import type { StorageItem } from '@mixroom/contracts';

type Person = StorageItem['publisher'];

/** How many avatars a tile or the project view shows; the rest are counted. */
const SHOWN = 8;

/** The publisher first, then the collaborators, at most eight avatars and a "+N" for the others. */
export function PeopleAvatars({
  publisher,
  collaborators,
  size,
}: {
  publisher: Person;
  collaborators: Person[];
  size: number;
}) {
  const people = [publisher, ...collaborators.filter((p) => p.id !== publisher.id)];
  const shown = people.length > SHOWN ? people.slice(0, SHOWN - 1) : people;
  const hidden = people.length - shown.length;
  return (
    <Avatar.Group
      spacing={size / 4}
      data-testid="people"
      aria-label={`People: ${people.map((p) => p.displayName).join(', ')}`}
    >
      {shown.map((person, index) => (
        <Tooltip
          key={person.id}
          label={index === 0 ? `${person.displayName} (Publisher)` : person.displayName}
          withinPortal
        >
          <Avatar
            size={size}
            radius="xl"
            src={person.photoUrl}
            name={person.displayName}
            alt={person.displayName}
            color="initials"
          />
        </Tooltip>
      ))}
      {hidden > 0 && (
        <Tooltip
          label={people
            .slice(shown.length)
            .map((p) => p.displayName)
            .join(', ')}
          withinPortal
        >
          <Avatar size={size} radius="xl">
            +{hidden}
          </Avatar>
        </Tooltip>
      )}
    </Avatar.Group>
  );
}
