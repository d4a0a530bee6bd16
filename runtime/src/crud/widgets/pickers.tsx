// Date, date-time and time widgets (MUI X pickers, dayjs pt-BR): DD-MM-YYYY, 24-hour HH:mm.
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/pt-br';
import { useState, type ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import type { WidgetProps } from '@rjsf/utils';

dayjs.locale('pt-br');

import { DATE_FORMAT, DATETIME_FORMAT, DATE_PLACEHOLDER, TIME_FORMAT } from '../lib/dates';

export { DATE_FORMAT, DATETIME_FORMAT, DATE_PLACEHOLDER, TIME_FORMAT };

import { PickersProvider } from './PickersProvider';


// Empty and blurred, a date field shows 'Selecione a data' (spec section 2) instead of its format sections.
const field = (p: WidgetProps, placeholder: boolean, setFocused: (f: boolean) => void) => ({
  textField: {
    id: p.id,
    fullWidth: true,
    size: 'small' as const,
    margin: 'dense' as const,
    required: p.required,
    error: (p.rawErrors?.length ?? 0) > 0,
    onFocus: () => setFocused(true),
    onBlur: () => { setFocused(false); p.onBlur(p.id, p.value); },
    slotProps: placeholder ? { inputLabel: { shrink: true } } : undefined,
    sx: placeholder ? { '& .MuiPickersSectionList-root': { opacity: '0 !important' } } : undefined,
  },
});

function WithPlaceholder({ show, children }: { show: boolean; children: ReactNode }) {
  return (
    <Box sx={{ position: 'relative' }}>
      <PickersProvider>{children}</PickersProvider>
      {show && (
        <Typography aria-hidden data-testid="date-placeholder" variant="body2"
          sx={{ position: 'absolute', left: 14, top: 'calc(50% + 2px)', transform: 'translateY(-50%)', pointerEvents: 'none', color: 'text.disabled' }}>
          {DATE_PLACEHOLDER}
        </Typography>
      )}
    </Box>
  );
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

const parse = (v: unknown, fmt?: string): Dayjs | null => {
  if (v === undefined || v === null || v === '') return null;
  const d = fmt ? dayjs(String(v), fmt) : dayjs(String(v));
  return d.isValid() ? d : null;
};

// value 'YYYY-MM-DD'
export function DateWidget(p: WidgetProps) {
  const [focused, setFocused] = useState(false);
  const show = isEmpty(p.value) && !focused;
  return (
    <WithPlaceholder show={show}>
    <DatePicker
      label={p.label}
      format={DATE_FORMAT}
      value={parse(p.value, 'YYYY-MM-DD')}
      disabled={p.disabled || p.readonly}
      onChange={(d) => p.onChange(d && d.isValid() ? d.format('YYYY-MM-DD') : undefined)}
      slotProps={field(p, show, setFocused)}
    />
    </WithPlaceholder>
  );
}

// value ISO 8601 instant
export function DateTimeWidget(p: WidgetProps) {
  const [focused, setFocused] = useState(false);
  const show = isEmpty(p.value) && !focused;
  return (
    <WithPlaceholder show={show}>
    <DateTimePicker
      label={p.label}
      format={DATETIME_FORMAT}
      ampm={false}
      value={parse(p.value)}
      disabled={p.disabled || p.readonly}
      onChange={(d) => p.onChange(d && d.isValid() ? d.toISOString() : undefined)}
      slotProps={field(p, show, setFocused)}
    />
    </WithPlaceholder>
  );
}

// value 'HH:mm'
export function TimeWidget(p: WidgetProps) {
  return (
    <PickersProvider>
    <TimePicker
      label={p.label}
      format={TIME_FORMAT}
      ampm={false}
      value={parse(p.value, 'HH:mm')}
      disabled={p.disabled || p.readonly}
      onChange={(d) => p.onChange(d && d.isValid() ? d.format('HH:mm') : undefined)}
      slotProps={field(p, false, () => undefined)}
    />
    </PickersProvider>
  );
}
