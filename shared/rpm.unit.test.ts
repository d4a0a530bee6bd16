import { describe, expect, it } from 'vitest';
import { rpmOf } from './rpm.ts';

describe('rpmOf', () => {
  it('takes the CAN reading first, then the sensor, then rpm', () => {
    expect(rpmOf({ engine_speed_can: 896, engine_speed_sensor: 1800, rpm: 3 })).toBe(896);
    expect(rpmOf({ engine_speed_sensor: 1800, rpm: 3 })).toBe(1800);
    expect(rpmOf({ rpm: '2500' })).toBe(2500);
    expect(rpmOf({ engine_speed_can: 1266.5 })).toBe(1266.5);
    expect(rpmOf({ engine_speed_can: 0 })).toBe(0);
  });
  it('a JSON null is no reading; the first present value decides even when it is not a number', () => {
    expect(rpmOf({ engine_speed_can: null, rpm: 700 })).toBe(700);
    expect(rpmOf({ engine_speed_can: 'FFFF', rpm: 700 })).toBeNull();
    expect(rpmOf({ engine_speed_can: -5 })).toBeNull();
    expect(rpmOf({ engine_speed_can: true })).toBeNull();
    expect(rpmOf({ engine_speed_can: { v: 1 } })).toBeNull();
    expect(rpmOf({ speed: 80 })).toBeNull();
  });
});
