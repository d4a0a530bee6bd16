// The shared form panel (spec section 2): rjsf + @rjsf/mui form in sections, Salvar / Cancelar /
// Excluir / Histórico de alterações, Enter submits, Esc cancels, unsaved-changes guard.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Button, Card, CardContent, Divider, Grid, Stack, Typography } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import DeleteIcon from '@mui/icons-material/Delete';
import HistoryIcon from '@mui/icons-material/History';
import CloseIcon from '@mui/icons-material/Close';
import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { Confirm, Title } from 'react-admin';
import { useBlocker } from 'react-router-dom';
import type { EntityMeta } from '../../../../shared/model';
import { SchemaForm } from './SchemaForm';
import { useSchemaForm } from '../lib/useSchemaForm';
import { PanelHeader } from '../widgets/PanelHeader';
import { ActionButtons } from './ActionButtons';
import { HelpButton } from '../../layout/HelpPanel';

// Groups the object's properties by entity.form.sections, two columns each.
function SectionsTemplate(props: ObjectFieldTemplateProps) {
  const entity: EntityMeta | undefined = (props.registry.formContext as any)?.entity;
  const only: string[] | undefined = (props.registry.formContext as any)?.sections;
  const byName = new Map(props.properties.map((p) => [p.name, p]));
  const used = new Set<string>();
  const sections: { title: string; help?: { screen: string; section: string }; items: typeof props.properties }[] = (entity?.form.sections ?? []).filter((s) => !only || only.includes(s.title)).map((s) => ({
    title: s.title,
    help: s.help,
    items: s.fields.map((n) => byName.get(n)).filter((p): p is NonNullable<typeof p> => !!p && !p.hidden && !used.has(p.name) && !!used.add(p.name)),
  }));
  // A tab showing some sections only keeps the other fields' values without showing them.
  const rest = only ? [] : props.properties.filter((p) => !used.has(p.name) && !p.hidden);
  if (rest.length) sections.push({ title: sections.length ? 'Outros' : '', items: rest });
  return (
    <Stack spacing={3}>
      {sections
        .filter((s) => s.items.length)
        .map((s, i) => (
          <Box key={s.title || i} component="section">
            {s.title && (
              <Typography variant="subtitle1" color="primary" sx={{ fontWeight: 600, mb: 1.5 }}>
                {s.title}
                {s.help && <HelpButton screen={s.help.screen} section={s.help.section} />}
              </Typography>
            )}
            <Grid container columnSpacing={2} rowSpacing={0.5}>
              {s.items.map((p) => (
                <Grid key={p.name} size={((f) => f?.widget || f?.map)(entity?.fields.find((f) => f.name === p.name)) ? 12 : { xs: 12, md: 6 }}>
                  {p.content}
                </Grid>
              ))}
            </Grid>
          </Box>
        ))}
    </Stack>
  );
}

export interface FormPanelProps {
  entity: EntityMeta;
  schema: JSONSchema7;
  title: string;
  record?: Record<string, unknown>;
  defaults?: Record<string, unknown>; // create: initial values
  saving?: boolean;
  // resolves to server field errors, or undefined when saved
  onSubmit: (data: Record<string, unknown>) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
  onDelete?: () => Promise<void>;
  onHistory?: () => void;
  extraActions?: ReactNode;
  sections?: string[]; // only these form sections (a record page tab)
}

export function FormPanel({ entity, schema, title, record, defaults, saving, onSubmit, onCancel, onDelete, onHistory, extraActions, sections }: FormPanelProps) {
  const form = useSchemaForm(entity, schema, record, defaults);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const leaving = useRef(false);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => form.dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!form.dirty) return;
    const h = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', h);
    return () => window.removeEventListener('beforeunload', h);
  }, [form.dirty]);

  // Esc cancels (unless a popup or dialog is open and takes it)
  const cancelRef = useRef(onCancel);
  cancelRef.current = onCancel;
  useEffect(() => {
    const h = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (document.querySelector('.MuiAutocomplete-popper, .MuiDialog-root, .MuiPopover-root, .MuiPickerPopper-root')) return;
      cancelRef.current();
    };
    window.addEventListener('keydown', h);
    return () => window.removeEventListener('keydown', h);
  }, []);

  const submit = async () => {
    if (saving) return;
    if (!form.checkAll()) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.rastro-form .Mui-error input, .rastro-form .Mui-error textarea')?.focus());
      return;
    }
    // callers navigate after a successful save; the guard must not stop that
    leaving.current = true;
    try {
      const errs = await onSubmit(form.data);
      if (errs) {
        leaving.current = false;
        if (Object.keys(errs).length) form.setServerErrors(errs);
      }
    } catch {
      leaving.current = false;
    }
  };

  return (
    <Box className="rastro-form">
      <Title title={title} />
      <Card>
        <PanelHeader title={title} onBack={onCancel} />
        <Divider />
        <CardContent sx={{ px: 3, pt: 2.5 }}>
          <SchemaForm entity={entity} form={form} sections={sections} templates={{ ObjectFieldTemplate: SectionsTemplate }} onSubmit={() => void submit()} disabled={saving}>
            <Divider sx={{ mt: 2, mx: -3 }} />
            <Stack direction="row" spacing={1.5} sx={{ pt: 2, alignItems: 'center' }}>
              <Button type="submit" variant="contained" startIcon={<SaveIcon />} disabled={saving}>
                Salvar
              </Button>
              <Button variant="outlined" startIcon={<CloseIcon />} onClick={onCancel}>
                Cancelar
              </Button>
              {extraActions}
              {/* a register with a record page offers its actions in its tabs */}
              {record?.id != null && !entity.record && <ActionButtons entity={entity} record={record} describe />}
              <Box sx={{ flex: 1 }} />
              {onHistory && (
                <Button startIcon={<HistoryIcon />} onClick={onHistory}>
                  Histórico de alterações
                </Button>
              )}
              {onDelete && (
                <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirmDelete(true)}>
                  Excluir
                </Button>
              )}
            </Stack>
          </SchemaForm>
        </CardContent>
      </Card>
      {onDelete && (
        <Confirm
          isOpen={confirmDelete}
          title="Deseja Excluir?"
          content="Esta ação não poderá ser revertida, deseja realmente excluir?"
          confirm="Excluir"
          cancel="Cancelar"
          confirmColor="warning"
          onConfirm={async () => {
            setConfirmDelete(false);
            leaving.current = true;
            await onDelete();
          }}
          onClose={() => setConfirmDelete(false)}
        />
      )}
      <Confirm
        isOpen={blocker.state === 'blocked'}
        title="Deseja sair?"
        content="Você tem alterações não salvas. Se sair suas alterações serão perdidas!"
        confirm="Sair"
        cancel="Cancelar"
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      />
    </Box>
  );
}
