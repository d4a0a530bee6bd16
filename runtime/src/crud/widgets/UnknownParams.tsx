// A route naming an unknown technology, model or other parameter value (the server answers 404 too): shared by the
// lists, the forms and the provider screens.
import { Alert, Box, Card, Divider } from '@mui/material';
import { Title } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { PanelHeader } from './PanelHeader';

export function UnknownParams({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <Card className="rastro-list">
      <Title title={message} />
      <PanelHeader title={message} onBack={() => navigate(-1)} />
      <Divider />
      <Box sx={{ p: 3 }}><Alert severity="warning">{message}</Alert></Box>
    </Card>
  );
}
