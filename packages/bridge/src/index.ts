export { startBridge, type Bridge, type BridgeOptions } from './bridge.ts';
export { Capture, type CaptureOptions } from './capture.ts';
export { captureArgs, describeSource, locateFfmpeg, type Source } from './ffmpeg.ts';
export { DEFAULT_ORIGINS, hostAllowed, originAllowed } from './origin.ts';
export * from './protocol.ts';
