import { describe, expect, it } from 'vitest';
import {
  FILE_TYPES, REASONS, FrameError, addFrame, assemble, commandFrame, crc16, dateFromDays, daysFromEpoch, decodeFrame,
  decodeFrames, emptyTransfer, encodeFrame, fileTypeLabel, missingBlocks, reasonLabel, splitFile, type Frame,
} from './index.ts';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

// Hand-written frames (byte by byte, see the layout in index.ts) and what they decode to.
const FRAMES: { name: string; hex: string; frame: Omit<Frame, 'data'> & { data: string } }[] = [
  {
    name: 'single_frame upload data, 24h, 2026-11-27, 3 bytes',
    hex: '5654 00 01 01 0000002a 0000 00 01 00 5212 0003 414243 ____',
    frame: { control: 'single_frame', service: 'upload', subCommand: 'data', transferId: 42, blockSequence: 0, responseType: 'none', fileType: '24h', reasonCode: 0, referenceDate: 21010, data: '414243' },
  },
  {
    name: 'first_frame of 7 days',
    hex: '5654 01 01 01 00000007 0000 00 02 00 5212 0002 0102 ____',
    frame: { control: 'first_frame', service: 'upload', subCommand: 'data', transferId: 7, blockSequence: 0, responseType: 'none', fileType: '7d', reasonCode: 0, referenceDate: 21010, data: '0102' },
  },
  {
    name: 'middle_frame of 90 days with suppression, block 513',
    hex: '5654 02 01 01 ffffffff 0201 00 03 00 0001 0001 ff ____',
    frame: { control: 'middle_frame', service: 'upload', subCommand: 'data', transferId: 0xffffffff, blockSequence: 513, responseType: 'none', fileType: '90d_supressao', reasonCode: 0, referenceDate: 1, data: 'ff' },
  },
  {
    name: 'last_frame of 24h current day',
    hex: '5654 03 01 01 00000007 0002 00 04 00 0000 0000 ____',
    frame: { control: 'last_frame', service: 'upload', subCommand: 'data', transferId: 7, blockSequence: 2, responseType: 'none', fileType: '24h_dia_atual', reasonCode: 0, referenceDate: 0, data: '' },
  },
  {
    name: 'download response nack, USB BVDR busy',
    hex: '5654 00 02 02 00000009 0000 02 01 05 5212 0000 ____',
    frame: { control: 'single_frame', service: 'download', subCommand: 'response', transferId: 9, blockSequence: 0, responseType: 'nack', fileType: '24h', reasonCode: 5, referenceDate: 21010, data: '' },
  },
  {
    name: 'interrupt, cancel RS232, VDR interrupted',
    hex: '5654 00 03 04 00000009 0000 01 01 02 5212 0000 ____',
    frame: { control: 'single_frame', service: 'interrupt', subCommand: 'cancelRs232', transferId: 9, blockSequence: 0, responseType: 'ack', fileType: '24h', reasonCode: 2, referenceDate: 21010, data: '' },
  },
  {
    name: 'interrupt, cancel USB, USB restarted',
    hex: '5654 00 03 03 00000001 0000 01 02 03 4e20 0000 ____',
    frame: { control: 'single_frame', service: 'interrupt', subCommand: 'cancelUsb', transferId: 1, blockSequence: 0, responseType: 'ack', fileType: '7d', reasonCode: 3, referenceDate: 20000, data: '' },
  },
  {
    name: 'upload response ack, USB aborted',
    hex: '5654 00 01 02 00000003 0000 01 03 04 4e20 0000 ____',
    frame: { control: 'single_frame', service: 'upload', subCommand: 'response', transferId: 3, blockSequence: 0, responseType: 'ack', fileType: '90d_supressao', reasonCode: 4, referenceDate: 20000, data: '' },
  },
];

/** The hex with its CRC filled in (____ stands for the 2 CRC bytes). */
const withCrc = (h: string) => {
  const body = hex(h.replace('____', ''));
  return Buffer.concat([body, Buffer.from([crc16(body) >> 8, crc16(body) & 0xff])]);
};

