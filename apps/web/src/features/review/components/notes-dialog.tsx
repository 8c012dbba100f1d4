import { ActionIcon, Button, Group, Loader, Modal, Select, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBlockquote,
  IconBold,
  IconItalic,
  IconList,
  IconListNumbers,
  IconStrikethrough,
  IconUnderline,
} from '@tabler/icons-react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { FontSize, TextStyle } from '@tiptap/extension-text-style';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Version, VersionNote } from '@mixroom/contracts';
import { NOTE_LIMITS, REVIEW_MESSAGES } from '@mixroom/shared';
import { formatDate } from '../../../lib/format/format';
import { notify } from '../../../lib/notify';
import { reviewApi } from '../api';
import { reviewKeys, useNote } from '../queries';
import { downloadBlob } from '../download-blob';

function Toolbar({ editor, disabled }: { editor: Editor; disabled: boolean }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      heading: NOTE_LIMITS.headingLevels.find((level) => e.isActive('heading', { level })) ?? 0,
      size: String((e.getAttributes('textStyle') as { fontSize?: string }).fontSize ?? '').replace('pt', ''),
    }),
  });
  const chain = () => editor.chain().focus();
  const mark = (label: string, active: boolean, icon: React.ReactNode, run: () => void) => (
    <Tooltip label={label} key={label}>
      <ActionIcon
        variant={active ? 'filled' : 'subtle'}
        aria-label={label}
        aria-pressed={active}
        onClick={run}
        disabled={disabled}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Group gap={4} wrap="wrap" p={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Select
        aria-label="Heading"
        w={120}
        size="xs"
        disabled={disabled}
        allowDeselect={false}
        data={[
          { value: '0', label: 'Normal text' },
          ...NOTE_LIMITS.headingLevels.map((l) => ({ value: String(l), label: `Heading ${l}` })),
        ]}
        value={String(state.heading)}
        onChange={(value) => {
          const level = Number(value) as 1 | 2 | 3 | 4 | 5 | 0;
          if (level === 0) chain().setParagraph().run();
          else chain().setHeading({ level }).run();
        }}
      />
      <Select
        aria-label="Font size"
        w={92}
        size="xs"
        disabled={disabled}
        placeholder="Size"
        data={NOTE_LIMITS.fontSizesPt.map((s) => ({ value: String(s), label: `${s} pt` }))}
        value={state.size || null}
        onChange={(value) => (value ? chain().setFontSize(`${value}pt`).run() : chain().unsetFontSize().run())}
        clearable
      />
      {mark('Bold', state.bold, <IconBold size={16} />, () => chain().toggleBold().run())}
      {mark('Italic', state.italic, <IconItalic size={16} />, () => chain().toggleItalic().run())}
      {mark('Underline', state.underline, <IconUnderline size={16} />, () => chain().toggleUnderline().run())}
      {mark('Strikethrough', state.strike, <IconStrikethrough size={16} />, () => chain().toggleStrike().run())}
      {mark('Bulleted list', state.bullet, <IconList size={16} />, () => chain().toggleBulletList().run())}
      {mark('Numbered list', state.ordered, <IconListNumbers size={16} />, () => chain().toggleOrderedList().run())}
      {mark('Quote', state.quote, <IconBlockquote size={16} />, () => chain().toggleBlockquote().run())}
      {mark('Undo', false, <IconArrowBackUp size={16} />, () => chain().undo().run())}
      {mark('Redo', false, <IconArrowForwardUp size={16} />, () => chain().redo().run())}
    </Group>
  );
}

/** Rich-text notes per version: select, edit, save, export as PDF. */
export default function NotesDialog({
  versions,
  initialVersionId,
  onClose,
}: {
  versions: Version[];
  initialVersionId: string;
  onClose: () => void;
}) {
  const [versionId, setVersionId] = useState(initialVersionId);
  const note = useNote(versionId);
  const [dirty, setDirty] = useState(false);

  const unsavedGuard = (proceed: () => void) => {
    if (!dirty) return proceed();
    modals.openConfirmModal({
      title: 'Unsaved changes',
      children: <Text size="sm">{REVIEW_MESSAGES.unsavedNotes}</Text>,
      labels: { confirm: 'Exit anyway', cancel: 'Keep editing' },
      confirmProps: { color: 'red' },
      onConfirm: proceed,
    });
  };
  const close = () => unsavedGuard(onClose);

  return (
    <Modal
      opened
      onClose={close}
      title="Version notes"
      centered
      size="auto"
      styles={{
        content: { maxWidth: '90vw', maxHeight: '90vh', minWidth: 'min(720px, 90vw)' },
        body: { display: 'flex', flexDirection: 'column' },
      }}
    >
      <Stack gap="sm">
        <Select
          label="Version"
          allowDeselect={false}
          data={versions.map((v) => ({ value: v.id, label: `v${v.number} · ${v.name} · ${formatDate(v.createdAt)}` }))}
          value={versionId}
          onChange={(value) =>
            value &&
            value !== versionId &&
            unsavedGuard(() => {
              setDirty(false);
              setVersionId(value);
            })
          }
        />
        {note.data ? (
          <NoteEditor key={versionId} note={note.data} onDirty={setDirty} onClose={close} />
        ) : (
          <Loader size="sm" m="md" />
        )}
      </Stack>
    </Modal>
  );
}

/** The editor of one version's notes; mounted per version so it starts from what was saved. */
function NoteEditor({
  note,
  onDirty,
  onClose,
}: {
  note: VersionNote;
  onDirty: (dirty: boolean) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const saved = useRef('');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState(false);
  const markDirty = (value: boolean) => {
    setDirty(value);
    onDirty(value);
  };

  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, heading: { levels: [...NOTE_LIMITS.headingLevels] } }),
      TextStyle,
      FontSize,
    ],
    content: note.html,
    editable: note.canEdit,
    immediatelyRender: true,
    onCreate: ({ editor: e }) => void (saved.current = e.getHTML()),
    onUpdate: ({ editor: e }) => markDirty(e.getHTML() !== saved.current),
  });

  const save = async () => {
    if (!editor) return;
    setSaving(true);
    try {
      const html = editor.getHTML();
      const result = await reviewApi.saveNote(note.versionId, html);
      queryClient.setQueryData(reviewKeys.note(note.versionId), result);
      saved.current = html;
      markDirty(false);
      notify('success', 'Notes', REVIEW_MESSAGES.notesSaved);
    } catch {
      notify('error', 'Notes', REVIEW_MESSAGES.notesSaveError);
    } finally {
      setSaving(false);
    }
  };

  const exportPdf = async () => {
    if (!editor) return;
    setExporting(true);
    try {
      const { blob, fileName } = await reviewApi.notePdf(note.versionId, editor.getHTML());
      downloadBlob(blob, fileName ?? 'notes.pdf');
    } catch {
      notify('error', 'Notes', 'The PDF could not be created. Please try again.');
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
        {editor && <Toolbar editor={editor} disabled={!note.canEdit} />}
        <div
          style={{ minHeight: 260, maxHeight: '55vh', overflow: 'auto', padding: '4px 14px' }}
          data-testid="notes-editor"
        >
          <EditorContent editor={editor} />
        </div>
      </div>
      {!note.canEdit && (
        <Text size="xs" c="dimmed">
          You can read these notes; editing needs the editor role on this project.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button variant="light" loading={exporting} onClick={() => void exportPdf()}>
          Export as PDF
        </Button>
        {note.canEdit && (
          <Button loading={saving} onClick={() => void save()} disabled={!dirty}>
            Save
          </Button>
        )}
      </Group>
    </>
  );
}
