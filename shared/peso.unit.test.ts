import { describe, expect, it } from 'vitest';
import { weightsOf } from './peso.ts';

describe('weights a vehicle reports', () => {
  it('axles 1 and 2, and the gross weight: CAN gross when reported, else the sum of the axles reported', () => {
    expect(weightsOf({ 'detailedInformation-axleWeight1': 5571, 'detailedInformation-axleWeight2': 8688 }))
      .toEqual({ axle1: 5571, axle2: 8688, gross: 14259 });
    expect(weightsOf({ 'detailedInformation-axleWeight2': 5358, 'detailedInformation-axleWeight3': 7000, grossVehicleWeight: 20100 }))
      .toEqual({ axle1: null, axle2: 5358, gross: 20100 });
    expect(weightsOf({ grossVehicleWeight: 31000 })).toEqual({ axle1: null, axle2: null, gross: 31000 });
  });
  it('no sensor (0), "not available" (huge) or text is no weight', () => {
    expect(weightsOf({ fuelLevel: 80 })).toBeNull();
    expect(weightsOf({ 'detailedInformation-axleWeight1': 0, grossVehicleWeight: 0 })).toBeNull();
    expect(weightsOf({ 'detailedInformation-axleWeight1': 65535, 'detailedInformation-axleWeight2': '8000' })).toBeNull();
    expect(weightsOf({ 'detailedInformation-axleWeight1': 65535, 'detailedInformation-axleWeight2': 4000, grossVehicleWeight: 4_000_000 }))
      .toEqual({ axle1: null, axle2: 4000, gross: 4000 });
  });
});
