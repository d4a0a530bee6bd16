// Menu icons by name (metadata menu.icon); unknown names fall back to a generic icon.
import type { ReactElement } from 'react';
import DirectionsCar from '@mui/icons-material/DirectionsCar';
import Business from '@mui/icons-material/Business';
import Warehouse from '@mui/icons-material/Warehouse';
import People from '@mui/icons-material/People';
import Person from '@mui/icons-material/Person';
import Badge from '@mui/icons-material/Badge';
import Security from '@mui/icons-material/Security';
import Public from '@mui/icons-material/Public';
import History from '@mui/icons-material/History';
import Category from '@mui/icons-material/Category';
import Factory from '@mui/icons-material/Factory';
import Label from '@mui/icons-material/Label';
import ListAlt from '@mui/icons-material/ListAlt';
import Settings from '@mui/icons-material/Settings';
import Key from '@mui/icons-material/Key';
import AccountTree from '@mui/icons-material/AccountTree';
import MapIcon from '@mui/icons-material/Map';
import MyLocation from '@mui/icons-material/MyLocation';
import Route from '@mui/icons-material/Route';
import LocalShipping from '@mui/icons-material/LocalShipping';
import Videocam from '@mui/icons-material/Videocam';
import Assessment from '@mui/icons-material/Assessment';
import Router from '@mui/icons-material/Router';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import DirectionsCarFilled from '@mui/icons-material/DirectionsCarFilled';
import Domain from '@mui/icons-material/Domain';
import Flag from '@mui/icons-material/Flag';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import MenuBook from '@mui/icons-material/MenuBook';
import VpnKey from '@mui/icons-material/VpnKey';
import AssignmentInd from '@mui/icons-material/AssignmentInd';
import LinkIcon from '@mui/icons-material/Link';
import Queue from '@mui/icons-material/Queue';
import PendingActions from '@mui/icons-material/PendingActions';

const icons: Record<string, ReactElement> = {
  DirectionsCar: <DirectionsCar />, Business: <Business />, Warehouse: <Warehouse />, Garage: <Warehouse />, People: <People />,
  Person: <Person />, Badge: <Badge />, Security: <Security />, Public: <Public />, History: <History />, Category: <Category />,
  Factory: <Factory />, Label: <Label />, Settings: <Settings />, Key: <Key />, AccountTree: <AccountTree />,
  Map: <MapIcon />, MyLocation: <MyLocation />, Route: <Route />, LocalShipping: <LocalShipping />, Videocam: <Videocam />,
  Assessment: <Assessment />, Router: <Router />, AdminPanelSettings: <AdminPanelSettings />, DirectionsCarFilled: <DirectionsCarFilled />,
  Domain: <Domain />, Flag: <Flag />, LibraryBooks: <LibraryBooks />, MenuBook: <MenuBook />, VpnKey: <VpnKey />,
  AssignmentInd: <AssignmentInd />, Link: <LinkIcon />, Queue: <Queue />, PendingActions: <PendingActions />, ListAlt: <ListAlt />,
};

/** Icon names the menu knows (metadata menu.icon must be one of them to show its own icon). */
export const iconNames = () => Object.keys(icons);

export const iconFor = (name?: string) => (name && icons[name]) || <ListAlt />;