describe('tachograph frame codec', () => {
  it('CRC-16/CCITT-FALSE check value', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x29b1);
  });

  it.each(FRAMES)('decodes and encodes: $name', ({ hex: h, frame }) => {
    const bytes = withCrc(h);
    const { frame: got, length } = decodeFrame(bytes);
    expect(length).toBe(bytes.length);
    expect({ ...got, data: got.data.toString('hex') }).toEqual(frame);
    expect(encodeFrame({ ...frame, data: Buffer.from(frame.data, 'hex') }).equals(bytes)).toBe(true);
  });

  it('a stream of frames back to back', () => {
    const all = Buffer.concat(FRAMES.map((f) => withCrc(f.hex)));
    expect(decodeFrames(all).map((f) => f.control)).toEqual(FRAMES.map((f) => f.frame.control));
  });

  it.each([
    ['short', '5654 00', 'SHORT'],
    ['no sync', '5655 00 01 01 0000002a 0000 00 01 00 5212 0000 0000', 'SYNC'],
    ['bad CRC', '5654 00 01 01 0000002a 0000 00 01 00 5212 0000 0000', 'CRC'],
    ['length beyond the bytes', '5654 00 01 01 0000002a 0000 00 01 00 5212 0010 0000', 'SHORT'],
    ['block over 4096 bytes', '5654 00 01 01 0000002a 0000 00 01 00 5212 1001 0000', 'LENGTH'],
  ])('refuses %s', (_n, h, code) => {
    expect(() => decodeFrame(hex(h))).toThrow(expect.objectContaining({ code }));
  });

  it.each([
    ['control 4', '5654 04 01 01 00000001 0000 00 01 00 0000 0000 ____', 'control desconhecido: 4'],
    ['service 9', '5654 00 09 01 00000001 0000 00 01 00 0000 0000 ____', 'service desconhecido: 9'],
    ['subCommand 7', '5654 00 01 07 00000001 0000 00 01 00 0000 0000 ____', 'subCommand desconhecido: 7'],
    ['responseType 3', '5654 00 01 01 00000001 0000 03 01 00 0000 0000 ____', 'responseType desconhecido: 3'],
    ['fileType 5', '5654 00 01 01 00000001 0000 00 05 00 0000 0000 ____', 'fileType desconhecido: 5'],
    ['reasonCode 6', '5654 00 01 01 00000001 0000 00 01 06 0000 0000 ____', 'reasonCode desconhecido: 6'],
  ])('refuses an unknown value: %s', (_n, h, msg) => {
    expect(() => decodeFrame(withCrc(h))).toThrow(msg);
  });

  it('file types and reasons with their pt-BR labels', () => {
    expect(Object.values(FILE_TYPES).map((t) => [t.key, t.label])).toEqual([
      ['24h', '24 horas'], ['7d', '7 dias'], ['90d_supressao', '90 dias com supressão'], ['24h_dia_atual', '24 horas (dia atual)'],
    ]);
    expect(Object.values(REASONS).map((r) => r.label)).toEqual([
      'Sem erro', 'Operação abortada', 'VDR interrompido', 'USB reiniciado', 'USB abortado', 'USB: BVDR ocupado',
    ]);
    expect(fileTypeLabel('90d_supressao')).toBe('90 dias com supressão');
    expect(reasonLabel(5)).toBe('USB: BVDR ocupado');
    expect(reasonLabel(77)).toBe('Motivo desconhecido (77)');
  });

  it.each([
    ['1970-01-01', 0], ['1970-01-02', 1], ['2000-01-01', 10957], ['2024-02-29', 19782], ['2026-11-27', 20784], ['2149-06-06', 65535],
  ])('reference date %s is day %i', (iso, days) => {
    expect(daysFromEpoch(iso)).toBe(days);
    expect(dateFromDays(days)).toBe(iso);
  });

  it('commands: upload, download, interrupt with USB or RS232 cancel', () => {
    const up = decodeFrame(commandFrame({ command: 'upload', fileType: '7d', referenceDate: 20784 })).frame;
    expect([up.control, up.service, up.subCommand, up.fileType, up.referenceDate, up.reasonCode]).toEqual(['single_frame', 'upload', 'request', '7d', 20784, 0]);
    const down = decodeFrame(commandFrame({ command: 'download', fileType: '24h_dia_atual', referenceDate: 1 })).frame;
    expect([down.service, down.subCommand, down.fileType]).toEqual(['download', 'request', '24h_dia_atual']);
    const usb = decodeFrame(commandFrame({ command: 'interrupt', fileType: '24h', referenceDate: 0, cancel: 'usb', transferId: 12 })).frame;
    expect([usb.service, usb.subCommand, usb.transferId, usb.reasonCode]).toEqual(['interrupt', 'cancelUsb', 12, 1]);
    const rs = decodeFrame(commandFrame({ command: 'interrupt', fileType: '24h', referenceDate: 0, cancel: 'rs232' })).frame;
    expect(rs.subCommand).toBe('cancelRs232');
    // sync, single_frame, upload, request, transfer 0, block 0, none, 24h, no error, day 20784 (2026-11-27), no data, CRC
    expect(commandFrame({ command: 'upload', fileType: '24h', referenceDate: 20784 }).toString('hex'))
      .toBe('5654' + '00' + '01' + '00' + '00000000' + '0000' + '00' + '01' + '00' + '5130' + '0000' + '44d4');
    expect(() => commandFrame({ command: 'interrupt', fileType: '24h', referenceDate: 0 })).toThrow('interrupção sem o tipo de cancelamento (USB ou RS232)');
  });
});

