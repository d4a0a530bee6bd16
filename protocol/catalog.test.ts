import { mkdtempSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CATALOG_DIR, CatalogError, catalogNames, describe as describeKey, findByCode, findByKey, findByMessage,
  getCatalog, loadCatalogs, validateCatalog,
} from './catalog.ts';

const unit = { value: '', full: '', short: '' };
const good = {
  family: 'teste', kind: 'eventos', title: 'Teste',
  entries: [{ event: 'a', code: 1, type: 'primary', description: 'Algo', subtitle: '', unit }],
};

describe('catalogue files (metadata/catalogos)', () => {
  it('load and validate every file', () => {
    const all = loadCatalogs();
    expect([...all.keys()]).toEqual([
      'camera-alarmes', 'camera-parametros', 'can-parametros', 'legacy-eventos', 'legacy-parametros',
      'queclink-eventos', 'queclink-parametros', 'viagem-parametros',
    ]);
    expect(catalogNames()).toEqual([...all.keys()]);
  });

  it('legacy events: 1..199 plus tachograph 205..207; undescribed ones carry no text', () => {
    const ev = getCatalog('legacy-eventos')!;
    const codes = ev.entries.map((e) => e.code);
    for (let c = 1; c <= 199; c++) expect(codes).toContain(c);
    for (const c of [205, 206, 207]) expect(codes).toContain(c);
    for (const c of [68, 70, 78, 79, 196, 198, 199, 205, 206, 207]) {
      expect(findByCode('legacy-eventos', c)?.subtitle).toBe('Tacógrafo');
      expect(findByCode('legacy-eventos', c)?.undescribed).toBeUndefined();
    }
    const undescribed = ev.entries.filter((e) => e.undescribed);
    expect(undescribed.length).toBe(199 - 7);
    for (const e of undescribed) expect(e.description).toBe('');
  });

  it('legacy parameters carry the catalogue keys, types and units of 3.4', () => {
    expect(findByKey('legacy-parametros', 'main_battery')).toMatchObject({ type: 'voltage', unit: { value: 'volts', short: 'V' } });
    expect(findByKey('legacy-parametros', 'odo_can')).toMatchObject({ type: 'distance', unit: { short: 'Km' } });
    expect(findByKey('legacy-parametros', 'fuel_consumption_can')).toMatchObject({ unit: { value: 'litre' } });
    expect(findByKey('legacy-parametros', 'engine_running_time_meter')).toMatchObject({ type: 'time', unit: { short: 'Seg' } });
    expect(findByKey('legacy-parametros', 'accelerometer_data_r')).toMatchObject({ type: 'acceleration' });
    expect(findByKey('legacy-parametros', 'output_status-blocking')).toMatchObject({ type: 'bit' });
    expect(describeKey('legacy-parametros', 'gps_course')).toBe('Direção (curso GPS)');
    expect(describeKey('legacy-parametros', 'nope')).toBe('');
  });

  it('queclink events are indexed by @Track message and class', () => {
    expect(findByMessage('queclink-eventos', 'GTIGN')).toMatchObject({ event: 'ignitionOn', group: 'evt' });
    expect(findByMessage('queclink-eventos', 'GTFRI')).toMatchObject({ event: 'fixedReport', group: 'rsp' });
    for (const m of ['GTTOW', 'GTCRA', 'GTPNA', 'GTPFA', 'GTMPN', 'GTMPF', 'GTDIS', 'GTSPD', 'GTSOS', 'GTHBM', 'GTIGF', 'GTGEO', 'GTUPD'])
      expect(findByMessage('queclink-eventos', m), m).toBeDefined();
    expect(findByKey('queclink-eventos', 'deviceRemoved')).toMatchObject({ undescribed: true, description: '' });
  });

  it('every event key the queclink decoder can emit is in queclink-eventos.yaml', async () => {
    const { eventCatalogue } = await import('./queclink/index.ts');
    for (const e of eventCatalogue()) expect(findByKey('queclink-eventos', e.key), `${e.code} ${e.key}`).toBeDefined();
  });

  it('trip, CAN (group prefixes) and camera files', () => {
    expect(getCatalog('viagem-parametros')!.entries.map((e) => e.event)).toEqual(['trip_duration', 'trip_distance', 'trip_has_driver', 'trip_driver']);
    const can = getCatalog('can-parametros')!.entries.map((e) => e.event);
    for (const p of ['detailedInformation-', 'lights-', 'doors-', 'expansionInformation-', 'systemStatusHealth-'])
      expect(can.some((k) => k.startsWith(p)), p).toBe(true);
    for (let i = 1; i <= 7; i++) expect(can).toContain(`detailedInformation-axleWeight${i}`);
    expect(getCatalog('camera-alarmes')!.entries).toHaveLength(24);
  });
});

describe('catalogue validation', () => {
  it('accepts a minimal file', () => {
    expect(validateCatalog(good)).toEqual([]);
  });

  it.each([
    ['missing entries', { ...good, entries: undefined }],
    ['bad kind', { ...good, kind: 'outros' }],
    ['type outside 3.1', { ...good, entries: [{ ...good.entries[0], type: 'banana' }] }],
    ['unit outside 3.1', { ...good, entries: [{ ...good.entries[0], unit: { value: 'parsec', full: 'Parsec', short: 'pc' } }] }],
    ['mixed unit forms', { ...good, entries: [{ ...good.entries[0], unit: { value: 'volts', full: 'Volts', short: 'km/h' } }] }],
    ['undescribed with invented text', { ...good, entries: [{ ...good.entries[0], undescribed: true }] }],
    ['described with empty text', { ...good, entries: [{ ...good.entries[0], description: '' }] }],
    ['bad risk', { ...good, entries: [{ ...good.entries[0], risk: 'extremo' }] }],
    ['unknown property', { ...good, entries: [{ ...good.entries[0], cor: 'azul' }] }],
    ['duplicate key', { ...good, entries: [good.entries[0], { ...good.entries[0], code: 2 }] }],
    ['duplicate code', { ...good, entries: [good.entries[0], { ...good.entries[0], event: 'b' }] }],
  ])('rejects %s', (_name, data) => {
    expect(validateCatalog(data).length).toBeGreaterThan(0);
  });

  it('loadCatalogs throws CatalogError naming the bad file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cat-'));
    copyFileSync(join(CATALOG_DIR, '_schema.json'), join(dir, '_schema.json'));
    writeFileSync(join(dir, 'ok.yaml'), 'family: x\nkind: eventos\ntitle: X\nentries:\n  - { event: a, type: primary, description: A, subtitle: "", unit: { value: "", full: "", short: "" } }\n');
    expect(loadCatalogs(dir).get('ok')?.entries).toHaveLength(1);
    writeFileSync(join(dir, 'bad.yaml'), 'family: x\nkind: eventos\ntitle: X\nentries: []\n');
    expect(() => loadCatalogs(dir)).toThrow(CatalogError);
    expect(() => loadCatalogs(dir)).toThrow(/bad\.yaml/);
    writeFileSync(join(dir, 'bad.yaml'), 'family: [unclosed\n');
    expect(() => loadCatalogs(dir)).toThrow(CatalogError);
  });
});
