/**
 * A small tolerant reader for the few XML answers drives need (WebDAV multistatus, S3 listings):
 * elements are found by local name whatever their namespace prefix. It reads only what the drives
 * ask for; it is no general XML parser (no DTDs, no entities beyond the predefined and numeric ones).
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
      if (name[0] === '#')
        return String.fromCodePoint(
          name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
        );
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

const escapeName = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The inner XML of every element named `name` (any prefix) in `xml`, in order. */
export function elements(xml: string, name: string): string[] {
  const pattern = new RegExp(
    `<(?:[\\w.-]+:)?${escapeName(name)}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${escapeName(name)}\\s*>)`,
    'gi',
  );
  return [...xml.matchAll(pattern)].map((m) => m[1] ?? '');
}

/** The decoded text of the first element named `name`, or null when there is none. */
export function text(xml: string, name: string): string | null {
  const [first] = elements(xml, name);
  return first === undefined ? null : decodeXml(first.trim());
}

/** Whether an element named `name` appears (e.g. `<d:collection/>`). */
export function has(xml: string, name: string): boolean {
  return elements(xml, name).length > 0;
}
