// TCP and UDP listeners: framing via the decoder's frame(), decode, hand messages to the writer.
import dgram from 'node:dgram';
import net from 'node:net';
import type { Decoder, Reply } from '../../protocol/types.ts';
import { isDecodeError } from '../../protocol/types.ts';
import { log } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { IngestMessage, Link } from './types.ts';

export interface IngestSink {
  enqueue(m: IngestMessage): void;
  register(l: { pause?(): void; resume?(): void }): () => void;
}

export interface LinkEvents {
  onLink?(link: Link): void;       // a device identified itself on this link
  onLinkClosed?(link: Link): void;
  onAck?(link: Link, m: IngestMessage): void; // a command ack was decoded (handled after commit by the caller)
}

const MAX_PENDING_BYTES = 64 * 1024; // a partial frame larger than this is garbage
let linkSeq = 0;

/** Limits of device connections (see limitsFromEnv in index.ts). 0 disables a limit. */
export interface ConnectionLimits {
  /** A TCP socket silent (nothing received or sent) this long is closed. */
  idleTimeoutMs: number;
  /** A TCP socket that has not identified itself (no valid message) this long after connecting is closed. */
  firstMessageTimeoutMs: number;
  /** Open connections per remote address, over all the gateway's TCP/HTTP ports. */
  maxPerAddress: number;
}

/** Counts open connections per remote address; shared by every listener of one gateway. */
export class AddressLimiter {
  private open = new Map<string, number>();
  private lastLog = 0;
  constructor(readonly max: number, private metrics: GatewayMetrics) {}

  /** Takes a slot for this address; false (and counted) when it is over the cap. */
  acquire(addr: string): boolean {
    const n = this.open.get(addr) ?? 0;
    if (this.max > 0 && n >= this.max) {
      this.metrics.rejectedConnections++;
      const now = Date.now();
      if (now - this.lastLog >= 10_000) {
        this.lastLog = now;
        log.warn({ address: addr, max: this.max, rejected: this.metrics.rejectedConnections }, 'limite de conexões por endereço atingido: conexão recusada');
      }
      return false;
    }
    this.open.set(addr, n + 1);
    return true;
  }

  release(addr: string): void {
    const n = (this.open.get(addr) ?? 0) - 1;
    if (n > 0) this.open.set(addr, n); else this.open.delete(addr);
  }

  count(addr: string): number { return this.open.get(addr) ?? 0; }
}

/** Text to keep for a frame (pending list, logs): ASCII protocols as is, binary as hex. */
export function rawText(frame: Buffer): string {
  for (let i = 0; i < frame.length; i++) {
    const c = frame[i];
    if ((c < 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) || c > 0x7e) return frame.toString('hex');
  }
  return frame.toString('latin1');
}

/** Decodes frames and enqueues messages; shared by TCP and UDP. */
export function handleFrames(frames: Buffer[], link: Link, decoder: Decoder, sink: IngestSink, metrics: GatewayMetrics, ev: LinkEvents): void {
  const now = new Date();
  for (const f of frames) {
    metrics.frames++;
    let r;
    try {
      r = decoder.decode(f, now);
    } catch (err) {
      r = { protocol: decoder.protocol, error: (err as Error).message, errorCode: 'INTERNAL' as const };
    }
    if (isDecodeError(r)) {
      metrics.badFrames++;
      log.warn({ link: link.id, protocol: decoder.protocol, error: r.error, code: r.errorCode, frame: rawText(f).slice(0, 200) }, 'quadro inválido descartado');
      continue;
    }
    metrics.messages++;
    if (link.serial && link.serial !== r.deviceId) {
      // A connection is bound to the first serial it reported: a frame claiming another device would take over
      // that device's commands and acks (another company's, possibly).
      metrics.badFrames++;
      log.warn({ link: link.id, protocol: decoder.protocol, serial: link.serial, claimed: r.deviceId }, 'quadro com outro serial na mesma conexão descartado');
      continue;
    }
    if (!link.serial) {
      link.serial = r.deviceId;
      ev.onLink?.(link);
    }
    // An unknown device type ("desconhecido (XX)") must not override the registered model (command passwords).
    if (r.model && !r.model.startsWith('desconhecido')) link.model = r.model;
    const m: IngestMessage = { link, result: r, raw: f, receivedAt: now };
    if (r.ack) ev.onAck?.(link, m);
    sink.enqueue(m);
  }
}

/** Device sockets of each TCP server (destroyed on stop). */
export const tcpSockets = new WeakMap<net.Server, Set<net.Socket>>();

/** reusePort: every process of a cluster listens on its own socket and the kernel spreads the connections
 *  (see GatewayOptions.reusePort). */
