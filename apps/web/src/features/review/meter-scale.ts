/** The meter shows −60 to 0 dBFS. */
export const METER_FLOOR_DB = -60;

/** Broadcast-style zones of a sample-peak meter: green to −18 dBFS, yellow to −6, red above. */
export const METER_ZONES = [
  { upTo: -18, color: '#40c057' },
  { upTo: -6, color: '#fab005' },
  { upTo: 0, color: '#fa5252' },
] as const;

/** Where a level sits along the meter, 0–100. */
export const meterPercent = (db: number) => Math.max(0, Math.min(100, ((db - METER_FLOOR_DB) / -METER_FLOOR_DB) * 100));

/** The colour the meter shows at a level. */
export function meterColor(db: number): string {
  return (METER_ZONES.find((zone) => db <= zone.upTo) ?? METER_ZONES[2]).color;
}

/** The meter's background: hard-edged zones across the whole track, lit up to the level only. */
export function meterGradient(): string {
  let from = 0;
  const stops = METER_ZONES.map((zone) => {
    const to = meterPercent(zone.upTo);
    const stop = `${zone.color} ${from}% ${to}%`;
    from = to;
    return stop;
  });
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}

/** The readout, always as wide: one decimal, or −∞ below the floor. */
export const meterReadout = (db: number) => (db <= METER_FLOOR_DB ? '−∞' : db.toFixed(1));
