// Short video samples made in code for the CMSV6 double (tests): H.264 baseline frames whose macroblocks are all
// I_PCM (raw samples: no encoder needed, any H.264 decoder plays them), wrapped as HTTP-FLV tags (mpegts.js) and as
// MPEG-TS segments (HLS). Each frame is a moving bar, so a played video visibly changes.

class Bits {
  private bytes: number[] = [];
  private cur = 0;
  private n = 0;
  bit(b: number) { this.cur = (this.cur << 1) | (b & 1); if (++this.n === 8) { this.bytes.push(this.cur); this.cur = 0; this.n = 0; } }
  u(v: number, len: number) { for (let i = len - 1; i >= 0; i--) this.bit((v >>> i) & 1); }
  ue(v: number) { const x = v + 1; const len = 32 - Math.clz32(x); this.u(0, len - 1); this.u(x, len); }
  se(v: number) { this.ue(v <= 0 ? -2 * v : 2 * v - 1); }
  align0() { while (this.n) this.bit(0); }
  byte(b: number) { this.u(b, 8); }
  trailing() { this.bit(1); this.align0(); }
  get aligned() { return this.n === 0; }
  done(): Uint8Array { if (this.n) this.align0(); return Uint8Array.from(this.bytes); }
}

/** NAL unit with emulation prevention (00 00 0x → 00 00 03 0x). */
function nal(type: number, refIdc: number, rbsp: Uint8Array): Uint8Array {
  const out: number[] = [(refIdc << 5) | type];
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) { out.push(3); zeros = 0; }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

export interface Amostra { largura: number; altura: number; fps: number }
export const PADRAO: Amostra = { largura: 64, altura: 48, fps: 25 };

export function sps(a: Amostra = PADRAO): Uint8Array {
  const b = new Bits();
  b.u(66, 8); b.u(0xc0, 8); b.u(30, 8); // baseline, constraint set 0/1, level 3.0
  b.ue(0); b.ue(0); // sps id, log2_max_frame_num - 4
  b.ue(2); // pic_order_cnt_type 2
  b.ue(1); b.bit(0); // max refs, gaps
  b.ue(a.largura / 16 - 1); b.ue(a.altura / 16 - 1);
  b.bit(1); b.bit(1); b.bit(0); b.bit(0); // frame_mbs_only, direct_8x8, cropping, vui
  b.trailing();
  return nal(7, 3, b.done());
}

export function pps(): Uint8Array {
  const b = new Bits();
  b.ue(0); b.ue(0); b.bit(0); b.bit(0); b.ue(0); b.ue(0); b.ue(0); b.bit(0); b.u(0, 2);
  b.se(0); b.se(0); b.se(0); b.bit(1); b.bit(0); b.bit(0);
  b.trailing();
  return nal(8, 3, b.done());
}

/** Frame i: an IDR slice of I_PCM macroblocks (a bright bar moving across a grey picture). */
export function quadro(i: number, a: Amostra = PADRAO): Uint8Array {
  const b = new Bits();
  b.ue(0); b.ue(7); b.ue(0); // first_mb, slice_type I (all), pps id
  b.u(0, 4); // frame_num
  b.ue(i % 2); // idr_pic_id (differs between neighbours)
  b.bit(0); b.bit(0); // no_output_of_prior_pics, long_term_reference
  b.se(0); // slice_qp_delta
  b.ue(1); // deblocking off
  const mbw = a.largura / 16, mbh = a.altura / 16;
  const barra = (i * 2) % a.largura;
  for (let my = 0; my < mbh; my++) {
    for (let mx = 0; mx < mbw; mx++) {
      b.ue(25); // I_PCM
      b.align0();
      for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) {
        const px = mx * 16 + x;
        b.byte(Math.abs(px - barra) < 6 ? 230 : 60 + ((my * 16 + y) * 2));
      }
      for (let c = 0; c < 128; c++) b.byte(c < 64 ? 110 : 150);
    }
  }
  b.trailing();
  return nal(5, 3, b.done());
}

