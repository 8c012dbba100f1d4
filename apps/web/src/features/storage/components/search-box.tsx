import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFolder, IconMusic, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { LIMITS } from '@mixroom/shared';
import { useSearch } from '../queries';

/** Autocomplete over every folder and project the user can reach (debounced 500 ms). */
export function SearchBox({
  onPick,
}: {
  onPick: (hit: { kind: 'group' | 'project'; id: string; parentId: string | null }) => void;
}) {
  const [value, setValue] = useState('');
  const [debounced] = useDebouncedValue(value.trim(), LIMITS.searchDebounceMs);
  const search = useSearch(debounced);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const hits = debounced ? (search.data?.items ?? []) : [];

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const hit = hits.find((h) => h.id === id);
        combobox.closeDropdown();
        if (hit) onPick(hit);
        setValue('');
      }}
      withinPortal
    >
      <Combobox.Target>
        <TextInput
          placeholder="Search"
          aria-label="Search"
          leftSection={<IconSearch size={16} />}
          rightSection={search.isFetching ? <Loader size={14} /> : null}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          w={{ base: '100%', sm: 260 }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!debounced}>
        <Combobox.Options mah={360} style={{ overflowY: 'auto' }}>
          {hits.length === 0 && !search.isFetching && <Combobox.Empty>Nothing matches “{debounced}”</Combobox.Empty>}
          {hits.map((hit) => (
            <Combobox.Option value={hit.id} key={hit.id}>
              <Group gap="xs" wrap="nowrap">
                {hit.kind === 'group' ? <IconFolder size={16} /> : <IconMusic size={16} />}
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" truncate>
                    {hit.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    in {hit.parentName ?? 'Home'}
                  </Text>
                </div>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
