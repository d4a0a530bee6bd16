// Test data of the `SV` family: public frames and a builder for frames of the spec extension.

/** Real frames, hex, from Traccar's ContinentalProtocolDecoderTest (traccar/traccar, src/test/java/org/traccar/protocol). */
export const REAL = {
  /** Software 0x16, serial 2012293, product 5; extended coordinates; odometer and hour counter present. */
  extended: '5356003216001eb48505025b4001e90f7f18ce0f00522200400001015b4001e9000e820100000c24000100014e0400736a7a',
  /** Software 0x11, serial 12345, product 3; standard coordinates; 2 bytes (0130) after the declared length 42. */
  standard: '5356002A1100003039030243A68B5700FEB5AB00FD715F012700000143A68B57000E000000000C2F00000130',
  /** Software 0x0d, serial 1089828; ignition on. */
  ignition: '5356002a0d0010a12403025a9ea47f00feb48400fd6e63000c0000015a9ea480000e000100000c000000',
  /** Same device; GPS quality 0 (no fix), fix time 16 h older than the device time. */
  noFix: '5356002a0d0010a1240302581b944100febed800fd9fa30139001300581c73fa000e000000000d000001',
} as const;

const hex2 = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');

/** An `SV` frame: header, length (whole frame), version, serial, product, type, body. */
export function sv(type: number, bodyHex = '', o: { serial?: number; version?: number; product?: number } = {}): string {
  const body = bodyHex.replace(/\s+/g, '');
  const len = 11 + body.length / 2;
  return `5356${hex2(len, 2)}${hex2(o.version ?? 0x16, 1)}${hex2(o.serial ?? 12345678, 4)}${hex2(o.product ?? 5, 1)}${hex2(type, 1)}${body}`;
}

/**
 * Status body (31 bytes): fix 2024-05-01T12:34:50Z, lat -23.5 / lon -46.625 (1/3600°), course 270, 72 km/h,
 * quality 1, device time 12:34:56Z, event 1, inputs 0001 (ignition), outputs 0001 (blocking), 12 V, -25 °C, reserved 0.
 */
export const STATUS_BODY = '663236ea 00feb588 00fd7056 010e 0048 01 663236f0 0001 0001 0001 0c e7 0000';
/** Odometer 123456 m, hour counter 3600. */
export const COUNTERS_BODY = '0001e240 00000e10';
/** extended_1 05 (jamming, free_wheel), extended_2 81 (position_violation, driver_identification), battery tenths 6. */
export const STATUS_EXT_BODY = '05 81 06';
