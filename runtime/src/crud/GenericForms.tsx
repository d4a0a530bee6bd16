// GenericCreate / GenericEdit / GenericShow: headless hooks (useGenericCreate, useGenericEdit)
// driving the shared FormPanel, and a read-only show panel.
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Divider, Grid, Stack, Typography } from '@mui/material';
import { session } from '../api/session';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import type { JSONSchema7 } from 'json-schema';
import { RecordContextProvider, ResourceContextProvider, Title, useCreate, useDelete, useGetOne, useNotify, useUpdate } from 'react-admin';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { EntityMeta } from '../../../generator/model';
import { pathFor, permissionFor } from '../model';
import { FormPanel } from './FormPanel';
import { HistoryDialog } from './HistoryDialog';
import { PanelHeader } from './PanelHeader';
import { useCan } from './useCan';
import { FieldValue } from './FieldValue';
import { fieldErrorsOf } from './errors';
import { Loading } from './Loading';
import { useBound } from './params';
import { UnknownParams } from './GenericList';

export interface GenericProps { entity: EntityMeta; schema: JSONSchema7 }


export { Loading };

/** Navigation state of an add form opened from a nested list: the parent's value, and where to go back. */
export interface CreateState { defaults?: Record<string, unknown>; back?: string }

export function useGenericCreate(entity: EntityMeta) {
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as CreateState;
  const bound = useBound(entity);
  const back = state.back ?? pathFor(entity.key, 'list', undefined, bound?.route);
  const notify = useNotify();
  const [create, { isPending }] = useCreate();
  const save = async (data: Record<string, unknown>) => {
    try {
      await create(bound?.resource ?? entity.key, { data }, { returnPromise: true });
      notify('Registro salvo', { type: 'success', autoHideDuration: 3000 });
      navigate(back);
      return undefined;
    } catch (e) {
      notify((e as Error).message, { type: 'error', autoHideDuration: 3000 });
      return fieldErrorsOf(e, entity);
    }
  };
  // Below route parameters a new row carries their values (the server binds them too).
  const defaults = bound ? { ...state.defaults, ...bound.fields } : state.defaults;
  return { save, saving: isPending, cancel: () => navigate(back), defaults, bound };
}

/** `given.id`: the record (default the route's :id); `given.saved`: what follows a save (default: back to the list). */
export function useGenericEdit(entity: EntityMeta, given: { id?: string | number; saved?: () => void } = {}) {
  const params = useParams();
  const id = String(given.id ?? params.id ?? '');
  const navigate = useNavigate();
  const notify = useNotify();
  const { can } = useCan();
  const bound = useBound(entity);
  const resource = bound?.resource ?? entity.key;
  const { data: record, isPending: loading, error } = useGetOne(resource, { id }, { enabled: !bound?.error });
  const [update, { isPending: saving }] = useUpdate();
  const [remove] = useDelete();
  const toList = () => navigate(pathFor(entity.key, 'list', undefined, bound?.route));
  const save = async (data: Record<string, unknown>) => {
    try {
      await update(resource, { id, data, previousData: record }, { mutationMode: 'pessimistic', returnPromise: true });
      notify('Registro salvo', { type: 'success', autoHideDuration: 3000 });
      (given.saved ?? toList)();
      return undefined;
    } catch (e) {
      notify((e as Error).message, { type: 'error', autoHideDuration: 3000 });
      return fieldErrorsOf(e, entity);
    }
  };
  const del = async () => {
    try {
      await remove(resource, { id, previousData: record }, { mutationMode: 'pessimistic', returnPromise: true });
      notify('Registro excluído', { type: 'success', autoHideDuration: 3000 });
      toList();
    } catch (e) {
      // persistent toast with a Copiar button (spec section 8)
      const info = JSON.stringify({ _id: id, empresaAtiva: session.get()?.empresaAtiva ?? null, tabela: entity.table });
      notify(
        <Alert
          severity="error"
          variant="filled"
          action={
            <Button color="inherit" size="small" onClick={() => void navigator.clipboard?.writeText(info).catch(() => undefined)}>
              Copiar
            </Button>
          }
        >
          {(e as Error).message}
        </Alert>,
        { autoHideDuration: 160000 },
      );
    }
  };
  return {
    id,
    bound,
    record,
    loading,
    error,
    saving,
    save,
    cancel: toList,
    remove: can(permissionFor(entity, 'excluir')) && !entity.readOnlyResource ? del : undefined,
  };
}

