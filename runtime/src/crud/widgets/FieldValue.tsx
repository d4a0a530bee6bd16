// Renders one field of the record in context (list cells and the show panel). The questionnaire views load on use
// (they bring the question widgets): a list without such a field does not load them.
import { lazy, Suspense } from 'react';
import { Chip, Link as MuiLink, Stack } from '@mui/material';
import { Link } from 'react-router-dom';
import { ReferenceArrayField, ReferenceField, SingleFieldList, ChipField, TextField, useRecordContext } from 'react-admin';
import { useReferenceResource } from '../lib/params';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { entityByKey } from '../../model';
import { formatDate, formatDateTime, formatTimestamp } from '../lib/format';
import { ImagePreview } from './ImagePreview';
import { thumbOf } from '../lib/upload';
import { LookupValue } from './lookup';
import { canList, labelsOf, referencePath } from '../lib/labels';
import { useCan } from '../lib/useCan';

const questionnaire = () => import('./questionnaire');
const QuestionnaireView = lazy(() => questionnaire().then((m) => ({ default: m.QuestionnaireView })));
const AnswersValue = lazy(() => questionnaire().then((m) => ({ default: m.AnswersValue })));

/** `record`: the show panel (timestamps written out with the weekday); in lists they are short, written out in the tooltip. */
export function FieldValue({ field, entity, record: inRecord }: { field: FieldMeta; entity?: EntityMeta; record?: boolean }) {
  const record = useRecordContext();
  const reference = useReferenceResource(field.reference);
  const { can } = useCan();
  const target = field.reference ? entityByKey(field.reference) : undefined;
  const v = record?.[field.name];
  // core widgets: the questionnaire as its respondents see it (show) / its size (list); answers beside their questions
  if (field.widget === 'questionnaire') return entity ? <Suspense fallback={null}><QuestionnaireView entity={entity} field={field} /></Suspense> : <span>{Array.isArray(v) ? `${v.length} questões` : ''}</span>;
  if (field.widget === 'answers') return entity ? <Suspense fallback={null}><AnswersValue entity={entity} field={field} /></Suspense> : <span>{Array.isArray(v) ? `${v.length} respostas` : ''}</span>;
  if (field.lookup) return <LookupValue entity={entity} field={field} record={record} />;
  if (field.type === 'reference' && field.reference) {
    if (v === null || v === undefined) return <span />;
    // The label came with the row (server/read LABELS): shown, a link only when the user can open the row.
    const l = labelsOf(record, field.name);
    if (l) return <ReferenceLabel target={target} id={v} label={l.value} can={can} />;
    // A row without labels (a write's answer): read the register only when the user may (else it answers 403).
    if (!canList(target, can)) return <span />;
    // A register with route parameters is read below the current route's values (its own resource name has no
    // ra definition there: the representation field is named).
    if (reference !== field.reference) {
      return (
        <ReferenceField source={field.name} reference={reference!} link={false} record={record} emptyText="">
          <TextField source={target?.recordRepresentation ?? 'descricao'} />
        </ReferenceField>
      );
    }
    return <ReferenceField source={field.name} reference={field.reference} link={false} record={record} emptyText="" />;
  }
  if (field.type === 'referenceList' && field.reference) {
    const l = labelsOf(record, field.name);
    if (l) {
      const ids = Array.isArray(v) ? v : [];
      const names = Array.isArray(l.value) ? l.value : [];
      return (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {ids.map((id, i) => typeof names[i] === 'string' ? <Chip key={String(id)} size="small" label={names[i] as string} /> : null)}
        </Stack>
      );
    }
    if (!canList(target, can)) return <span />;
    const rep = target?.recordRepresentation ?? 'descricao';
    return (
      <ReferenceArrayField source={field.name} reference={field.reference} record={record}>
        <SingleFieldList linkType={false}>
          <ChipField source={rep} size="small" />
        </SingleFieldList>
      </ReferenceArrayField>
    );
  }
  if (v === null || v === undefined || v === '') return <span />;
  switch (field.type) {
    case 'boolean':
      return <span>{v ? 'Sim' : 'Não'}</span>;
    case 'date':
      return <span>{formatDate(String(v))}</span>;
    case 'datetime':
      return inRecord ? <span>{formatTimestamp(String(v))}</span> : <span title={formatTimestamp(String(v))}>{formatDateTime(String(v))}</span>;
    case 'enum': {
      const o = field.options?.find((x) => x.value === v);
      return <Chip size="small" variant="outlined" label={o?.label ?? String(v)} />;
    }
    case 'number':
      return <span>{typeof v === 'number' ? v.toLocaleString('pt-BR') : String(v)}</span>;
    case 'json':
      if (field.items === 'string' && Array.isArray(v)) return <span>{v.map((x) => field.options?.find((o) => o.value === x)?.label ?? String(x)).join(', ')}</span>;
      return <span>{JSON.stringify(v)}</span>;
    case 'geometry':
      return <span>{JSON.stringify(v)}</span>;
    case 'image':
      return <ImagePreview url={thumbOf(String(v))} alt={field.label} />;
    case 'file':
      return <a href={String(v)} target="_blank" rel="noopener">Baixar arquivo</a>;
    default:
      return <span>{String(v)}</span>;
  }
}

/** A reference by the label its row brought; a link to the referenced record when the user can open it (the click
 *  does not also open the list's row). null label: a row the user's company does not see. */
function ReferenceLabel({ target, id, label, can }: { target: EntityMeta | undefined; id: unknown; label: unknown; can: (key: string) => boolean }) {
  if (typeof label !== 'string') return <span />;
  const to = target ? referencePath(target, id, can) : false;
  if (!to) return <span>{label}</span>;
  return <MuiLink component={Link} to={to} underline="hover" onClick={(e: React.MouseEvent) => e.stopPropagation()}>{label}</MuiLink>;
}
