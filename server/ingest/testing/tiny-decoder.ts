// A tiny ASCII protocol for gateway tests (framing, batching, acks, commands) independent of real decoders.
// Frame: +T:<serial>,<type>,<ISO time>,<lat>,<lon>,<speed>,<ign 0|1>,<ack 0|1>$
//        +T:<serial>,HBD,<ISO time>$            heartbeat, always answered
//        +T:<serial>,CMDACK,<hex serial>,<ok 0|1>$   command acknowledgement
// Command: +CMD:<type>,<hex serial>[,k=v...]$
import { CommandValidationError, type DecodeError, type DecodeResult, type Decoder, type DeviceCommand, type FrameResult } from '../../../protocol/types.ts';

const START = Buffer.from('+T:');

export const tinyDecoder: Decoder = {
  protocol: 'tiny',
  frame(buffer: Buffer): FrameResult {
    const frames: Buffer[] = [];
    let garbage = 0;
    let i = 0;
    for (;;) {
      const s = buffer.indexOf(START, i);
      if (s < 0) {
        // keep a possible partial start marker
        const keep = Math.min(buffer.length - i, START.length - 1);
        garbage += buffer.length - i - keep;
        return { frames, rest: buffer.subarray(buffer.length - keep), garbage };
      }
      garbage += s - i;
      const e = buffer.indexOf(0x24, s);
      if (e < 0) return { frames, rest: buffer.subarray(s), garbage };
      frames.push(buffer.subarray(s, e + 1));
      i = e + 1;
    }
  },
  decode(frame: Buffer): DecodeResult | DecodeError {
    const t = frame.toString('latin1');
    const bad = (error: string): DecodeError => ({ protocol: 'tiny', error, errorCode: 'MALFORMED' });
    if (!t.startsWith('+T:') || !t.endsWith('$')) return bad('delimitadores');
    const f = t.slice(3, -1).split(',');
    const [serial, type] = f;
    if (!serial || !/^\w+$/.test(serial)) return bad('serial');
    if (type === 'HBD') {
      return { protocol: 'tiny', deviceId: serial, type, sentTime: f[2], positions: [], events: [], attributes: {}, reply: `+SACK:HBD,${serial}$` };
    }
    if (type === 'CMDACK') {
      return { protocol: 'tiny', deviceId: serial, type: 'ack', positions: [], events: [], attributes: {}, ack: { command: 'CMD', serial: f[2], success: f[3] === '1' } };
    }
    if (f.length !== 8) return bad('campos');
    const lat = Number(f[3]), lon = Number(f[4]), speed = Number(f[5]);
    if (!Number.isFinite(lat) || !Number.isFinite(lon) || Number.isNaN(Date.parse(f[2]))) return bad('valores');
    const ign = f[6] === '1';
    return {
      protocol: 'tiny', deviceId: serial, type, positions: [{ fixTime: new Date(f[2]).toISOString(), latitude: lat, longitude: lon, speedKmh: speed, course: 90, valid: true, satellites: 9 }],
      events: type === 'IGN' ? [{ code: 'IGN', key: 'ignitionOn', description: 'Ignição ligada' }] : type === 'IGF' ? [{ code: 'IGF', key: 'ignitionOff', description: 'Ignição desligada' }] : [],
      attributes: { ignition: ign, batteryLevel: 87 },
      reply: f[7] === '1' ? `+ACK:${serial},${f[2]}$` : undefined,
    };
  },
  encode(cmd: DeviceCommand): Buffer {
    const parts = [cmd.type, (cmd.serial ?? 0).toString(16).toUpperCase().padStart(4, '0')];
    for (const [k, v] of Object.entries(cmd.params ?? {})) {
      const s = String(v);
      if (/[,$\r\n=]/.test(s) || /[,$\r\n=]/.test(k)) throw new CommandValidationError('DELIMITER', k, `O parâmetro ${k} contém caracteres não permitidos`);
      parts.push(`${k}=${s}`);
    }
    return Buffer.from(`+CMD:${parts.join(',')}$`);
  },
};

export const tinyFrame = (serial: string, type: string, time: string, lat: number, lon: number, speed = 0, ign = true, ack = true) =>
  `+T:${serial},${type},${time},${lat},${lon},${speed},${ign ? 1 : 0},${ack ? 1 : 0}$`;
