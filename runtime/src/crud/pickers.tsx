// Date, date-time and time widgets (MUI X pickers, dayjs pt-BR): DD-MM-YYYY, 24-hour HH:mm.
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/pt-br';
import type { ReactNode } from 'react';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import { ptBR } from '@mui/x-date-pickers/locales';
import type { WidgetProps } from '@rjsf/utils';

dayjs.locale('pt-br');

export const DATE_FORMAT = 'DD-MM-YYYY';
export const DATETIME_FORMAT = 'DD-MM-YYYY HH:mm';
export const TIME_FORMAT = 'HH:mm';

export { PickersProvider } from './PickersProvider';

const field = (p: WidgetProps) => ({
  textField: {
    id: p.id,
    fullWidth: true,
    size: 'small' as const,
    margin: 'dense' as const,
    required: p.required,
    error: (p.rawErrors?.length ?? 0) > 0,
    onBlur: () => p.onBlur(p.id, p.value),
  },
});

const parse = (v: unknown, fmt?: string): Dayjs | null => {
  if (v === undefined || v === null || v === '') return null;
  const d = fmt ? dayjs(String(v), fmt) : dayjs(String(v));
  return d.isValid() ? d : null;
};

// value 'YYYY-MM-DD'
export function DateWidget(p: WidgetProps) {
  return (
    <DatePicker
      label={p.label}
      format={DATE_FORMAT}
      value={parse(p.value, 'YYYY-MM-DD')}
      disabled={p.disabled || p.readonly}
      onChange={(d) => p.onChange(d && d.isValid() ? d.format('YYYY-MM-DD') : undefined)}
      slotProps={field(p)}
    />
  );
}

// value ISO 8601 instant
export function DateTimeWidget(p: WidgetProps) {
  return (
    <DateTimePicker
      label={p.label}
      format={DATETIME_FORMAT}
      ampm={false}
      value={parse(p.value)}
      disabled={p.disabled || p.readonly}
      onChange={(d) => p.onChange(d && d.isValid() ? d.toISOString() : undefined)}
      slotProps={field(p)}
    />
  );
}

// value 'HH:mm'
export function TimeWidget(p: WidgetProps) {
  return (
    <TimePicker
      label={p.label}
      format={TIME_FORMAT}
      ampm={false}
      value={parse(p.value, 'HH:mm')}
      disabled={p.disabled || p.readonly}
      onChange={(d) => p.onChange(d && d.isValid() ? d.format('HH:mm') : undefined)}
      slotProps={field(p)}
    />
  );
}
