// The core's questionnaire widgets (metadata `widget: questionnaire` / `widget: answers` on a json field;
// shared/questionnaire.ts): the question editor (nine types, each with its settings), the respondent's view with
// one answer widget per type (photo through the image uploader, signature drawn and uploaded as PNG), the answers
// given. Answers are written to the register holding a reference to the questionnaire's entity and an answers field.
import { useEffect, useRef, useState } from 'react';
import {
  Alert, Box, Button, Checkbox, Chip, Divider, FormControlLabel, IconButton, MenuItem, Paper, Radio, RadioGroup, Stack,
  TextField, Tooltip, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import type { FieldProps } from '@rjsf/utils';
import { useCreate, useGetList, useGetOne, useNotify, useRecordContext } from 'react-admin';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { QUESTION_TYPES, checkAnswers, scaleOf, typeLabel, type Answer, type Question, type QuestionType } from '../../../../shared/questionnaire';
import { model, permissionFor } from '../../model';
import { ImageUploader } from './ImageUploader';
import { ImagePreview } from './ImagePreview';
import { thumbOf, uploadFile } from '../lib/upload';
import { formatDateTime } from '../lib/format';
import { useCan } from '../lib/useCan';

const newId = () => `q${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Keeps only the settings of the question's type (the server refuses the others). */
function ofType(q: Question, tipo: QuestionType): Question {
  const base: Question = { id: q.id, tipo, pergunta: q.pergunta, ...(q.obrigatoria ? { obrigatoria: true } : {}), ...(q.descricao ? { descricao: q.descricao } : {}) };
  if (tipo === 'MULTIPLE_CHOICE') return { ...base, opcoes: q.opcoes ?? ['Opção 1', 'Opção 2'], ...(q.multipla ? { multipla: true } : {}) };
  if (tipo === 'OPINION_SCALE') return { ...base, escalaMin: q.escalaMin ?? 1, escalaMax: q.escalaMax ?? 5, ...(q.rotuloMin ? { rotuloMin: q.rotuloMin } : {}), ...(q.rotuloMax ? { rotuloMax: q.rotuloMax } : {}) };
  if (tipo === 'NUMBER') return { ...base, ...(q.min != null ? { min: q.min } : {}), ...(q.max != null ? { max: q.max } : {}), ...(q.decimais ? { decimais: true } : {}) };
  if (tipo === 'TEXT') return { ...base, ...(q.maxCaracteres != null ? { maxCaracteres: q.maxCaracteres } : {}) };
  return base;
}

const num = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? undefined : Number(s));

function QuestionEditor({ q, index, count, disabled, onChange, onMove, onRemove }: {
  q: Question; index: number; count: number; disabled?: boolean;
  onChange: (q: Question) => void; onMove: (d: -1 | 1) => void; onRemove: () => void;
}) {
  const set = (patch: Partial<Question>) => {
    const next = { ...q, ...patch } as Record<string, unknown>;
    for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === '') delete next[k];
    onChange(next as unknown as Question);
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={`questao-${index}`}>
      <Stack direction="row" spacing={1} alignItems="flex-start">
        <Typography sx={{ pt: 2, minWidth: 28, fontWeight: 600 }}>{index + 1}.</Typography>
        <Stack spacing={1.5} sx={{ flex: 1 }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5}>
            <TextField label="Pergunta" required fullWidth value={q.pergunta ?? ''} disabled={disabled} inputProps={{ 'data-testid': `pergunta-${index}`, maxLength: 500 }}
              onChange={(e) => set({ pergunta: e.target.value })} />
            <TextField select label="Tipo" sx={{ minWidth: 200 }} value={q.tipo} disabled={disabled} inputProps={{ 'data-testid': `tipo-${index}` }}
              onChange={(e) => onChange(ofType(q, e.target.value as QuestionType))}>
              {QUESTION_TYPES.map((t) => <MenuItem key={t.value} value={t.value}>{t.label}</MenuItem>)}
            </TextField>
          </Stack>
          <TextField label="Descrição" size="small" fullWidth value={q.descricao ?? ''} disabled={disabled} onChange={(e) => set({ descricao: e.target.value })} />
          {q.tipo === 'MULTIPLE_CHOICE' && (
            <Stack spacing={1}>
              {(q.opcoes ?? []).map((o, i) => (
                <Stack key={i} direction="row" spacing={1} alignItems="center">
                  <TextField size="small" label={`Opção ${i + 1}`} value={o} disabled={disabled} sx={{ flex: 1 }}
                    onChange={(e) => set({ opcoes: (q.opcoes ?? []).map((x, j) => (j === i ? e.target.value : x)) })} />
                  <IconButton aria-label="Remover opção" disabled={disabled || (q.opcoes ?? []).length <= 2} onClick={() => set({ opcoes: (q.opcoes ?? []).filter((_, j) => j !== i) })}><DeleteIcon fontSize="small" /></IconButton>
                </Stack>
              ))}
              <Stack direction="row" spacing={2}>
                <Button size="small" startIcon={<AddIcon />} disabled={disabled} onClick={() => set({ opcoes: [...(q.opcoes ?? []), `Opção ${(q.opcoes ?? []).length + 1}`] })}>Adicionar opção</Button>
                <FormControlLabel control={<Checkbox checked={!!q.multipla} disabled={disabled} onChange={(e) => set({ multipla: e.target.checked || undefined })} />} label="Permitir várias respostas" />
              </Stack>
            </Stack>
          )}
          {q.tipo === 'OPINION_SCALE' && (
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5}>
              <TextField select size="small" label="Início da escala" value={scaleOf(q).min} disabled={disabled} sx={{ minWidth: 140 }} onChange={(e) => set({ escalaMin: Number(e.target.value) })}>
                {[0, 1].map((v) => <MenuItem key={v} value={v}>{v}</MenuItem>)}
              </TextField>
              <TextField select size="small" label="Fim da escala" value={scaleOf(q).max} disabled={disabled} sx={{ minWidth: 140 }} onChange={(e) => set({ escalaMax: Number(e.target.value) })}>
                {[3, 4, 5, 6, 7, 8, 9, 10].map((v) => <MenuItem key={v} value={v}>{v}</MenuItem>)}
              </TextField>
              <TextField size="small" label="Rótulo do início" value={q.rotuloMin ?? ''} disabled={disabled} onChange={(e) => set({ rotuloMin: e.target.value })} />
              <TextField size="small" label="Rótulo do fim" value={q.rotuloMax ?? ''} disabled={disabled} onChange={(e) => set({ rotuloMax: e.target.value })} />
            </Stack>
          )}
          {q.tipo === 'NUMBER' && (
            <Stack direction="row" spacing={1.5} alignItems="center">
              <TextField size="small" type="number" label="Mínimo" value={q.min ?? ''} disabled={disabled} onChange={(e) => set({ min: num(e.target.value) })} />
              <TextField size="small" type="number" label="Máximo" value={q.max ?? ''} disabled={disabled} onChange={(e) => set({ max: num(e.target.value) })} />
              <FormControlLabel control={<Checkbox checked={!!q.decimais} disabled={disabled} onChange={(e) => set({ decimais: e.target.checked || undefined })} />} label="Aceita decimais" />
            </Stack>
          )}
          {q.tipo === 'TEXT' && (
            <TextField size="small" type="number" label="Máximo de caracteres" sx={{ maxWidth: 220 }} value={q.maxCaracteres ?? ''} disabled={disabled} onChange={(e) => set({ maxCaracteres: num(e.target.value) })} />
          )}
          <FormControlLabel control={<Checkbox checked={!!q.obrigatoria} disabled={disabled} inputProps={{ 'aria-label': `Obrigatória ${index + 1}` }} onChange={(e) => set({ obrigatoria: e.target.checked || undefined })} />} label="Resposta obrigatória" />
        </Stack>
        <Stack>
          <Tooltip title="Mover para cima"><span><IconButton aria-label="Mover para cima" disabled={disabled || index === 0} onClick={() => onMove(-1)}><ArrowUpwardIcon fontSize="small" /></IconButton></span></Tooltip>
          <Tooltip title="Mover para baixo"><span><IconButton aria-label="Mover para baixo" disabled={disabled || index === count - 1} onClick={() => onMove(1)}><ArrowDownwardIcon fontSize="small" /></IconButton></span></Tooltip>
          <Tooltip title="Remover questão"><span><IconButton aria-label="Remover questão" disabled={disabled} onClick={onRemove}><DeleteIcon fontSize="small" /></IconButton></span></Tooltip>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** rjsf field of `widget: questionnaire`: the question list editor. */
export function QuestionnaireField(props: FieldProps) {
  const { formData, onChange, fieldPathId, disabled, readonly, name, required, rawErrors } = props;
  const raw: unknown[] = Array.isArray(formData) ? formData : [];
  // rjsf fills a required list (minItems) with an empty item: only real questions are kept
  const list = raw.filter((q): q is Question => !!q && typeof q === 'object' && typeof (q as Question).id === 'string');
  const f = (props.registry.formContext as any)?.fields?.get(name) as FieldMeta | undefined;
  const put = (next: Question[]) => onChange(next, fieldPathId.path);
  useEffect(() => { if (list.length !== raw.length) put(list); }); // eslint-disable-line react-hooks/exhaustive-deps
  const off = disabled || readonly;
  const errors = (rawErrors ?? []) as string[];
  return (
    <Stack spacing={1.5} id={fieldPathId.$id} data-testid="questionnaire-editor">
      <Typography variant="subtitle2">{f?.label ?? name}{required ? ' *' : ''}</Typography>
      {!list.length && <Typography color="text.secondary">Nenhuma questão: adicione a primeira.</Typography>}
      {list.map((q, i) => (
        <QuestionEditor key={q.id} q={q} index={i} count={list.length} disabled={off}
          onChange={(nq) => put(list.map((x, j) => (j === i ? nq : x)))}
          onMove={(d) => { const next = [...list]; [next[i], next[i + d]] = [next[i + d], next[i]]; put(next); }}
          onRemove={() => put(list.filter((_, j) => j !== i))} />
      ))}
      <Box>
        <Button variant="outlined" startIcon={<AddIcon />} disabled={off} onClick={() => put([...list, { id: newId(), tipo: 'YES_OR_NO', pergunta: '' }])}>Adicionar questão</Button>
      </Box>
      {errors.map((e) => <Alert key={e} severity="error">{e}</Alert>)}
    </Stack>
  );
}

/** Signature pad: drawn with the pointer, confirmed as a PNG uploaded to the company's files. */
function SignaturePad({ value, disabled, onChange }: { value?: string | null; disabled?: boolean; onChange: (url: string | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const pos = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * e.currentTarget.width) / r.width, y: ((e.clientY - r.top) * e.currentTarget.height) / r.height };
  };
  const clear = () => {
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (c && g) { g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height); }
    setDirty(false);
  };
  useEffect(clear, []);
  if (value) {
    return (
      <Stack direction="row" spacing={2} alignItems="center">
        <ImagePreview url={thumbOf(value)} alt="Assinatura" />
        {!disabled && <Button onClick={() => onChange(null)}>Assinar novamente</Button>}
      </Stack>
    );
  }
  return (
    <Stack spacing={1} alignItems="flex-start">
      <canvas ref={canvas} width={400} height={400} data-testid="signature-pad"
        style={{ width: 240, height: 240, border: '1px solid #bbb', borderRadius: 4, touchAction: 'none', cursor: 'crosshair' }}
        onPointerDown={(e) => { if (disabled) return; drawing.current = true; const g = e.currentTarget.getContext('2d')!; const p = pos(e); g.beginPath(); g.moveTo(p.x, p.y); }}
        onPointerMove={(e) => { if (!drawing.current) return; const g = e.currentTarget.getContext('2d')!; const p = pos(e); g.lineWidth = 4; g.lineCap = 'round'; g.strokeStyle = '#000'; g.lineTo(p.x, p.y); g.stroke(); setDirty(true); }}
        onPointerUp={() => { drawing.current = false; }}
        onPointerLeave={() => { drawing.current = false; }} />
      <Stack direction="row" spacing={1}>
        <Button size="small" disabled={disabled || !dirty || busy} onClick={clear}>Limpar</Button>
        <Button size="small" variant="contained" disabled={disabled || !dirty || busy} onClick={async () => {
          setBusy(true);
          try {
            const blob = await new Promise<Blob>((ok, ko) => canvas.current!.toBlob((b) => (b ? ok(b) : ko(new Error('Assinatura inválida'))), 'image/png'));
            onChange((await uploadFile(blob, 'assinatura.png')).file);
          } finally { setBusy(false); }
        }}>Confirmar assinatura</Button>
      </Stack>
    </Stack>
  );
}

/** The answer widget of one question. */
export function AnswerInput({ q, value, disabled, onChange }: { q: Question; value: unknown; disabled?: boolean; onChange: (v: unknown) => void }) {
  switch (q.tipo) {
    case 'YES_OR_NO':
      return (
        <RadioGroup row value={value === true ? 'sim' : value === false ? 'nao' : ''} onChange={(e) => onChange(e.target.value === 'sim')}>
          <FormControlLabel value="sim" control={<Radio disabled={disabled} />} label="Sim" />
          <FormControlLabel value="nao" control={<Radio disabled={disabled} />} label="Não" />
        </RadioGroup>
      );
    case 'MULTIPLE_CHOICE':
      if (q.multipla) {
        const picked = Array.isArray(value) ? (value as string[]) : [];
        return (
          <Stack>
            {(q.opcoes ?? []).map((o) => (
              <FormControlLabel key={o} label={o} control={<Checkbox disabled={disabled} checked={picked.includes(o)}
                onChange={(e) => onChange(e.target.checked ? [...picked, o] : picked.filter((x) => x !== o))} />} />
            ))}
          </Stack>
        );
      }
      return (
        <RadioGroup value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
          {(q.opcoes ?? []).map((o) => <FormControlLabel key={o} value={o} label={o} control={<Radio disabled={disabled} />} />)}
        </RadioGroup>
      );
    case 'OPINION_SCALE': {
      const { min, max } = scaleOf(q);
      return (
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap">
          {q.rotuloMin && <Typography variant="caption">{q.rotuloMin}</Typography>}
          {Array.from({ length: max - min + 1 }, (_, i) => min + i).map((v) => (
            <Button key={v} size="small" sx={{ minWidth: 40 }} disabled={disabled} variant={value === v ? 'contained' : 'outlined'} onClick={() => onChange(v)}>{v}</Button>
          ))}
          {q.rotuloMax && <Typography variant="caption">{q.rotuloMax}</Typography>}
        </Stack>
      );
    }
    case 'TEXT':
      return <TextField fullWidth multiline minRows={2} disabled={disabled} value={typeof value === 'string' ? value : ''} inputProps={{ maxLength: q.maxCaracteres ?? 5000 }} onChange={(e) => onChange(e.target.value)} />;
    case 'DATE_TIME':
      return <TextField type="datetime-local" disabled={disabled} value={typeof value === 'string' ? value.slice(0, 16) : ''} onChange={(e) => onChange(e.target.value ? new Date(e.target.value).toISOString() : null)} InputLabelProps={{ shrink: true }} />;
    case 'NUMBER':
      return <TextField type="number" disabled={disabled} value={typeof value === 'number' ? value : ''} inputProps={{ min: q.min, max: q.max, step: q.decimais ? 'any' : 1 }}
        helperText={q.min != null || q.max != null ? `De ${q.min ?? '—'} a ${q.max ?? '—'}` : undefined} onChange={(e) => onChange(num(e.target.value) ?? null)} />;
    case 'LOCATION': {
      const p = (value && typeof value === 'object' ? value : {}) as { latitude?: number; longitude?: number };
      const put = (k: 'latitude' | 'longitude', s: string) => { const next = { ...p, [k]: num(s) }; onChange(next.latitude == null && next.longitude == null ? null : next); };
      return (
        <Stack direction="row" spacing={1.5} alignItems="center">
          <TextField size="small" type="number" label="Latitude" disabled={disabled} value={p.latitude ?? ''} onChange={(e) => put('latitude', e.target.value)} />
          <TextField size="small" type="number" label="Longitude" disabled={disabled} value={p.longitude ?? ''} onChange={(e) => put('longitude', e.target.value)} />
          <Button size="small" disabled={disabled || !navigator.geolocation} onClick={() => navigator.geolocation.getCurrentPosition((g) => onChange({ latitude: g.coords.latitude, longitude: g.coords.longitude }))}>Usar minha localização</Button>
        </Stack>
      );
    }
    case 'PICTURE':
      return <ImageUploader label="Foto" value={typeof value === 'string' ? value : null} disabled={disabled} onChange={(v) => onChange(v ?? null)} />;
    case 'SIGNATURE':
      return <SignaturePad value={typeof value === 'string' ? value : null} disabled={disabled} onChange={onChange} />;
  }
}

/** The answer as text/picture, read-only. */
function AnswerValue({ q, value }: { q: Question; value: unknown }) {
  if (value === undefined || value === null || value === '') return <Typography color="text.secondary">Sem resposta</Typography>;
  switch (q.tipo) {
    case 'YES_OR_NO': return <Typography>{value ? 'Sim' : 'Não'}</Typography>;
    case 'MULTIPLE_CHOICE': return <Stack direction="row" spacing={0.5}>{(Array.isArray(value) ? value : [value]).map((v) => <Chip key={String(v)} size="small" label={String(v)} />)}</Stack>;
    case 'DATE_TIME': return <Typography>{formatDateTime(String(value))}</Typography>;
    case 'LOCATION': { const p = value as { latitude: number; longitude: number }; return <Typography>{p.latitude}, {p.longitude}</Typography>; }
    case 'PICTURE': case 'SIGNATURE': return <ImagePreview url={thumbOf(String(value))} alt={typeLabel(q.tipo)} />;
    default: return <Typography>{String(value)}</Typography>;
  }
}

/** The register answering a questionnaire of `entity`: a reference to it and a json `widget: answers` field. */
function answersRegister(entity: EntityMeta): { e: EntityMeta; ref: FieldMeta; answers: FieldMeta } | undefined {
  for (const e of model.entities) {
    const ref = e.fields.find((f) => f.type === 'reference' && f.reference === entity.key);
    const answers = e.fields.find((f) => f.widget === 'answers');
    if (ref && answers) return { e, ref, answers };
  }
  return undefined;
}

function AnswerList({ questions, answers }: { questions: Question[]; answers: Answer[] }) {
  const by = new Map(answers.map((a) => [a.questao, a.valor]));
  return (
    <Stack spacing={1}>
      {questions.map((q, i) => (
        <Box key={q.id}>
          <Typography variant="caption" color="text.secondary">{i + 1}. {q.pergunta}</Typography>
          <AnswerValue q={q} value={by.get(q.id)} />
        </Box>
      ))}
    </Stack>
  );
}

/** Show view of `widget: questionnaire`: the form as a respondent sees it (answer widgets, Enviar respostas) and
 *  the answers already given. */
export function QuestionnaireView({ entity, field }: { entity: EntityMeta; field: FieldMeta }) {
  const record = useRecordContext();
  const questions: Question[] = Array.isArray(record?.[field.name]) ? (record![field.name] as Question[]) : [];
  const reg = answersRegister(entity);
  const { can } = useCan();
  const canAnswer = !!reg && can(permissionFor(reg.e, 'create'));
  const canRead = !!reg && can(permissionFor(reg.e, 'list'));
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [create, { isPending }] = useCreate();
  const notify = useNotify();
  const { data: given = [], refetch } = useGetList(reg?.e.key ?? 'none', {
    pagination: { page: 1, perPage: 50 }, sort: { field: 'id', order: 'DESC' }, filter: reg ? { [reg.ref.name]: record?.id } : {},
  }, { enabled: canRead && record?.id != null });
  const submit = () => {
    const respostas: Answer[] = questions.filter((q) => values[q.id] !== undefined && values[q.id] !== null).map((q) => ({ questao: q.id, valor: values[q.id] }));
    const problems = checkAnswers(questions, respostas);
    setErrors(Object.fromEntries(problems.map((p) => [p.field, p.message])));
    if (problems.length) return;
    create(reg!.e.key, { data: { [reg!.ref.name]: record!.id, [reg!.answers.name]: respostas } }, {
      onSuccess: () => { notify('Respostas enviadas', { type: 'success' }); setValues({}); refetch(); },
      onError: (e) => notify((e as Error).message, { type: 'error' }),
    });
  };
  return (
    <Stack spacing={3} data-testid="questionnaire-view">
      <Stack spacing={2}>
        {questions.map((q, i) => (
          <Paper key={q.id} variant="outlined" sx={{ p: 2 }} data-testid={`responder-${i}`}>
            <Typography sx={{ fontWeight: 600 }}>{i + 1}. {q.pergunta}{q.obrigatoria ? ' *' : ''}</Typography>
            {q.descricao && <Typography variant="body2" color="text.secondary">{q.descricao}</Typography>}
            <Box sx={{ mt: 1 }}><AnswerInput q={q} value={values[q.id]} disabled={!canAnswer} onChange={(v) => setValues((s) => ({ ...s, [q.id]: v }))} /></Box>
            {errors[q.id] && <Alert severity="error" sx={{ mt: 1 }}>{errors[q.id]}</Alert>}
          </Paper>
        ))}
        {canAnswer && <Box><Button variant="contained" disabled={isPending || !questions.length} onClick={submit}>Enviar respostas</Button></Box>}
      </Stack>
      {canRead && (
        <Box>
          <Typography variant="subtitle1" color="primary" sx={{ fontWeight: 600, mb: 1 }}>Respostas ({given.length})</Typography>
          {!given.length && <Typography color="text.secondary">Nenhum item foi encontrado</Typography>}
          <Stack spacing={2} divider={<Divider />}>
            {given.map((r) => (
              <Box key={r.id} data-testid="resposta">
                <Typography variant="body2" color="text.secondary">{r.dataResposta ? formatDateTime(String(r.dataResposta)) : ''}</Typography>
                <AnswerList questions={questions} answers={(r[reg!.answers.name] ?? []) as Answer[]} />
              </Box>
            ))}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}

/** Show/list value of `widget: answers`: each answer beside its question (read from the referenced questionnaire). */
export function AnswersValue({ entity, field }: { entity: EntityMeta; field: FieldMeta }) {
  const record = useRecordContext();
  const ref = entity.fields.find((f) => f.type === 'reference' && model.entities.find((e) => e.key === f.reference)?.fields.some((x) => x.widget === 'questionnaire'));
  const target = ref ? model.entities.find((e) => e.key === ref.reference) : undefined;
  const qField = target?.fields.find((x) => x.widget === 'questionnaire');
  const { data: form } = useGetOne(target?.key ?? 'none', { id: record?.[ref?.name ?? ''] }, { enabled: !!target && record?.[ref?.name ?? ''] != null });
  const answers = (Array.isArray(record?.[field.name]) ? record![field.name] : []) as Answer[];
  if (!form || !qField) return <span>{answers.length} resposta(s)</span>;
  return <AnswerList questions={(form[qField.name] ?? []) as Question[]} answers={answers} />;
}
