export interface PickedFile {
  file: File;
  /** Path below the drop point, "Album/Drums/kick.wav"; just the name for a single file. */
  relativePath: string;
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, relativePath: `${prefix}${entry.name}` });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until it returns an empty one.
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, `${prefix}${entry.name}/`, out);
  }
}

/** Files and whole folders from a drop, walked recursively. */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const entries: FileSystemEntry[] = [];
  for (const item of [...data.items]) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
    else {
      // Drops built by scripts (and some browsers) carry files without file-system entries.
      const file = item.getAsFile();
      if (file) out.push({ file, relativePath: file.name });
    }
  }
  for (const entry of entries) await walk(entry, '', out);
  return out;
}

/** Files from an <input type=file> (webkitdirectory gives each file its relative path). */
export function filesFromInput(list: FileList): PickedFile[] {
  return [...list].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}
