import { Combobox, Group, InputBase, useCombobox } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Version } from '@mixroom/contracts';
import classes from './review.module.css';

export const versionLabel = (version: Pick<Version, 'number' | 'name'>) => `v${version.number} · ${version.name}`;

/**
 * The version picker: a select-only combobox whose closed face wraps onto more lines instead of
 * cutting a long version name, so a phone shows the whole "v2 · Mix v2 — louder vocals". Keys as
 * in a select: Enter, Space or the arrows open it, the arrows move, Enter picks, Escape closes.
 */
export function VersionPicker({
  versions,
  value,
  onChange,
  badge,
}: {
  versions: Version[];
  value: number;
  onChange: (number: number) => void;
  /** What each option shows after its label (the version's verdict). */
  badge: (version: Version) => ReactNode;
}) {
  const combobox = useCombobox({
    onDropdownOpen: () => combobox.updateSelectedOptionIndex('active'),
    onDropdownClose: () => combobox.resetSelectedOption(),
  });
  const current = versions.find((v) => v.number === value);
  return (
    <Combobox
      store={combobox}
      position="bottom-start"
      width="max-content"
      onOptionSubmit={(picked) => {
        combobox.closeDropdown();
        if (Number(picked) !== value) onChange(Number(picked));
      }}
    >
      <Combobox.Target targetType="button">
        <InputBase
          component="button"
          type="button"
          pointer
          role="combobox"
          aria-label="Version"
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onClick={() => combobox.toggleDropdown()}
          className={classes.picker}
          classNames={{ input: classes.pickerInput }}
          data-testid="version-picker"
        >
          {current ? versionLabel(current) : ''}
        </InputBase>
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options mah={320} style={{ overflowY: 'auto' }}>
          {versions.map((v) => (
            <Combobox.Option key={v.id} value={String(v.number)} active={v.number === value}>
              <Group gap={6} wrap="nowrap" justify="space-between">
                <span className={classes.pickerOption}>{versionLabel(v)}</span>
                {badge(v)}
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
