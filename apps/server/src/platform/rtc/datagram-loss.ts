import type { RTCPeerConnection } from 'werift';

/**
 * Packet loss on purpose, for tests and benches only: the embedded SFU's peers drop this share of
 * the UDP datagrams they receive and send once their connection is up (ICE and DTLS handshakes
 * pass untouched, as they would through a lossy link that let the call start). SRTP packets are
 * simply gone; SCTP (the lossless data channel) must notice and retransmit. The choice is drawn
 * from a seeded generator, so a run is reproducible.
 */
export class DatagramLoss {
  dropped = 0;
  passed = 0;
  private state: number;

  constructor(
    /** Share of datagrams dropped, 0 … 1 (0.02: 2 %). */
    readonly rate: number,
    seed = 0x5eed,
  ) {
    if (!(rate >= 0 && rate < 1)) throw new RangeError('The loss rate must be in [0, 1).');
    this.state = seed >>> 0;
  }

  /** Whether the next datagram goes. */
  drop(): boolean {
    this.state = (Math.imul(this.state, 1_664_525) + 1_013_904_223) >>> 0;
    const lost = this.state / 2 ** 32 < this.rate;
    if (lost) this.dropped += 1;
    else this.passed += 1;
    return lost;
  }

  /** Wraps the peer's ICE connections, both ways; call once its transports exist (after the answer). */
  attach(pc: RTCPeerConnection): void {
    for (const transport of pc.iceTransports) {
      const connection = transport.connection;
      const send = connection.send.bind(connection);
      connection.send = (data) => (pc.connectionState === 'connected' && this.drop() ? Promise.resolve() : send(data));
      const incoming = connection.onData;
      const execute = incoming.execute.bind(incoming);
      incoming.execute = (...args) => {
        if (pc.connectionState === 'connected' && this.drop()) return;
        execute(...args);
      };
    }
  }
}
