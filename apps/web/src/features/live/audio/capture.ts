import { musicCaptureConstraints } from '../opus-sdp';

export interface AudioInput {
  deviceId: string;
  label: string;
}

/** The audio inputs the browser offers (labels appear once capture was allowed). */
export async function listAudioInputs(): Promise<AudioInput[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((device) => device.kind === 'audioinput')
    .map((device, index) => ({ deviceId: device.deviceId, label: device.label || `Input ${index + 1}` }));
}

/** Captures an interface in stereo with echo cancellation, noise suppression and gain control off. */
export function captureInput(deviceId: string | null): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia(musicCaptureConstraints(deviceId));
}
