// Menu icons by name (metadata menu.icon): the generated map holds exactly the icons the metadata names
// (the generator refuses a name @mui/icons-material lacks); anything else falls back to a generic icon.
import ListAlt from '@mui/icons-material/ListAlt';
import { icons } from '@rastro/generated/icons';

export const iconFor = (name?: string) => (name && icons[name]) || <ListAlt />;
