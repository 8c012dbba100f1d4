import { describe, expect, it } from 'vitest';
import { candidatesOfFragment, describeOffer, musicAnswerSdp, preferStereoOpus } from './opus-sdp';

const answer = [
  'v=0',
  'o=- 1 0 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1;cbr=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'a=mid:1',
  '',
].join('\r\n');

describe('opus SDP for music', () => {
  it('writes stereo, the bitrate, FEC on and DTX off into the answer, and drops RED and CBR', () => {
    const sdp = musicAnswerSdp(answer, { maxAverageBitrate: 320_000 });
    expect(sdp).toContain(
      'a=fmtp:111 minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1;maxaveragebitrate=320000;usedtx=0\r\n',
    );
    expect(sdp).toContain('m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n');
    expect(sdp).not.toMatch(/red|a=fmtp:63|cbr/);
    expect(sdp).toContain('m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=mid:1\r\n');
  });

  it('adds an fmtp line when the answer has none', () => {
    const bare = answer.replace('a=fmtp:111 minptime=10;useinbandfec=1;cbr=1\r\n', '');
    expect(musicAnswerSdp(bare, { maxAverageBitrate: 96_000 })).toContain(
      'a=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1;maxaveragebitrate=96000;usedtx=0\r\n',
    );
  });

  it('lets a client ask for stereo in its own offer', () => {
    expect(preferStereoOpus(answer)).toContain(
      'a=fmtp:111 minptime=10;useinbandfec=1;cbr=1;stereo=1;sprop-stereo=1\r\n',
    );
  });

  it('describes the m-lines of an offer and reads trickled candidates', () => {
    expect(describeOffer(answer)).toEqual([
      { kind: 'audio', mid: '0', direction: 'recvonly', rejected: false, hasOpus: true },
      { kind: 'application', mid: '1', direction: 'sendrecv', rejected: false, hasOpus: false },
    ]);
    expect(
      candidatesOfFragment(
        'a=ice-ufrag:x\r\nm=audio 9 RTP/AVP 0\r\na=mid:0\r\na=candidate:1 1 udp 1 10.0.0.1 5000 typ host\r\n',
      ),
    ).toEqual([{ candidate: 'candidate:1 1 udp 1 10.0.0.1 5000 typ host', sdpMid: '0' }]);
  });
});
