import { describe, expect, it } from 'vitest';
import { decodeCameraStatus, listCameraAlarms, lookupCameraAlarm, lookupCameraAlarms } from './index.ts';

describe('camera alarms (catalogues 3.8)', () => {
  it.each([
    [600, 'frontal_collision_l1', 'baixo'], [601, 'frontal_collision_l2', 'médio'],
    [602, 'lane_change_l1', 'médio'], [603, 'lane_change_l2', 'alto'],
    [604, 'unsafe_distance_l1', 'médio'], [605, 'unsafe_distance_l2', 'alto'],
    [606, 'pedestrian_collision_l1', 'médio'], [607, 'pedestrian_collision_l2', 'alto'],
    [618, 'fatigue_l1', 'médio'], [619, 'fatigue_l2', 'alto'],
    [620, 'phone_call_l1', 'baixo'], [621, 'phone_call_l2', 'médio'],
    [622, 'smoking_l1', 'baixo'], [623, 'smoking_l2', 'médio'],
    [624, 'distraction_l1', 'médio'], [625, 'distraction_l2', 'alto'],
    [626, 'driver_abnormality_l1', 'médio'], [627, 'driver_abnormality_l2', 'alto'],
    [633, 'rear_blind_spot', 'baixo'], [634, 'left_blind_spot', 'baixo'], [635, 'right_blind_spot', 'baixo'],
    [636, 'driver_identification', 'baixo'], [710, 'no_seatbelt_l1', 'baixo'], [711, 'no_seatbelt_l2', 'médio'],
  ])('%i -> %s (%s)', (code, key, risk) => {
    const a = lookupCameraAlarm(code);
    expect(a).toMatchObject({ code, key, risk, unknown: false });
    expect(a.label.length).toBeGreaterThan(0);
    expect(lookupCameraAlarm(String(code)).key).toBe(key);
  });

  it('has exactly the 24 catalogued codes', () => {
    expect(listCameraAlarms().map((a) => a.code)).toEqual([600, 601, 602, 603, 604, 605, 606, 607, 618, 619, 620, 621, 622, 623, 624, 625, 626, 627, 633, 634, 635, 636, 710, 711]);
    expect(lookupCameraAlarm(603).label).toBe('Mudança de faixa — nível 2');
  });

  it('keeps unknown codes, flagged, never dropped', () => {
    expect(lookupCameraAlarm(608)).toEqual({ code: 608, key: 'unknown_608', label: '', risk: null, unknown: true });
    expect(lookupCameraAlarm('9999').key).toBe('unknown_9999');
    expect(lookupCameraAlarm('x;y')).toMatchObject({ key: 'unknown_x_y', unknown: true });
    const list = lookupCameraAlarms([600, 1, 711, 12345]);
    expect(list.map((a) => a.key)).toEqual(['frontal_collision_l1', 'unknown_1', 'no_seatbelt_l2', 'unknown_12345']);
    expect(list.filter((a) => a.unknown)).toHaveLength(2);
  });

  it('device status s1..s4: 1 means on', () => {
    expect(decodeCameraStatus({ s1: 1, s2: 0, s3: '1', s4: 2 })).toEqual({ s1: true, s2: false, s3: true, s4: false });
    expect(decodeCameraStatus({})).toEqual({ s1: false, s2: false, s3: false, s4: false });
  });
});
