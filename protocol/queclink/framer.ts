// Splits a TCP byte stream into @Track frames: text "+RESP:"/"+BUFF:"/"+ACK:"/"+SACK:" ... "$", and binary (HEX)
// frames "+RSP"/"+BSP"/"+EVT"/"+BVT"/"+INF"/"+HBD"/"+ACK".../"+\0" taken by their length field (binary.ts), on
// the same stream: a device configured for HEX reports and one sending text can share the port.
import type { FrameResult } from '../types.ts';
import { binaryHeaderAt, binaryLengthAt, binaryTailOk } from './binary.ts';

export const MAX_FRAME = 4096;

const HEADERS = ['+RESP:', '+BUFF:', '+ACK:', '+SACK:'].map((h) => Buffer.from(h, 'ascii'));
const PLUS = 0x2b;
const DOLLAR = 0x24;

/** 1: a header starts at i; 0: the bytes so far could still become one (buffer ends); -1: not a header. */
function headerAt(buf: Buffer, i: number): 1 | 0 | -1 {
  // Fast path: a whole "+RESP:" (most frames) at i.
  if (i + 6 <= buf.length && buf[i] === PLUS && buf[i + 1] === 0x52 && buf[i + 2] === 0x45 && buf[i + 3] === 0x53 && buf[i + 4] === 0x50 && buf[i + 5] === 0x3a) return 1;
  let partial = false;
  for (const h of HEADERS) {
    const n = Math.min(h.length, buf.length - i);
    if (buf.compare(h, 0, n, i, i + n) === 0) {
      if (n === h.length) return 1;
      partial = true;
    }
  }
  return partial ? 0 : -1;
}

/** Next index >= from where a text or binary header starts (or may start, if cut at the end); -1 if none. */
function nextHeader(buf: Buffer, from: number, maxFrame: number): number {
  for (let i = buf.indexOf(PLUS, from); i !== -1; i = buf.indexOf(PLUS, i + 1)) {
    if (headerAt(buf, i) >= 0) return i;
    const b = binaryHeaderAt(buf, i);
    if (b === undefined || (b && binaryLengthAt(buf, i, b, maxFrame) >= 0)) return i;
  }
  return -1;
}

/** A whole text header ("+RESP:"...) starts in [from, to). */
function textHeaderIn(buf: Buffer, from: number, to: number): boolean {
  for (let i = buf.indexOf(PLUS, from); i !== -1 && i < to; i = buf.indexOf(PLUS, i + 1)) if (headerAt(buf, i) === 1) return true;
  return false;
}

const EMPTY = Buffer.alloc(0);

const isSpace = (b: number) => b === 0x0d || b === 0x0a || b === 0x20 || b === 0x00;

export function frame(buffer: Buffer, maxFrame = MAX_FRAME): FrameResult {
  const frames: Buffer[] = [];
  let garbage = 0;
  let pos = 0;
  const skip = (to: number) => {
    for (let i = pos; i < to; i++) if (!isSpace(buffer[i]!)) garbage++;
    pos = to;
  };

  while (pos < buffer.length) {
    const start = nextHeader(buffer, pos, maxFrame);
    if (start === -1) { skip(buffer.length); break; }
    skip(start);
    const text = headerAt(buffer, start);
    if (text < 1) {
      const b = binaryHeaderAt(buffer, start);
      if (b === undefined || (b === null && text === 0)) break; // cut header: wait for more bytes
      if (b) {
        const n = binaryLengthAt(buffer, start, b, maxFrame);
        if (n === 0) break; // length field not there yet
        // A text header inside what the length field claims, or a wrong tail: the '+' was noise that looked
        // like a binary header (it must not swallow the text frame after it).
        if (n > 0 && !textHeaderIn(buffer, start + 1, Math.min(start + n, buffer.length))) {
          if (start + n > buffer.length) break; // incomplete: keep in rest
          if (binaryTailOk(buffer, start, n)) {
            frames.push(buffer.subarray(start, start + n));
            pos = start + n;
            continue;
          }
        }
      }
      skip(start + 1); // a '+' that starts nothing
      continue;
    }
    const end = buffer.indexOf(DOLLAR, start);
    // A new header before the '$' means this frame was truncated: drop it, keep the next one.
    const inner = nextHeader(buffer, start + 1, maxFrame);
    if (inner !== -1 && (end === -1 || inner < end) && (headerAt(buffer, inner) === 1 || !!binaryHeaderAt(buffer, inner))) {
      skip(inner);
      continue;
    }
    if (end === -1) {
      if (buffer.length - start > maxFrame) { skip(inner === -1 ? buffer.length : inner); continue; }
      break; // incomplete: keep in rest
    }
    if (end + 1 - start > maxFrame) { skip(end + 1); continue; }
    frames.push(buffer.subarray(start, end + 1)); // a view, no copy: the frames share the caller's buffer
    pos = end + 1;
  }
  // Leading line breaks between frames are not garbage and need not be kept.
  while (pos < buffer.length && isSpace(buffer[pos]!)) pos++;
  return { frames, rest: pos === buffer.length ? EMPTY : Buffer.from(buffer.subarray(pos)), garbage };
}
