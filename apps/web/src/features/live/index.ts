// What other features may use of live rooms: the audio engine, the WHEP viewer and its reconnects.
export { LiveEngine } from './live-engine';
export { INITIAL_SNAPSHOT, type EngineSnapshot, type LiveSourceKind } from './live-engine-state';
export { StreamingClient, StreamingFetchError, type MediaGrant, type StreamState } from './streaming-client';
export { Viewer, type ReceivedSlot } from './whep-viewer';
export { BRIDGE_INSTALLER_URL } from './links';
// What the talkback of a live room builds on: the WHIP publisher and the level reading.
export { Publisher } from './whip-publisher';
export { analyserDb, SILENCE_DB } from './audio/level';
