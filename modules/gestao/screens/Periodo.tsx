// The period picker of the dashboards: the date picker's shortcuts that fit daily totals (core.md 2), plus this month.
import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import { PERIODOS, type Periodo } from '../widgets';

export function SeletorPeriodo({ valor, onChange, testid = 'periodo' }: { valor: Periodo; onChange: (p: Periodo) => void; testid?: string }) {
  return (
    <ToggleButtonGroup size="small" exclusive value={valor} onChange={(_, v) => v && onChange(v as Periodo)} aria-label="Período" data-testid={testid}
      sx={{ flexWrap: 'wrap', bgcolor: 'background.paper' }}>
      {(Object.keys(PERIODOS) as Periodo[]).map((p) => <ToggleButton key={p} value={p} sx={{ textTransform: 'none', px: 1.5 }}>{PERIODOS[p]}</ToggleButton>)}
    </ToggleButtonGroup>
  );
}
