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

/** Bytes a connection may send without one valid frame before it is closed: before its first valid frame (16 KB, four
 *  times the largest frame of our protocols: @Track 4 KB, legacy 1 KB) and after it (64 KB). The partial frame kept
 *  between chunks never grows past these either. */
export const GARBAGE_LIMITS = { unidentified: 16 * 1024, identified: 64 * 1024 };
/** Bad frames of one link written to the log; the rest are only counted (metrics.badFrames). */
const BAD_FRAMES_LOGGED = 3;
const EMPTY = Buffer.alloc(0);
let linkSeq = 0;

/** Limits of device connections (see limitsFromEnv in index.ts). 0 disables a limit. */
export interface ConnectionLimits {
  /** A TCP socket silent (nothing received or sent) this long is closed. */
  idleTimeoutMs: number;
  /** A TCP socket that has not identified itself (no valid message) this long after connecting is closed. */
  firstMessageTimeoutMs: number;
  /** Connections per remote address that have not identified themselves yet (over all the gateway's TCP/HTTP ports);
   *  a new one over the cap closes the oldest of them. */
  maxPerAddress: number;
}

/** A connection's place among the unidentified connections of its address. */
export interface AddressSlot {
  readonly addr: string;
  /** Closes the connection (when it is evicted). */
  readonly close: () => void;
  /** The set it is counted in; null once it identified itself, closed or was evicted (or with no cap). */
  set: Set<AddressSlot> | null;
}

/**
 * Counts the connections of each remote address that have not sent a valid frame yet; shared by every listener of
 * one gateway. Identified connections are not counted: devices behind one carrier NAT share an address. Over the cap,
 * the OLDEST unidentified connection of the address is closed to make room, so a flood only churns its own
 * connections and a genuine device, which identifies itself right after connecting, always gets in.
 */
export class AddressLimiter {
  private waiting = new Map<string, Set<AddressSlot>>(); // insertion order = oldest first
  private lastLog = 0;
  constructor(readonly max: number, private metrics: GatewayMetrics) {}

  /** A slot for a new connection of this address; evicts the address's oldest unidentified connection when full. */
  acquire(addr: string, close: () => void): AddressSlot {
    if (this.max <= 0) return { addr, close, set: null };
    let set = this.waiting.get(addr);
    if (!set) this.waiting.set(addr, (set = new Set()));
    if (set.size >= this.max) {
      const oldest = set.values().next().value as AddressSlot;
      set.delete(oldest);
      oldest.set = null;
      this.metrics.evictedConnections++;
      const now = Date.now();
      if (now - this.lastLog >= 10_000) {
        this.lastLog = now;
        log.warn({ address: addr, max: this.max, evicted: this.metrics.evictedConnections },
          'limite de conexões sem identificação por endereço atingido: a mais antiga foi encerrada');
      }
      oldest.close();
    }
    const slot: AddressSlot = { addr, close, set };
    set.add(slot);
    return slot;
  }

  /** The connection sent a valid frame (or closed): it leaves the count of its address. */
  release(slot: AddressSlot): void {
    const set = slot.set;
    if (!set) return;
    slot.set = null;
    set.delete(slot);
    if (set.size === 0 && this.waiting.get(slot.addr) === set) this.waiting.delete(slot.addr);
  }

  /** Unidentified connections of the address. */
  count(addr: string): number { return this.waiting.get(addr)?.size ?? 0; }
}

/** Text to keep for a frame (pending list, logs): ASCII protocols as is, binary as hex. */
export function rawText(frame: Buffer): string {
  for (let i = 0; i < frame.length; i++) {
    const c = frame[i];
    if ((c < 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) || c > 0x7e) return frame.toString('hex');
  }
  return frame.toString('latin1');
}

