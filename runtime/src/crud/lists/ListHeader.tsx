// Header row of the shared table: three-state sorting (asc, desc, none) and column order by drag and drop
// (the order is saved with the column choice, see useColumnChoices); the bulk selection column's 'Selecionar todos'.
import { Children, isValidElement, useState, type DragEvent, type MouseEvent, type ReactNode } from 'react';
import { TableHead, TableRow } from '@mui/material';
import { DatagridClasses, DatagridHeaderCell, type SortPayload } from 'react-admin';
import { nextSort } from '../lib/sort';
import { SelectAllCell } from './BulkActions';

interface Props {
  children?: ReactNode;
  sort?: SortPayload;
  setSort?: (s: SortPayload) => void;
  onMove?: (from: string, to: string) => void;
  className?: string;
}

const DRAG_TYPE = 'application/x-rastro-column';

export function ListHeader({ children, sort, setSort, onMove, className }: Props) {
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const updateSort = (e: MouseEvent<HTMLElement>) => {
    e.stopPropagation();
    const field = e.currentTarget.dataset.field;
    if (!field || !setSort) return;
    setSort(nextSort(sort as never, field, (e.currentTarget.dataset.order as 'ASC' | 'DESC') || 'ASC'));
  };
  const end = () => { setDragging(null); setOver(null); };
  return (
    <TableHead className={[className, DatagridClasses.thead].filter(Boolean).join(' ')}>
      <TableRow className={`${DatagridClasses.row} ${DatagridClasses.headerRow}`}>
        {Children.map(children, (field, index) => {
          if (!isValidElement(field)) return null;
          if ((field.props as { selectAll?: boolean }).selectAll) return <SelectAllCell key="selecionar" />;
          const source = (field.props as { source?: string }).source;
          // metadata column width (px): the fixed table layout keeps it, the other columns share the rest
          const width = (field.props as { width?: number }).width;
          const movable = !!source && !!onMove && !(field.props as { fixed?: boolean }).fixed;
          const drag = movable ? {
            draggable: true,
            title: 'Arraste para mudar a ordem das colunas',
            onDragStart: (e: DragEvent) => { e.dataTransfer.setData(DRAG_TYPE, source); e.dataTransfer.setData('text/plain', source); e.dataTransfer.effectAllowed = 'move'; setDragging(source); },
            onDragOver: (e: DragEvent) => { if (dragging && dragging !== source) { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; setOver(source); } },
            onDragLeave: () => setOver((o) => (o === source ? null : o)),
            onDrop: (e: DragEvent) => {
              e.preventDefault();
              const from = e.dataTransfer.getData(DRAG_TYPE) || dragging;
              if (from && from !== source) onMove!(from, source);
              end();
            },
            onDragEnd: end,
          } : {};
          return (
            <DatagridHeaderCell
              key={source || index}
              className={`${DatagridClasses.headerCell} column-${source}`}
              sort={sort}
              field={field as never}
              isSorting={sort?.field === ((field.props as { sortBy?: string }).sortBy || source)}
              updateSort={updateSort as never}
              data-column={source}
              sx={{
                ...(width ? { width } : {}),
                cursor: movable ? 'grab' : undefined,
                opacity: dragging === source ? 0.5 : 1,
                boxShadow: over === source ? (t) => `inset 3px 0 0 ${t.palette.primary.main}` : undefined,
              }}
              {...(drag as object)}
            />
          );
        })}
      </TableRow>
    </TableHead>
  );
}
