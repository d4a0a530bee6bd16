// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out): the checksum of tachograph transfer frames
// and of Queclink binary +ACK frames.
export function crc16(buf: Uint8Array, start = 0, end = buf.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) {
    crc ^= buf[i]! << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
