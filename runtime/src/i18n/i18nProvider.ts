import polyglotI18nProvider from 'ra-i18n-polyglot';
import ptBR from './ptBR';

// pt-BR only: the English set stays empty (spec section 9).
export const i18nProvider = polyglotI18nProvider(() => ptBR as any, 'pt-BR', [{ locale: 'pt-BR', name: 'Português' }], {
  allowMissing: true,
});
