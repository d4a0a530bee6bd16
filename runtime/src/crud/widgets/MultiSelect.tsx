// Multi-select picker (spec 'Multi-select pickers'): the field shows the chosen items as chips (a count
// 'N selecionados' at 50 or more) and opens a dialog with a filter, 'Selecionar todos' (the filtered items),
// 'Limpar todos', grouped items (area → register → actions, e.g. the permission catalogue) and Fechar/Confirmar.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  Box, Button, Checkbox, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel,
  IconButton, InputAdornment, Switch, TextField, Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import LockIcon from '@mui/icons-material/Lock';
import { clearAll, filterOptions, groupOptions, selectAll, toggle, unselect, withObrig, type PickOption } from '../lib/pickOptions';

export const CHIP_LIMIT = 50;

type Value = string | number;

interface Props {
  id: string;
  label: string;
  value: Value[];
  onChange: (v: Value[]) => void;
  options: PickOption[];
  /** label of a selected value not among the options (e.g. a reference not loaded) */
  labelOf?: (v: Value) => string;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  loading?: boolean;
  /** server-side filtering (reference lists): called with the filter text while the dialog is open */
  onQuery?: (q: string) => void;
  onBlur?: () => void;
  /** extra controls in the dialog's toolbar (e.g. the asset picker's grouping switch) and a note under it */
  toolbar?: ReactNode;
  note?: string;
}

const has = (sel: Value[], v: Value) => sel.some((x) => String(x) === String(v));

function TriCheckbox({ options, draft, onChange, label }: { options: PickOption[]; draft: Value[]; onChange: (v: Value[]) => void; label: string }) {
  const n = options.filter((o) => has(draft, o.value)).length;
  return (
    <Checkbox
      size="small"
      checked={n > 0 && n === options.length}
      indeterminate={n > 0 && n < options.length}
      onChange={() => onChange(n === options.length ? unselect(draft, options) : selectAll(draft, options))}
      slotProps={{ input: { 'aria-label': label } }}
      sx={{ p: 0.5 }}
    />
  );
}

/** An item's label with its second label (coloured) and, when mandatory, a lock with 'Obrigatório'. */
function ItemLabel({ option, text }: { option: PickOption; text: string }) {
  return (
    <Typography variant="body2" component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      {text}
      {option.secondLabel && <Box component="span" className="rastro-second" sx={{ color: option.colorSecond ?? 'text.secondary', fontSize: '0.85em', fontWeight: 500 }}>{option.secondLabel}</Box>}
      {option.obrig && <LockIcon titleAccess="Obrigatório" sx={{ fontSize: 14, color: 'text.secondary' }} />}
    </Typography>
  );
}