/** Decodes frames and enqueues messages; shared by TCP and UDP. Answers how many frames decoded. */
export function handleFrames(frames: Buffer[], link: Link, decoder: Decoder, sink: IngestSink, metrics: GatewayMetrics, ev: LinkEvents): number {
  const now = new Date();
  let decoded = 0;
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
      if ((link.badFrames = (link.badFrames ?? 0) + 1) > BAD_FRAMES_LOGGED) continue; // counted, not logged
      log.warn({ link: link.id, protocol: decoder.protocol, error: r.error, code: r.errorCode, frame: rawText(f).slice(0, 200) }, 'quadro inválido descartado');
      continue;
    }
    metrics.messages++;
    decoded++;
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
  return decoded;
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
    const slot = limiter?.acquire(addr, () => socket.destroy());
    sockets.add(socket);
    metrics.connections++;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    let pending: Buffer = EMPTY;
    let closed = false;
    let identified = false;
    let junk = 0; // bytes received since the last frame that decoded
    let held = false; // reading paused by the writer's back-pressure (its queue is full)
    const link: Link = {
      id: `tcp-${decoder.protocol}-${++linkSeq}`,
      protocol: decoder.protocol,
      stream: true,
      address: addr,
      get alive() { return !closed && !socket.destroyed; },
      send(data: Reply) { if (closed || socket.destroyed) return false; socket.write(data); return true; },
      pause: () => { held = true; socket.pause(); },
      resume: () => { held = false; socket.resume(); },
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
    const armFirst = (ms: number) => {
      firstTimer = setTimeout(() => {
        firstTimer = null;
        if (link.serial || closed) return;
        // While the gateway itself holds the reading (write queue full), the device's first frame may be waiting
        // unread in the socket: its silence is ours, not the device's. The clock starts again once reading resumes.
        if (held) { armFirst(ms); return; }
        metrics.idleTimeouts++;
        log.info({ link: link.id, address: addr }, 'conexão sem identificação do equipamento encerrada');
        socket.destroy();
      }, ms);
      firstTimer.unref();
    };
    if (limits?.firstMessageTimeoutMs) armFirst(limits.firstMessageTimeoutMs);
    socket.on('data', (chunk: Buffer) => {
      if (closed) return;
      metrics.bytesIn += chunk.length;
      junk += chunk.length;
      const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let res;
      try {
        res = decoder.frame(buf);
      } catch (err) {
        log.error({ err: (err as Error).message, link: link.id }, 'erro no enquadramento; descartando buffer');
        metrics.garbageBytes += buf.length;
        pending = EMPTY;
        return;
      }
      if (res.garbage) metrics.garbageBytes += res.garbage;
      pending = res.rest.length ? Buffer.from(res.rest) : EMPTY;
      if (res.frames.length && handleFrames(res.frames, link, decoder, sink, metrics, ev) > 0) {
        junk = pending.length;
        if (!identified && link.serial) {
          identified = true;
          if (slot) limiter!.release(slot);
          if (firstTimer) { clearTimeout(firstTimer); firstTimer = null; }
        }
      } else if (junk > (identified ? GARBAGE_LIMITS.identified : GARBAGE_LIMITS.unidentified)) {
        // A frame without its end marker, or nothing but garbage: the buffer is not kept, the connection is closed
        // (a genuine device reconnects and resends what was not acknowledged).
        metrics.garbageBytes += pending.length;
        metrics.garbageCloses++;
        log.warn({ link: link.id, serial: link.serial, address: addr, bytes: junk }, 'conexão encerrada: dados sem quadro válido');
        pending = EMPTY;
        socket.destroy();
      }
    });
    const close = () => {
      if (closed) return;
      closed = true;
      if (firstTimer) clearTimeout(firstTimer);
      if (slot) limiter!.release(slot);
      sockets.delete(socket);
      metrics.connections--;
      unregister();
      ev.onLinkClosed?.(link);
    };
    socket.on('close', close);
    socket.on('error', (err) => log.debug({ link: link.id, err: err.message }, 'erro de socket'));
  });
  tcpSockets.set(server, sockets);
  return listening(server, decoder.protocol, (done) => {
    if (reusePort) server.listen({ port, host, exclusive: true, reusePort: true }, done);
    else server.listen(port, host, done);
  });
}

/** Starts `server` listening: resolves once it listens, rejects when it cannot (port taken). Once listening, a
 *  server error (a failed accept when the process is out of file descriptors under a flood) is logged: an 'error'
 *  event without a listener would end the whole process, and the server goes on accepting when descriptors free.
 *  A flood fails every accept: one line per 10 s at most, with how many errors came since the last one. */
export function listening<S extends net.Server>(server: S, what: string, listen: (done: () => void) => void): Promise<S> {
  let lastLog = -Infinity, unlogged = 0;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    listen(() => {
      server.off('error', reject);
      server.on('error', (err: NodeJS.ErrnoException) => {
        const now = Date.now();
        if (now - lastLog < 10_000) { unlogged++; return; }
        log.error({ err: err.message, code: err.code, what, ...(unlogged ? { semRegistro: unlogged } : {}) }, 'erro no servidor de equipamentos');
        lastLog = now;
        unlogged = 0;
      });
      resolve(server);
    });
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
        address: rinfo.address,
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