export function GenericCreate({ entity, schema }: GenericProps) {
  const c = useGenericCreate(entity);
  if (c.bound?.error) return <UnknownParams message={c.bound.error} />;
  return (
    <ResourceContextProvider value={entity.key}>
      <FormPanel entity={entity} schema={schema} title={`Adicionar ${entity.label.singular}`} defaults={c.defaults} saving={c.saving} onSubmit={c.save} onCancel={c.cancel} />
    </ResourceContextProvider>
  );
}

/** The edit form; in a record page tab: `id` given, only `sections`, staying on the tab after saving. */
export function GenericEdit({ entity, schema, id, sections, title, saved }: GenericProps & { id?: string | number; sections?: string[]; title?: string; saved?: () => void }) {
  const e = useGenericEdit(entity, { id, saved });
  const [history, setHistory] = useState(false);
  if (e.bound?.error) return <UnknownParams message={e.bound.error} />;
  if (e.loading) return <Loading />;
  if (e.error || !e.record) return <Typography sx={{ p: 4 }} color="error">{(e.error as Error)?.message ?? 'Nenhum item foi encontrado'}</Typography>;
  return (
    <ResourceContextProvider value={entity.key}>
      <FormPanel
        entity={entity}
        schema={schema}
        title={title ?? `Editar ${entity.label.singular}`}
        sections={sections}
        record={e.record}
        saving={e.saving}
        onSubmit={e.save}
        onCancel={e.cancel}
        onDelete={e.remove}
        onHistory={entity.history ? () => setHistory(true) : undefined}
      />
      {entity.history && <HistoryDialog entity={entity} id={e.id} resource={e.bound?.resource} open={history} onClose={() => setHistory(false)} />}
    </ResourceContextProvider>
  );
}

export function GenericShow({ entity }: GenericProps) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { can } = useCan();
  const bound = useBound(entity);
  const { data: record, isPending, error } = useGetOne(bound?.resource ?? entity.key, { id }, { enabled: !bound?.error });
  const [history, setHistory] = useState(false);
  if (bound?.error) return <UnknownParams message={bound.error} />;
  if (isPending) return <Loading />;
  if (error || !record) return <Typography sx={{ p: 4 }} color="error">{(error as Error)?.message ?? 'Nenhum item foi encontrado'}</Typography>;
  const visible = entity.fields.filter((f) => !f.hidden && !f.writeOnly && f.type !== 'password');
  const used = new Set<string>();
  const sections = entity.form.sections.map((s) => ({ title: s.title, fields: s.fields.map((n) => visible.find((f) => f.name === n)).filter((f) => f && !used.has(f.name) && used.add(f.name)) }));
  const rest = visible.filter((f) => !used.has(f.name) && f.name !== 'empresaId' && f.name !== 'ambienteId');
  sections.push({ title: 'Registro', fields: rest });
  return (
    <ResourceContextProvider value={entity.key}>
      <RecordContextProvider value={record}>
        <Title title={`Visualizar ${entity.label.singular}`} />
        <Card>
          <PanelHeader title={`Visualizar ${entity.label.singular}`} onBack={() => navigate(pathFor(entity.key, 'list', undefined, bound?.route))}>
            {entity.history && (
              <Button startIcon={<HistoryIcon />} onClick={() => setHistory(true)}>
                Histórico de alterações
              </Button>
            )}
            {can(permissionFor(entity, 'edit')) && !entity.readOnlyResource && (
              <Button variant="contained" startIcon={<EditIcon />} onClick={() => navigate(pathFor(entity.key, 'edit', id, bound?.route))}>
                Editar
              </Button>
            )}
          </PanelHeader>
          <Divider />
          <CardContent sx={{ px: 3 }}>
            <Stack spacing={3}>
              {sections.filter((s) => s.fields.length).map((s) => (
                <Box key={s.title}>
                  <Typography variant="subtitle1" color="primary" sx={{ fontWeight: 600, mb: 1 }}>{s.title}</Typography>
                  <Grid container spacing={2}>
                    {s.fields.map((f) => (
                      <Grid key={f!.name} size={{ xs: 12, sm: 6, md: 4 }}>
                        <Typography variant="caption" color="text.secondary">{f!.label}</Typography>
                        <Box sx={{ minHeight: 24, fontSize: '0.95rem', '& .MuiTypography-root': { fontSize: 'inherit' } }}><FieldValue field={f!} /></Box>
                      </Grid>
                    ))}
                  </Grid>
                </Box>
              ))}
            </Stack>
          </CardContent>
        </Card>
        {entity.history && <HistoryDialog entity={entity} id={id} resource={bound?.resource} open={history} onClose={() => setHistory(false)} />}
      </RecordContextProvider>
    </ResourceContextProvider>
  );
}
