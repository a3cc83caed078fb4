import { Alert, Button } from 'react-bootstrap';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { clientSettingsKeys, getClientSettings } from '../api/client-settings';
import { ApiError, errorMessage } from '../api/client';
import { RealtimeProvider } from '../api/use-realtime';
import { AuthProvider } from '../lib/auth';
import { SettingsProvider } from '../lib/settings';
import { AppRoutes } from './router';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx answers are final; a dropped link gets one more try.
        retry: (count, err) => !(err instanceof ApiError && err.statusCode >= 400 && err.statusCode < 500) && count < 1,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

function Routed() {
  const settings = useQuery({
    queryKey: clientSettingsKeys.all,
    queryFn: ({ signal }) => getClientSettings(signal),
    staleTime: Infinity,
    retry: 2,
  });
  if (settings.isPending) return <div className="text-center text-secondary p-4">Loading...</div>;
  if (settings.isError) {
    return (
      <div className="app-content">
        <Alert variant="danger" className="mt-4">
          <strong>Oops!</strong> {errorMessage(settings.error)}
          <div className="mt-2">
            <Button variant="light" size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </div>
        </Alert>
      </div>
    );
  }
  return (
    <SettingsProvider settings={settings.data}>
      <AuthProvider>
        <RealtimeProvider>
          <AppRoutes />
        </RealtimeProvider>
      </AuthProvider>
    </SettingsProvider>
  );
}

/** Providers: TanStack Query, runtime settings, session; the routes follow the browser's location. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Routed />
    </QueryClientProvider>
  );
}
