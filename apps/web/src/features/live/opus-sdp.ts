/**
 * The listener's side of stereo Opus: libwebrtc decodes stereo only when its OWN description says
 * `stereo=1`, so a WHEP offer gets `stereo=1;sprop-stereo=1` in every Opus fmtp before
 * setLocalDescription (the server's `preferStereoOpus` makes the same edit).
 */
export function preferStereoOpus(sdp: string): string {
  const lines = sdp.split(/\r?\n/).filter((line) => line.length > 0);
  const out: string[] = [];
  let section: string[] = [];
  const flush = () => {
    if (section[0]?.startsWith('m=audio')) section = stereoSection(section);
    out.push(...section);
    section = [];
  };
  for (const line of lines) {
    if (line.startsWith('m=')) flush();
    section.push(line);
  }
  flush();
  return `${out.join('\r\n')}\r\n`;
}

function stereoSection(section: string[]): string[] {
  const out = [...section];
  const opus = section
    .map((line) => /^a=rtpmap:(\d+) opus\/48000/i.exec(line)?.[1])
    .filter((pt): pt is string => pt !== undefined);
  for (const pt of opus) {
    const prefix = `a=fmtp:${pt} `;
    const index = out.findIndex((line) => line.startsWith(prefix));
    const params = new Map<string, string>();
    if (index >= 0)
      for (const part of out[index]!.slice(prefix.length).split(';')) {
        const [key, ...rest] = part.trim().split('=');
        if (key) params.set(key.toLowerCase(), rest.join('='));
      }
    params.set('stereo', '1');
    params.set('sprop-stereo', '1');
    const line = `${prefix}${[...params].map(([k, v]) => (v === '' ? k : `${k}=${v}`)).join(';')}`;
    if (index >= 0) out[index] = line;
    else out.splice(out.findIndex((l) => l.startsWith(`a=rtpmap:${pt} `)) + 1, 0, line);
  }
  return out;
}

/** The capture constraints for music: stereo, and no speech processing (it ruins music). */
export function musicCaptureConstraints(deviceId?: string | null): MediaStreamConstraints {
  return {
    audio: {
      ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
      channelCount: { ideal: 2 },
      sampleRate: { ideal: 48_000 },
      echoCancellation: false,
      noiseSuppression: false,
      autoGainControl: false,
    },
    video: false,
  };
}