// ---- FLV ----
const u24 = (v: number) => [(v >> 16) & 255, (v >> 8) & 255, v & 255];
const u32 = (v: number) => [(v >>> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255];

function tag(type: number, ts: number, data: Uint8Array): Uint8Array {
  const head = [type, ...u24(data.length), ...u24(ts & 0xffffff), (ts >>> 24) & 255, 0, 0, 0];
  const out = new Uint8Array(11 + data.length + 4);
  out.set(head, 0); out.set(data, 11); out.set(u32(11 + data.length), 11 + data.length);
  return out;
}

/** FLV file header (video only) with PreviousTagSize0. */
export function flvCabecalho(): Uint8Array { return Uint8Array.from([0x46, 0x4c, 0x56, 1, 1, 0, 0, 0, 9, 0, 0, 0, 0]); }

/** The AVC sequence header tag (SPS and PPS). */
export function flvConfig(a: Amostra = PADRAO): Uint8Array {
  const s = sps(a), p = pps();
  const rec = [1, s[1]!, s[2]!, s[3]!, 0xff, 0xe1, ...[s.length >> 8, s.length & 255], ...s, 1, p.length >> 8, p.length & 255, ...p];
  return tag(9, 0, Uint8Array.from([0x17, 0, 0, 0, 0, ...rec]));
}

/** The video tag of frame i (timestamp i / fps). */
export function flvQuadro(i: number, a: Amostra = PADRAO): Uint8Array {
  const f = quadro(i, a);
  const d = new Uint8Array(5 + 4 + f.length);
  d.set([0x17, 1, 0, 0, 0, ...u32(f.length)], 0); d.set(f, 9);
  return tag(9, Math.round((i * 1000) / a.fps), d);
}

/** A whole FLV of n frames. */
export function flv(n: number, a: Amostra = PADRAO): Uint8Array {
  return concat([flvCabecalho(), flvConfig(a), ...Array.from({ length: n }, (_, i) => flvQuadro(i, a))]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

// ---- MPEG-TS (HLS segments) ----
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) { let c = i << 24; for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1; t[i] = c >>> 0; }
  return t;
})();
function crc32(b: number[]): number {
  let c = 0xffffffff;
  for (const x of b) c = ((c << 8) ^ CRC_TABLE[((c >>> 24) ^ x) & 255]!) >>> 0;
  return c >>> 0;
}

function psi(pid: number, table: number[], cc: number): Uint8Array {
  const sec = [...table, ...u32(crc32(table))];
  const p = new Uint8Array(188).fill(0xff);
  p.set([0x47, 0x40 | (pid >> 8), pid & 255, 0x10 | (cc & 15), 0], 0);
  p.set(sec, 5);
  return p;
}

const PMT_PID = 0x1000, VIDEO_PID = 0x100;
function pat(cc: number) { return psi(0, [0x00, 0xb0, 13, 0, 1, 0xc1, 0, 0, 0, 1, 0xe0 | (PMT_PID >> 8), PMT_PID & 255], cc); }
function pmt(cc: number) {
  return psi(PMT_PID, [0x02, 0xb0, 18, 0, 1, 0xc1, 0, 0, 0xe0 | (VIDEO_PID >> 8), VIDEO_PID & 255, 0xf0, 0,
    0x1b, 0xe0 | (VIDEO_PID >> 8), VIDEO_PID & 255, 0xf0, 0], cc);
}

function pts(v: number, marker: number): number[] {
  return [(marker << 4) | (((v / 2 ** 30) & 7) << 1) | 1, (Math.floor(v / 2 ** 22)) & 255, ((Math.floor(v / 2 ** 15) & 127) << 1) | 1, (Math.floor(v / 128)) & 255, ((v & 127) << 1) | 1];
}

/** An MPEG-TS segment of frames [from, from + n) (each frame one PES with SPS/PPS/IDR in Annex B). */
export function segmentoTs(from: number, n: number, a: Amostra = PADRAO): Uint8Array {
  const out: Uint8Array[] = [pat(0), pmt(0)];
  let cc = 0;
  const start = [0, 0, 0, 1];
  for (let i = from; i < from + n; i++) {
    const t = 90_000 * 1 + Math.round((i * 90_000) / a.fps);
    const es = concat([Uint8Array.from([0, 0, 0, 1, 9, 0xf0]), Uint8Array.from(start), sps(a), Uint8Array.from(start), pps(), Uint8Array.from(start), quadro(i, a)]);
    const pes = concat([Uint8Array.from([0, 0, 1, 0xe0, 0, 0, 0x80, 0x80, 5, ...pts(t, 2)]), es]);
    for (let o = 0, first = true; o < pes.length; first = false) {
      const p = new Uint8Array(188);
      const head = [0x47, (first ? 0x40 : 0) | (VIDEO_PID >> 8), VIDEO_PID & 255];
      const left = pes.length - o;
      let hl = 4;
      if (first) {
        // adaptation field with PCR on the first packet of each frame (random access indicator set)
        const pcr = t - 9000;
        const af = [7, 0x50, (Math.floor(pcr / 2 ** 25)) & 255, (Math.floor(pcr / 2 ** 17)) & 255, (Math.floor(pcr / 512)) & 255, (Math.floor(pcr / 2)) & 255, ((pcr & 1) << 7) | 0x7e, 0];
        const room = 188 - 4 - af.length;
        const take = Math.min(room, left);
        const stuff = room - take;
        af[0] = 7 + stuff;
        p.set([...head, 0x30 | (cc++ & 15), ...af, ...new Array(stuff).fill(0xff)], 0);
        hl = 4 + af.length + stuff;
        p.set(pes.subarray(o, o + take), hl);
        o += take;
      } else if (left >= 184) {
        p.set([...head, 0x10 | (cc++ & 15)], 0);
        p.set(pes.subarray(o, o + 184), 4);
        o += 184;
      } else {
        const stuff = 184 - left - 1;
        const af = stuff > 0 ? [stuff, 0, ...new Array(stuff - 1).fill(0xff)] : [0];
        p.set([...head, 0x30 | (cc++ & 15), ...af], 0);
        p.set(pes.subarray(o), 4 + af.length);
        o = pes.length;
      }
      out.push(p);
    }
  }
  return concat(out);
}