function PickerDialog({ open, title, options, value, onClose, onConfirm, loading, onQuery, toolbar, note }: {
  open: boolean; title: string; options: PickOption[]; value: Value[]; loading?: boolean;
  onClose: () => void; onConfirm: (v: Value[]) => void; onQuery?: (q: string) => void; toolbar?: ReactNode; note?: string;
}) {
  const [draft, setDraft] = useState<Value[]>(value);
  const [query, setQuery] = useState('');
  const [onlySelected, setOnlySelected] = useState(false);
  useEffect(() => {
    if (open) {
      setDraft(value);
      setQuery('');
      setOnlySelected(false);
    }
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => onQuery?.(query), [query]); // eslint-disable-line react-hooks/exhaustive-deps
  const filtered = useMemo(() => {
    const f = onQuery ? options : filterOptions(options, query);
    return onlySelected ? f.filter((o) => has(draft, o.value)) : f;
  }, [options, query, onlySelected, draft, onQuery]);
  const groups = useMemo(() => groupOptions(filtered), [filtered]);
  const grouped = filtered.some((o) => o.subgroup || o.group);
  // a long catalogue gets a tall dialog of fixed height (no jumping while filtering); a short list fits its content
  const tall = options.some((o) => o.subgroup || o.group) || options.length > 30;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth={false}
      aria-labelledby="rastro-picker-title"
      slotProps={{ paper: { sx: { width: '70%', minWidth: 360, ...(tall ? { height: '80%' } : { maxHeight: '80%' }) } } }}
    >
      <DialogTitle id="rastro-picker-title" sx={{ display: 'flex', alignItems: 'center', gap: 2, pb: 1 }}>
        <Box sx={{ flex: 1 }}>{title}</Box>
        <Typography variant="body2" color="text.secondary" data-testid="picker-count">
          {draft.length} {draft.length === 1 ? 'selecionado' : 'selecionados'}
        </Typography>
      </DialogTitle>
      <Box sx={{ px: 3, pb: 1, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          size="small"
          autoFocus
          placeholder="Filtrar"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
          sx={{ flex: 1, minWidth: 220 }}
          slotProps={{
            input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
            htmlInput: { 'aria-label': 'Filtrar' },
          }}
        />
        <Button size="small" variant="outlined" disabled={!filtered.length} onClick={() => setDraft(selectAll(draft, filtered))}>
          Selecionar todos{query ? ` (${filtered.length})` : ''}
        </Button>
        <Button size="small" variant="outlined" color="inherit" disabled={draft.length <= clearAll(options).length} onClick={() => setDraft(clearAll(options))}>
          Limpar todos
        </Button>
        <FormControlLabel
          sx={{ ml: 0.5 }}
          control={<Switch size="small" checked={onlySelected} onChange={(e) => setOnlySelected(e.target.checked)} />}
          label={<Typography variant="body2">Somente selecionados</Typography>}
        />
        {toolbar}
      </Box>
      {note && <Typography variant="caption" color="text.secondary" sx={{ px: 3, pb: 1 }} data-testid="picker-note">{note}</Typography>}
      <DialogContent dividers sx={{ p: 0 }}>
        {loading ? (
          <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress size={24} /></Box>
        ) : !filtered.length ? (
          <Typography color="text.secondary" sx={{ px: 3, py: 2 }}>Nenhum resultado</Typography>
        ) : grouped ? (
          groups.map((g) => (
            <Box key={g.group} component="section" aria-label={g.group}>
              <Box sx={{ position: 'sticky', top: 0, zIndex: 1, bgcolor: 'grey.100', px: 2, py: 0.5, display: 'flex', alignItems: 'center', gap: 1, borderBottom: 1, borderColor: 'divider' }}>
                <TriCheckbox options={g.subgroups.flatMap((s) => s.options)} draft={draft} onChange={setDraft} label={`Todos de ${g.group}`} />
                <Typography variant="subtitle2" sx={{ textTransform: 'uppercase', letterSpacing: 0.5 }}>{g.group}</Typography>
              </Box>
              {g.subgroups.map((s) => !s.subgroup ? (
                <Box key="" sx={{ px: 2, py: 0.5, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', borderBottom: 1, borderColor: 'divider' }}>
                  {s.options.map((o) => (
                    <FormControlLabel
                      key={String(o.value)}
                      control={<Checkbox size="small" checked={has(draft, o.value)} disabled={o.obrig} onChange={() => setDraft(toggle(draft, o.value, options))} sx={{ p: 0.5 }} slotProps={{ input: { 'aria-label': o.label } }} />}
                      label={<ItemLabel option={o} text={o.label} />}
                    />
                  ))}
                </Box>
              ) : (
                <Box key={s.subgroup} role="group" aria-label={s.subgroup} sx={{ display: 'flex', alignItems: 'flex-start', px: 2, py: 0.5, borderBottom: 1, borderColor: 'divider', '&:hover': { bgcolor: 'action.hover' } }}>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, width: 260, flexShrink: 0, pt: 0.25 }}>
                    <TriCheckbox options={s.options} draft={draft} onChange={setDraft} label={`Todos de ${s.subgroup}`} />
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>{s.subgroup}</Typography>
                  </Box>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
                    {s.options.map((o) => (
                      <FormControlLabel
                        key={String(o.value)}
                        sx={{ mr: 0 }}
                        title={o.label}
                        control={<Checkbox size="small" checked={has(draft, o.value)} disabled={o.obrig} onChange={() => setDraft(toggle(draft, o.value, options))} sx={{ p: 0.5 }} slotProps={{ input: { 'aria-label': o.label } }} />}
                        label={<ItemLabel option={o} text={o.short ?? o.label} />}
                      />
                    ))}
                  </Box>
                </Box>
              ))}
            </Box>
          ))
        ) : (
          <Box sx={{ px: 2, py: 1, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
            {filtered.map((o) => (
              <FormControlLabel
                key={String(o.value)}
                control={<Checkbox size="small" checked={has(draft, o.value)} disabled={o.obrig} onChange={() => setDraft(toggle(draft, o.value, options))} sx={{ p: 0.5 }} slotProps={{ input: { 'aria-label': o.label } }} />}
                label={<ItemLabel option={o} text={o.label} />}
              />
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3 }}>
        <Button onClick={onClose}>Fechar</Button>
        <Button variant="contained" onClick={() => onConfirm(draft)}>Confirmar</Button>
      </DialogActions>
    </Dialog>
  );
}

export function MultiSelect({ id, label, value, onChange, options, labelOf, required, disabled, error, loading, onQuery, onBlur, toolbar, note }: Props) {
  const [open, setOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const byValue = useMemo(() => new Map(options.map((o) => [String(o.value), o])), [options]);
  const nameOf = (v: Value) => byValue.get(String(v))?.label ?? labelOf?.(v) ?? String(v);
  // mandatory items are part of the value from the start
  useEffect(() => {
    const full = withObrig(value, options);
    if (full !== value && !disabled) onChange(full);
  }, [options, value]); // eslint-disable-line react-hooks/exhaustive-deps
  const openPicker = () => !disabled && setOpen(true);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
      e.preventDefault();
      e.stopPropagation();
      openPicker();
    }
  };
  const chips = value.length === 0 ? undefined : value.length >= CHIP_LIMIT ? (
    <Chip size="small" label={`${value.length} selecionados`} sx={{ m: 0.25 }} data-testid="chips-count" />
  ) : (
    value.map((v) => {
      const o = byValue.get(String(v));
      return (
        <Chip
          key={String(v)}
          size="small"
          label={o ? <ItemLabel option={o} text={o.label} /> : nameOf(v)}
          aria-label={o?.obrig ? `${nameOf(v)} (obrigatório)` : nameOf(v)}
          sx={{ m: 0.25, maxWidth: 360 }}
          onDelete={disabled || o?.obrig ? undefined : (e) => { e.stopPropagation(); onChange(value.filter((x) => String(x) !== String(v))); }}
        />
      );
    })
  );
  return (
    <>
      <TextField
        id={id}
        label={label}
        required={required}
        disabled={disabled}
        error={error}
        fullWidth
        value=""
        inputRef={inputRef}
        onClick={openPicker}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        slotProps={{
          input: {
            readOnly: true,
            startAdornment: chips,
            endAdornment: (
              <InputAdornment position="end">
                <IconButton size="small" aria-label={`Selecionar ${label}`} disabled={disabled} onClick={(e) => { e.stopPropagation(); openPicker(); }}>
                  <PlaylistAddCheckIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
          htmlInput: { 'aria-haspopup': 'dialog', style: { cursor: disabled ? undefined : 'pointer' } },
        }}
        sx={{
          '& .MuiInputBase-root': { flexWrap: 'wrap', py: chips ? 0.75 : undefined, pr: 1, cursor: disabled ? undefined : 'pointer' },
          '& .MuiInputBase-input': { width: 0, minWidth: 24, flexGrow: 1, p: chips ? '4px 4px' : undefined },
        }}
      />
      <PickerDialog
        open={open}
        title={label}
        options={options}
        value={value}
        loading={loading}
        onQuery={onQuery}
        toolbar={toolbar}
        note={note}
        onClose={() => { setOpen(false); inputRef.current?.focus(); }}
        onConfirm={(v) => { setOpen(false); onChange(v); inputRef.current?.focus(); }}
      />
    </>
  );
}
