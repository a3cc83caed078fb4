import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource/roboto/latin-400.css';
import '@fontsource/roboto/latin-500.css';
import '@fontsource/roboto/latin-700.css';
import 'bootstrap/dist/css/bootstrap.min.css';
import './app/theme.css';
import { App, createQueryClient } from './app/app';
import { startFirstScreen } from './app/first-screen';

const queryClient = createQueryClient();
startFirstScreen(queryClient, window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
