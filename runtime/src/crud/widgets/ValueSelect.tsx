// The single-value select of the forms ({ value, label } options, 'Nenhum resultado', label search, slice 200):
// fixed options (enum) and a register's codes (lookup) alike.
import { Autocomplete, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';

export const NO_OPTIONS = 'Nenhum resultado';
export interface ValueOption { value: string; label: string }

// Case-insensitive substring on label (spec section 5), slice 200.
export const filterOptions = <T,>(options: T[], { inputValue, getOptionLabel }: { inputValue: string; getOptionLabel: (o: T) => string }) => {
  const q = inputValue.trim().toLowerCase();
  return (q ? options.filter((o) => getOptionLabel(o).toLowerCase().includes(q)) : options).slice(0, 200);
};

export function ValueSelect({ widget, options, loading, locked, helperText }: {
  widget: WidgetProps; options: ValueOption[]; loading?: boolean; locked?: boolean; helperText?: string;
}) {
  const { id, value, onChange, onBlur, onFocus, label, required, disabled, readonly, rawErrors = [] } = widget;
  // a value the options do not (or not yet) have is shown as it is
  const current = options.find((o) => o.value === value) ?? (value ? { value: String(value), label: String(value) } : null);
  return (
    <Autocomplete
      id={id}
      options={options}
      value={current}
      loading={loading}
      disabled={disabled || readonly || locked}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      filterOptions={filterOptions}
      noOptionsText={NO_OPTIONS}
      loadingText="Carregando..."
      onChange={(_, v) => onChange(v ? v.value : undefined)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      renderInput={(params) => <TextField {...params} label={label} required={required} error={rawErrors.length > 0} helperText={helperText} />}
    />
  );
}
