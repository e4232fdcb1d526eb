import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'react-hot-toast';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from '../features/auth';
import { UserScopedProviders } from './providers';
import { AppRoutes } from './routes';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <UserScopedProviders>
            <AppRoutes />
          </UserScopedProviders>
        </AuthProvider>
      </BrowserRouter>
      {/* react-hot-toast's defaults are the toast rules of docs/PRODUCT.md#toasts: top-right, 4 s, success 2 s, loading sticky. */}
      <Toaster position="top-right" />
    </QueryClientProvider>
  );
}