export function startTcp(port: number, host: string, decoder: Decoder, sink: IngestSink, metrics: GatewayMetrics, ev: LinkEvents,
                         limits?: ConnectionLimits, limiter?: AddressLimiter, reusePort = false): Promise<net.Server> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const addr = socket.remoteAddress ?? '';
    if (limiter && !limiter.acquire(addr)) { socket.destroy(); return; }
    sockets.add(socket);
    metrics.connections++;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    let pending: Buffer = Buffer.alloc(0);
    let closed = false;
    const link: Link = {
      id: `tcp-${decoder.protocol}-${++linkSeq}`,
      protocol: decoder.protocol,
      stream: true,
      get alive() { return !closed && !socket.destroyed; },
      send(data: Reply) { if (closed || socket.destroyed) return false; socket.write(data); return true; },
      pause: () => socket.pause(),
      resume: () => socket.resume(),
    };
    const unregister = sink.register(link);
    if (limits?.idleTimeoutMs) {
      socket.setTimeout(limits.idleTimeoutMs);
      socket.on('timeout', () => {
        metrics.idleTimeouts++;
        log.info({ link: link.id, serial: link.serial, address: addr }, 'conexão ociosa encerrada');
        socket.destroy();
      });
    }
    let firstTimer: NodeJS.Timeout | null = null;
    if (limits?.firstMessageTimeoutMs) {
      firstTimer = setTimeout(() => {
        firstTimer = null;
        if (link.serial) return;
        metrics.idleTimeouts++;
        log.info({ link: link.id, address: addr }, 'conexão sem identificação do equipamento encerrada');
        socket.destroy();
      }, limits.firstMessageTimeoutMs);
      firstTimer.unref();
    }
    socket.on('data', (chunk: Buffer) => {
      metrics.bytesIn += chunk.length;
      const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let res;
      try {
        res = decoder.frame(buf);
      } catch (err) {
        log.error({ err: (err as Error).message, link: link.id }, 'erro no enquadramento; descartando buffer');
        metrics.garbageBytes += buf.length;
        pending = Buffer.alloc(0);
        return;
      }
      if (res.garbage) { metrics.garbageBytes += res.garbage; log.debug({ link: link.id, bytes: res.garbage }, 'bytes inválidos ignorados'); }
      pending = res.rest.length > MAX_PENDING_BYTES ? Buffer.alloc(0) : Buffer.from(res.rest);
      if (res.rest.length > MAX_PENDING_BYTES) metrics.garbageBytes += res.rest.length;
      if (res.frames.length) handleFrames(res.frames, link, decoder, sink, metrics, ev);
    });
    const close = () => {
      if (closed) return;
      closed = true;
      if (firstTimer) clearTimeout(firstTimer);
      limiter?.release(addr);
      sockets.delete(socket);
      metrics.connections--;
      unregister();
      ev.onLinkClosed?.(link);
    };
    socket.on('close', close);
    socket.on('error', (err) => log.debug({ link: link.id, err: err.message }, 'erro de socket'));
  });
  tcpSockets.set(server, sockets);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = () => { server.off('error', reject); resolve(server); };
    if (reusePort) server.listen({ port, host, exclusive: true, reusePort: true }, done);
    else server.listen(port, host, done);
  });
}

export function startUdp(port: number, host: string, decoder: Decoder, sink: IngestSink, metrics: GatewayMetrics, ev: LinkEvents): Promise<dgram.Socket> {
  const sock = dgram.createSocket({ type: 'udp4', reuseAddr: false });
  const links = new Map<string, Link>(); // peer → link (replies go back to the peer)
  sock.on('message', (msg, rinfo) => {
    metrics.bytesIn += msg.length;
    const key = `${rinfo.address}:${rinfo.port}`;
    let link = links.get(key);
    if (!link) {
      if (links.size > 100_000) links.clear();
      link = {
        id: `udp-${decoder.protocol}-${key}`,
        protocol: decoder.protocol,
        alive: true,
        send(data: Reply) { sock.send(typeof data === 'string' ? Buffer.from(data, 'latin1') : data, rinfo.port, rinfo.address); return true; },
      };
      links.set(key, link);
    }
    let res;
    try { res = decoder.frame(msg); } catch { metrics.badFrames++; return; }
    if (res.garbage) metrics.garbageBytes += res.garbage;
    // A datagram is self-contained: a trailing partial frame is still tried as one frame.
    const frames = res.rest.length ? [...res.frames, res.rest] : res.frames;
    handleFrames(frames, link, decoder, sink, metrics, ev);
  });
  sock.on('error', (err) => log.error({ err: err.message, port }, 'erro no socket UDP'));
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(port, host, () => { sock.off('error', reject); resolve(sock); });
  });
}
