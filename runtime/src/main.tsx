import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { installWindowZoom } from './layout/zoom';
import { installBugReporter, rootErrorOptions } from './api/bugtrack';

installWindowZoom();
installBugReporter();

// History mode, base '/'; a data router so the unsaved-changes guard (useBlocker) works.
const router = createBrowserRouter([{ path: '*', element: <App /> }], { basename: '/' });

createRoot(document.getElementById('root')!, rootErrorOptions).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
