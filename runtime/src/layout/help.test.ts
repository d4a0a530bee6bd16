import { describe, expect, it } from 'vitest';
import modelJson from '../generated/model.json';
import type { Model } from '../../../shared/model';
import { helpFor, helpTexts } from './helpTexts';
import { HELP_PANEL_WIDTH } from './HelpPanel';
import { closesOnRequest, DIALOG_DEFAULTS } from '../crud/widgets/AppDialog';
import { DATE_PLACEHOLDER } from '../crud/lib/dates';

describe('help side panel (spec section 2 "Root screen")', () => {
  it('17% wide; the device application parameters by section, each with a title and label/value items', () => {
    expect(HELP_PANEL_WIDTH).toBe('17%');
    expect(Object.keys(helpTexts.dispositivo)).toEqual([
      'temporizacao', 'min_max', 'operadora', 'odometro_gps', 'gateway', 'tabela_estados', 'acelerometro', 'captura_entradas',
      'can', 'horimetro', 'operacao_veiculo', 'snapshot',
    ]);
    for (const s of Object.values(helpTexts.dispositivo)) {
      expect(s.title.length).toBeGreaterThan(2);
      expect(s.items.length).toBeGreaterThan(1);
      for (const i of s.items) expect(i.label && i.value).toBeTruthy();
    }
    expect(helpFor('dispositivo', 'odometro_gps')?.title).toBe('Hodômetro e GPS');
    expect(helpFor('dispositivo', 'nenhuma')).toBeUndefined();
  });

  it('carries the device rules of catalogues.md section 5', () => {
    const all = JSON.stringify(helpTexts.dispositivo);
    for (const rule of ['não pode ser menor que 20 s', 'Use 0 para desativar', 'De 1 a 250 s entre amostras; 0 desativa o envio', 'de 1 a 60',
      '20 km/h', 'de 30 minutos a 8 dias', 'no máximo 227 bytes', 'nível máximo 15']) expect(all).toContain(rule);
  });

  it('every form section of the metadata that asks for help names texts that exist', () => {
    const asked = (modelJson as unknown as Model).entities.flatMap((e) => e.form.sections.filter((s) => s.help).map((s) => `${e.key}: ${s.help!.screen}.${s.help!.section}`));
    expect(asked).toContain('ativo: dispositivo.odometro_gps');
    expect(asked.filter((a) => { const [, k] = a.split(': '); const [screen, section] = k.split('.'); return !helpFor(screen, section); })).toEqual([]);
  });
});

describe('dialog defaults and date placeholder (spec section 2 "Other shared pieces")', () => {
  it('70% × 50%, Fechar and Salvar, persistent, Defina o Titulo', () => {
    expect(DIALOG_DEFAULTS).toEqual({ width: '70%', height: '50%', title: 'Defina o Titulo', closeLabel: 'Fechar', saveLabel: 'Salvar', persistent: true });
    expect(closesOnRequest(true)).toBe(false);
    expect(closesOnRequest(false)).toBe(true);
  });
  it('date picker placeholder', () => {
    expect(DATE_PLACEHOLDER).toBe('Selecione a data');
  });
});
