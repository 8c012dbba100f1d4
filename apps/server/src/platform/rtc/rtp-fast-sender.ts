import { createSecretKey, type KeyObject } from 'node:crypto';
import type { Socket } from 'node:dgram';
import { ntpTime, type RTCRtpSender } from 'werift';
import type { DatagramLoss } from './datagram-loss';
import { protectRtp, RTP_HEADER_BYTES, type SrtpSendKeys } from './srtp-protect';

/**
 * What this path reads and writes of werift 0.25's sender beyond its typed surface: the sender
 * report's counters (werift's RTCP loop reads them), its SRTP context's rollover state, and the
 * ICE pair's UDP socket. rtp-fast-sender.test.ts pins each of them against werift's own path.
 */
interface SenderReportFields {
  packetCount: number;
  octetCount: number;
  headerBytesSent: number;
  ntpTimestamp: bigint;
  rtpTimestamp: number;
}
interface CipherFields {
  srtpSessionKey?: Buffer | KeyObject;
  srtpSessionSalt?: Buffer;
  srtpSessionAuthTag?: Buffer | KeyObject;
  aeadAuthTagLen?: number;
}
interface UdpPair {
  protocol: { type: string; transport?: { socket?: Socket; closed?: boolean } };
  remoteAddr: readonly [string, number];
  packetsSent: number;
  bytesSent: number;
}

function asKeyObject(key: Buffer | KeyObject | undefined): KeyObject | undefined {
  return Buffer.isBuffer(key) ? createSecretKey(key) : key;
}

/** The sender report's (NTP, RTP) pair is refreshed this often: any recent consistent pair is right. */
const REPORT_CLOCK_EVERY_MS = 100;

/**
 * Sends one outgoing audio stream of a werift RTCRtpSender without werift's per-packet path.
 * The SFU sends every packet once per listener; werift's sender clones the packet, rebuilds its
 * header and extensions, awaits three nested promises and looks up the address before each UDP
 * send, which costs several times the encryption itself. This writes the RTP header and SRTP in
 * one buffer (srtp-protect.ts), keeps werift's rollover state and sender-report counters, and
 * hands the datagram to the nominated pair's socket. Audio only: the SFU negotiates no NACK or
 * header extensions for audio, so nothing needs werift's packet history. Anything it does not
 * recognise (TURN or TCP pairs, an unknown SRTP profile) goes through werift's own path.
 */
export class RtpFastSender {
  private keys: SrtpSendKeys | undefined;
  private keysOf: object | undefined;
  private reportClockAt = -Infinity;
  private rtcpStarted = false;

  constructor(
    private readonly sender: RTCRtpSender,
    /** Tests and benches only: the peer's deliberate loss (datagram-loss.ts), applied here too. */
    private readonly loss: DatagramLoss | undefined,
    private readonly connected: () => boolean,
  ) {}

  /**
   * Sends the packet; false when this path cannot (werift's own path must, or drops it as werift
   * would before it is connected).
   */
  send(marker: boolean, sequenceNumber: number, timestamp: number, payload: Buffer, nowMs: number): boolean {
    const { sender } = this;
    const transport = sender.dtlsTransport;
    const codec = sender.codec;
    if (sender.stopped || !codec || transport?.state !== 'connected') return false;
    const context = transport.srtp?.localContext;
    const keys = context && this.keysFor(context.cipher);
    const pair = transport.iceTransport.connection.nominated as unknown as UdpPair | undefined;
    const socket = pair?.protocol.type === 'stun' ? pair.protocol.transport?.socket : undefined;
    if (!context || !keys || !pair || !socket) return false;
    if (pair.protocol.transport?.closed) return true;

    const ssrc = sender.ssrc;
    const state = context.getSrtpSsrcState(ssrc);
    context.updateRolloverCount(sequenceNumber, state);
    const packet = protectRtp(
      keys,
      { marker, payloadType: codec.payloadType ?? 111, sequenceNumber, timestamp, ssrc, payload },
      state.rolloverCounter,
    );
    this.count(payload.length, timestamp, nowMs);
    transport.bytesSent += packet.length;
    transport.packetsSent += 1;
    if (this.loss && this.connected() && this.loss.drop()) return true;
    socket.send(packet, pair.remoteAddr[1], pair.remoteAddr[0]);
    pair.packetsSent += 1;
    pair.bytesSent += packet.length;
    return true;
  }

  /**
   * The session keys as KeyObjects (a Buffer key makes Node build one per packet, several times the
   * cipher's own cost), read again only when werift replaced its cipher (a new DTLS handshake).
   */
  private keysFor(cipher: CipherFields): SrtpSendKeys | undefined {
    if (this.keysOf === cipher) return this.keys;
    const salt = cipher.srtpSessionSalt;
    const key = asKeyObject(cipher.srtpSessionKey);
    const authKey = asKeyObject(cipher.srtpSessionAuthTag);
    this.keysOf = cipher;
    this.keys = undefined;
    if (!key || !salt) return undefined;
    if (cipher.aeadAuthTagLen === 16 && salt.length === 12) this.keys = { profile: 'aead-aes-128-gcm', key, salt };
    else if (authKey && salt.length === 14) this.keys = { profile: 'aes-cm-hmac-sha1-80', key, salt, authKey };
    return this.keys;
  }

  /** What werift's sender reports (RTCP SR) and its stats read. */
  private count(payloadBytes: number, timestamp: number, nowMs: number): void {
    const report = this.sender as unknown as SenderReportFields;
    report.packetCount = (report.packetCount + 1) >>> 0;
    report.octetCount += payloadBytes;
    report.headerBytesSent += RTP_HEADER_BYTES;
    if (nowMs - this.reportClockAt >= REPORT_CLOCK_EVERY_MS) {
      this.reportClockAt = nowMs;
      report.ntpTimestamp = ntpTime();
      report.rtpTimestamp = timestamp;
    }
    if (!this.rtcpStarted) {
      this.rtcpStarted = true;
      void this.sender.runRtcp();
    }
  }
}
