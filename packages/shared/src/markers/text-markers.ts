import { markerName, toMs, type Marker } from './marker';

const seconds = (ms: number, digits: number) => (ms / 1000).toFixed(digits);

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/**
 * A cell a spreadsheet shows as text: one starting with = + - @ (or a tab or carriage return, which
 * spreadsheets skip before reading a formula) would run as a formula in the publisher's spreadsheet
 * (`=HYPERLINK(…)`), so it gets the single quote spreadsheets take as "this is text". Only for the
 * spreadsheet CSV: a DAW reads marker names literally, and a quote there would show in the name.
 */
export const spreadsheetText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * Reaper's Region/Marker Manager CSV: markers as M1, M2…, range comments as regions R1, R2… with
 * their end and length; times in seconds to the millisecond.
 */
export function reaperMarkers(markers: Marker[], offsetMs = 0): string {
  let m = 0;
  let r = 0;
  const rows = markers.map((marker) => {
    const start = toMs(marker.start, offsetMs);
    if (marker.end === null) return [`M${++m}`, field(markerName(marker)), seconds(start, 3), '', ''].join(',');
    const end = toMs(marker.end, offsetMs);
    return [`R${++r}`, field(markerName(marker)), seconds(start, 3), seconds(end, 3), seconds(end - start, 3)].join(
      ',',
    );
  });
  return ['#,Name,Start,End,Length', ...rows].join('\r\n') + '\r\n';
}

/** An Audacity label track: start, end and label separated by tabs (a point has end = start). */
export function audacityLabels(markers: Marker[], offsetMs = 0): string {
  return markers
    .map((marker) => {
      const start = toMs(marker.start, offsetMs);
      const end = marker.end === null ? start : toMs(marker.end, offsetMs);
      return `${seconds(start, 6)}\t${seconds(end, 6)}\t${markerName(marker).replaceAll('\t', ' ')}`;
    })
    .join('\n')
    .concat(markers.length ? '\n' : '');
}

/** A plain CSV for spreadsheets: time, end, author, text, replies, resolved. */
export function plainCsvMarkers(markers: Marker[], offsetMs = 0): string {
  const rows = markers.map((marker) =>
    [
      seconds(toMs(marker.start, offsetMs), 3),
      marker.end === null ? '' : seconds(toMs(marker.end, offsetMs), 3),
      field(spreadsheetText(marker.author)),
      field(spreadsheetText(marker.text)),
      String(marker.replies),
      marker.resolved ? 'yes' : 'no',
    ].join(','),
  );
  return ['time,end,author,text,replies,resolved', ...rows].join('\r\n') + '\r\n';
}
