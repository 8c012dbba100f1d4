import { createCipheriv, createHmac, type KeyObject } from 'node:crypto';

/** RTP version 2, no padding, no extension, no CSRC: the only header the SFU writes. */
const RTP_V2 = 0x80;
export const RTP_HEADER_BYTES = 12;
/** AES_CM_128_HMAC_SHA1_80: an 80-bit HMAC-SHA1 tag after the payload. */
const HMAC_TAG_BYTES = 10;
/** AEAD_AES_128_GCM: a 16-byte GCM tag after the payload. */
const GCM_TAG_BYTES = 16;

/** Scratch for each packet's IV, counter and rollover counter: every use below is synchronous and copied by the cipher. */
const gcmIv = Buffer.alloc(12);
const ctrCounter = Buffer.alloc(16);
const rocBytes = Buffer.alloc(4);

/** One sending direction's session keys, as werift derived them for the negotiated profile. */
export type SrtpSendKeys =
  | { profile: 'aes-cm-hmac-sha1-80'; key: Buffer | KeyObject; salt: Buffer; authKey: Buffer | KeyObject }
  | { profile: 'aead-aes-128-gcm'; key: Buffer | KeyObject; salt: Buffer };

export interface PlainRtp {
  marker: boolean;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

function writeHeader(out: Buffer, rtp: PlainRtp): void {
  out[0] = RTP_V2;
  out[1] = (rtp.marker ? 0x80 : 0) | (rtp.payloadType & 0x7f);
  out.writeUInt16BE(rtp.sequenceNumber, 2);
  out.writeUInt32BE(rtp.timestamp >>> 0, 4);
  out.writeUInt32BE(rtp.ssrc >>> 0, 8);
}

/**
 * One RTP packet as SRTP (RFC 3711 AES counter mode with HMAC-SHA1-80, or RFC 7714 AES-GCM), in
 * one buffer: header, encrypted payload, tag. The SFU sends each forwarded packet once per
 * listener, so this is its inner loop: no header objects, one allocation, the key objects made
 * once per connection. `rolloverCounter` is the sender's count of sequence-number wraps.
 */
export function protectRtp(keys: SrtpSendKeys, rtp: PlainRtp, rolloverCounter: number): Buffer {
  const tagBytes = keys.profile === 'aead-aes-128-gcm' ? GCM_TAG_BYTES : HMAC_TAG_BYTES;
  const payloadEnd = RTP_HEADER_BYTES + rtp.payload.length;
  const out = Buffer.allocUnsafe(payloadEnd + tagBytes);
  writeHeader(out, rtp);
  const header = out.subarray(0, RTP_HEADER_BYTES);

  if (keys.profile === 'aead-aes-128-gcm') {
    // IV: the 12-byte salt XOR (00 00 | SSRC | ROC | SEQ).
    const iv = gcmIv;
    iv.writeUInt16BE(0, 0);
    iv.writeUInt32BE(rtp.ssrc >>> 0, 2);
    iv.writeUInt32BE(rolloverCounter >>> 0, 6);
    iv.writeUInt16BE(rtp.sequenceNumber, 10);
    for (let i = 0; i < 12; i += 1) iv[i]! ^= keys.salt[i]!;
    const cipher = createCipheriv('aes-128-gcm', keys.key, iv);
    cipher.setAAD(header);
    const written = cipher.update(rtp.payload).copy(out, RTP_HEADER_BYTES);
    cipher.final();
    cipher.getAuthTag().copy(out, RTP_HEADER_BYTES + written);
    return out;
  }

  // Counter: the 14-byte salt XOR (0000 | SSRC | ROC | SEQ | 0000), 16 bytes.
  const counter = ctrCounter;
  counter.writeUInt32BE(0, 0);
  counter.writeUInt16BE(0, 14);
  counter.writeUInt32BE(rtp.ssrc >>> 0, 4);
  counter.writeUInt32BE(rolloverCounter >>> 0, 8);
  counter.writeUInt16BE(rtp.sequenceNumber, 12);
  for (let i = 0; i < keys.salt.length; i += 1) counter[i]! ^= keys.salt[i]!;
  createCipheriv('aes-128-ctr', keys.key, counter).update(rtp.payload).copy(out, RTP_HEADER_BYTES);
  // The tag covers the header, the encrypted payload and the rollover counter (not sent).
  rocBytes.writeUInt32BE(rolloverCounter >>> 0, 0);
  const tag = createHmac('sha1', keys.authKey).update(out.subarray(0, payloadEnd)).update(rocBytes).digest();
  tag.copy(out, payloadEnd, 0, HMAC_TAG_BYTES);
  return out;
}