describe('reassembly', () => {
  const file = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7 + 3) & 0xff));
  const frames = () => splitFile(file, { transferId: 5, fileType: '7d', referenceDate: 20784, blockSize: 1000 }).map((b) => decodeFrame(b).frame);

  it('splits into first, 8 middles and last; in order they give the file back', () => {
    const fs = frames();
    expect(fs.map((f) => f.control)).toEqual(['first_frame', ...Array(8).fill('middle_frame'), 'last_frame']);
    const s = emptyTransfer(fs[0]);
    for (const f of fs) addFrame(s, f);
    expect(missingBlocks(s)).toEqual([]);
    expect(assemble(s).equals(file)).toBe(true);
  });

  it('out of order and repeated blocks', () => {
    const fs = frames();
    const order = [9, 3, 0, 0, 5, 1, 2, 9, 4, 8, 6, 7, 3];
    const s = emptyTransfer(fs[0]);
    for (const i of order) addFrame(s, fs[i]);
    expect(s.duplicates).toBe(3);
    expect(assemble(s).equals(file)).toBe(true);
  });

  it('a missing block is named; before the last frame nothing is known missing', () => {
    const fs = frames();
    const s = emptyTransfer(fs[0]);
    for (const i of [0, 1, 2, 4, 5]) addFrame(s, fs[i]);
    expect(missingBlocks(s)).toBeNull();
    for (const i of [6, 7, 9]) addFrame(s, fs[i]);
    expect(missingBlocks(s)).toEqual([3, 8]);
    expect(() => assemble(s)).toThrow('transferência incompleta');
  });

  it('a single_frame file, an empty file, and a failure reported by the device', () => {
    const [one] = splitFile(Buffer.from('abc'), { transferId: 1, fileType: '24h', referenceDate: 3 });
    const s = addFrame(emptyTransfer(decodeFrame(one).frame), decodeFrame(one).frame);
    expect(assemble(s).toString()).toBe('abc');
    const [empty] = splitFile(Buffer.alloc(0), { transferId: 2, fileType: '24h', referenceDate: 3 });
    expect(assemble(addFrame(emptyTransfer(decodeFrame(empty).frame), decodeFrame(empty).frame)).length).toBe(0);
    const fs = frames();
    const t = emptyTransfer(fs[0]);
    addFrame(t, fs[0]);
    addFrame(t, decodeFrame(commandFrame({ command: 'interrupt', fileType: '7d', referenceDate: 0, cancel: 'usb', transferId: 5 })).frame);
    expect(t.reason).toBe(1);
  });

  it('a first frame must be block 0', () => {
    const f = { ...frames()[0], blockSequence: 2 };
    expect(() => addFrame(emptyTransfer(f), f)).toThrow(FrameError);
  });
});
