// The 'De' / 'Até' pickers of the list's date-range filter (DateRangeFilter), loaded when it first opens.
import dayjs from 'dayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DATE_FORMAT, type DateRange } from '../lib/dates';
import { PickersProvider } from './PickersProvider';

export default function DateRangeFields({ draft, setDraft }: { draft: DateRange; setDraft: (r: DateRange) => void }) {
  return (
    <PickersProvider>
      <DatePicker label="De" format={DATE_FORMAT} value={draft.from ? dayjs(draft.from) : null} onChange={(d) => setDraft({ ...draft, from: d?.isValid() ? d.format('YYYY-MM-DD') : '' })} slotProps={{ textField: { size: 'small' } }} />
      <DatePicker label="Até" format={DATE_FORMAT} value={draft.to ? dayjs(draft.to) : null} onChange={(d) => setDraft({ ...draft, to: d?.isValid() ? d.format('YYYY-MM-DD') : '' })} slotProps={{ textField: { size: 'small' } }} />
    </PickersProvider>
  );
}
